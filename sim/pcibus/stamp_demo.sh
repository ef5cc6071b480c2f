#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The stamping co-simulation of `make demo` (mk/pcibus.mk, demo-stamp):
# four runs of sim/pcibus/stamp_demo (100 kpps Poisson and 1.488 Mpps line
# rate, each at PCI 66 and 33 MHz), then tsstat's thesis table of card
# stamps vs truth and interrupt-time software stamps vs truth per run.
#
#   stamp_demo.sh STAMP_DEMO TSSTAT OUTDIR [PKTS_100K [PKTS_1488K]]
#
# Exit status: non-zero when a run is broken (stamp_demo says BROKEN or
# fails) or tsstat cannot read a file it wrote, or the packet counts of
# the files disagree with the run; a missed bar is a MISS line, not a
# failure.
set -u
BIN=$1
TSSTAT=$2
OUT=$3
N100=${4:-5000}
N1488=${5:-20000}
mkdir -p "$OUT" || exit 1
fail=0

# FILE KEY: the integer value of "KEY": in tsstat's --json line
json_int() {
	sed -n "s/.*\"$2\": *\([-0-9]*\).*/\1/p" "$1"
}

for run in "66 100000 $N100" "66 1488095 $N1488" "33 100000 $N100" "33 1488095 $N1488"; do
	set -- $run
	mhz=$1 rate=$2 n=$3
	name="pci$mhz-$((rate / 1000))k"
	echo
	echo "=== $name: PCI $mhz MHz, $rate pps, $n frames"
	if ! "$BIN" --out "$OUT" --name "$name" --mhz "$mhz" --rate "$rate" --pkts "$n" \
		>"$OUT/$name.log" 2>&1; then
		cat "$OUT/$name.log"
		echo "$name: BROKEN (stamp_demo failed; log $OUT/$name.log)"
		fail=1
		continue
	fi
	grep -v '^card time - true time' "$OUT/$name.log"
	delivered=$(sed -n "s/^\[$name\] delivered \([0-9]*\) of \([0-9]*\),.*/\1/p" "$OUT/$name.log")
	sent=$(sed -n "s/^\[$name\] delivered \([0-9]*\) of \([0-9]*\),.*/\2/p" "$OUT/$name.log")
	for kind in card sw; do
		if [ "$kind" = card ]; then
			title="card stamp - true arrival"
		else
			title="interrupt-time software stamp - true arrival (thesis Table 5.7 latency model)"
		fi
		echo "--- $name: $title (tsstat --ref $name-truth.pcapng $name-$kind.pcapng)"
		if ! "$TSSTAT" --ref "$OUT/$name-truth.pcapng" "$OUT/$name-$kind.pcapng" \
			--hist "$OUT/$name-$kind-hist.svg" --bin 250ns; then
			echo "$name: tsstat failed on $OUT/$name-$kind.pcapng"
			fail=1
			continue
		fi
		"$TSSTAT" --json --ref "$OUT/$name-truth.pcapng" "$OUT/$name-$kind.pcapng" \
			>"$OUT/$name-$kind.json" || fail=1
		# the files carry the run's stamps: tsstat's min and max equal
		# the run's own (within the 1 ns rounding of each file stamp)
		if [ "$kind" = card ]; then
			line=$(grep "^\[$name\] card stamp - truth:" "$OUT/$name.log")
		else
			line=$(grep "^\[$name\] software (interrupt-time) stamp - truth:" "$OUT/$name.log")
		fi
		rmin=$(echo "$line" | sed -n 's/.* min \([-0-9]*\) .*/\1/p')
		rmax=$(echo "$line" | sed -n 's/.* max \([-0-9]*\) ns.*/\1/p')
		tmin=$(json_int "$OUT/$name-$kind.json" min_ns)
		tmax=$(json_int "$OUT/$name-$kind.json" max_ns)
		if ! awk -v a="$rmin" -v b="$tmin" -v c="$rmax" -v d="$tmax" 'BEGIN {
			if (a == "" || b == "" || c == "" || d == "") exit 1
			x = a - b; y = c - d
			exit !(x >= -2 && x <= 2 && y >= -2 && y <= 2) }'; then
			echo "$name: $kind file: tsstat min/max $tmin/$tmax ns, the run said $rmin/$rmax ns"
			fail=1
		fi
		samples=$(json_int "$OUT/$name-$kind.json" samples)
		unmatched=$(json_int "$OUT/$name-$kind.json" unmatched)
		# every delivered packet pairs with its truth; the packets the
		# NIC dropped are the truth file's unmatched ones
		if [ "$samples" != "$delivered" ] || [ "$unmatched" != "$((sent - delivered))" ]; then
			echo "$name: $kind file: $samples samples, $unmatched unmatched; run delivered" \
				"$delivered of $sent"
			fail=1
		fi
	done
done
echo
echo "=== summary (brief's bar: card |stamp - truth| p99 < 1 us and max < 2 us)"
for f in "$OUT"/pci*.log; do
	[ -f "$f" ] && grep -E '^\[[^]]*\] (BAR|LOSSLESS|LOSS)' "$f" | sed 's/: see the counts above.*//'
done
echo "stamping demo: pcapng files, histograms (.svg), tsstat JSON and logs in $OUT"
exit $fail
