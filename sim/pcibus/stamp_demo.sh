#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The stamping co-simulation of `make demo` (mk/pcibus.mk, demo-stamp):
# per PCI clock (66 and 33 MHz) first the ingress-latency calibration, then
# two scored runs of sim/pcibus/stamp_demo (100 kpps Poisson and 1.488 Mpps
# line rate), then tsstat's thesis table per run of the refined card stamps
# (what the driver hands to the socket; scored), the raw card stamps and
# the interrupt-time software stamps, each vs truth.
#
# Calibration (docs/stamping-results.md, "Calibration"), as a user does it
# with a reference capture: separate runs at a low rate (20 kpps Poisson,
# other seeds than the scored runs) with 64-byte and 1518-byte frames and
# no correction; the median of raw card stamp - reference per length
# (tsstat's p50) gives the line a + b * len through the two points; a
# (ns) and b (ps per descriptor byte) are what the user writes into
# sysfs slotN/ingress_latency_ns and ingress_latency_ps_per_byte, here
# stamp_demo's --ingress, and are kept in OUTDIR/ingress-pciMHZ.txt.
#
#   stamp_demo.sh STAMP_DEMO TSSTAT OUTDIR [PKTS_100K [PKTS_1488K [PKTS_CAL]]]
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
# calibration frames per length: 600, or fewer for a short demo (the
# suite's), never more than the 100 kpps run has
NCAL=${6:-$((N100 < 600 ? N100 : 600))}
CAL_RATE=20000
mkdir -p "$OUT" || exit 1
fail=0

# FILE KEY: the integer value of "KEY": in tsstat's --json line
json_int() {
	sed -n "s/.*\"$2\": *\([-0-9]*\).*/\1/p" "$1"
}
# FILE KEY: the number (maybe fractional) of "KEY":
json_num() {
	sed -n "s/.*\"$2\": *\([-0-9.eE+]*\).*/\1/p" "$1"
}

# calibrate MHZ: sets ING (a,b) from two low-rate runs, or fails
calibrate() {
	cmhz=$1
	echo
	echo "=== calibration, PCI $cmhz MHz: $NCAL frames each of 64 and 1518 bytes, $CAL_RATE pps Poisson, no correction"
	for len in 60 1514; do
		cname="cal$cmhz-$((len + 4))"
		if ! "$BIN" --out "$OUT" --name "$cname" --mhz "$cmhz" --rate "$CAL_RATE" \
			--pkts "$NCAL" --len "$len" >"$OUT/$cname.log" 2>&1 || \
			grep -q 'BROKEN' "$OUT/$cname.log"; then
			cat "$OUT/$cname.log"
			echo "$cname: BROKEN (calibration run failed; log $OUT/$cname.log)"
			return 1
		fi
		if ! "$TSSTAT" --json --ref "$OUT/$cname-truth.pcapng" "$OUT/$cname-raw.pcapng" \
			>"$OUT/$cname.json"; then
			echo "$cname: tsstat failed"
			return 1
		fi
		if [ "$len" = 60 ]; then
			p50_60=$(json_num "$OUT/$cname.json" p50_ns)
		else
			p50_1514=$(json_num "$OUT/$cname.json" p50_ns)
		fi
	done
	ING=$(awk -v s="$p50_60" -v l="$p50_1514" 'BEGIN {
		if (s == "" || l == "") exit 1
		b = (l - s) * 1000 / (1514 - 60)
		b = b < 0 ? -int(-b + 0.5) : int(b + 0.5)
		a = s - b * 60 / 1000
		a = a < 0 ? -int(-a + 0.5) : int(a + 0.5)
		printf "%d,%d", a, b }') || { echo "calibration: no p50 from tsstat"; return 1; }
	echo "calibration PCI $cmhz MHz: median raw card stamp - reference $p50_60 ns (64-byte frames)," \
		"$p50_1514 ns (1518-byte frames) -> ingress latency ${ING%,*} ns + ${ING#*,} ps/byte"
	echo "$ING" >"$OUT/ingress-pci$cmhz.txt"
}

for run in "66 100000 $N100" "66 1488095 $N1488" "33 100000 $N100" "33 1488095 $N1488"; do
	set -- $run
	mhz=$1 rate=$2 n=$3
	name="pci$mhz-$((rate / 1000))k"
	# each clock's calibration, fresh, before its first scored run
	if [ "${CAL_MHZ:-}" != "$mhz" ]; then
		rm -f "$OUT/ingress-pci$mhz.txt"
		calibrate "$mhz" || { fail=1; ING=0,0; }
		CAL_MHZ=$mhz
	fi
	echo
	echo "=== $name: PCI $mhz MHz, $rate pps, $n frames, ingress latency $ING (ns,ps/byte) from the calibration"
	if ! "$BIN" --out "$OUT" --name "$name" --mhz "$mhz" --rate "$rate" --pkts "$n" \
		--ingress "$ING" >"$OUT/$name.log" 2>&1; then
		cat "$OUT/$name.log"
		echo "$name: BROKEN (stamp_demo failed; log $OUT/$name.log)"
		fail=1
		continue
	fi
	grep -v '^card time - true time' "$OUT/$name.log"
	delivered=$(sed -n "s/^\[$name\] delivered \([0-9]*\) of \([0-9]*\),.*/\1/p" "$OUT/$name.log")
	sent=$(sed -n "s/^\[$name\] delivered \([0-9]*\) of \([0-9]*\),.*/\2/p" "$OUT/$name.log")
	for kind in card raw sw; do
		if [ "$kind" = card ]; then
			title="refined card stamp (what the driver hands to the socket; scored) - true arrival"
		elif [ "$kind" = raw ]; then
			title="raw card stamp (unrefined) - true arrival"
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
			line=$(grep "^\[$name\] refined card stamp - truth:" "$OUT/$name.log" | sed 's/; batched only.*/ ns/')
		elif [ "$kind" = raw ]; then
			line=$(grep "^\[$name\] raw card stamp - truth:" "$OUT/$name.log")
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
echo "=== summary (brief's bar: card |stamp - truth| p99 < 1 us and max < 2 us; scored: the refined stamps)"
for m in 66 33; do
	[ -f "$OUT/ingress-pci$m.txt" ] && echo "ingress latency PCI $m MHz (calibration runs): $(cat "$OUT/ingress-pci$m.txt") (ns,ps/byte)"
done
for f in "$OUT"/pci*.log; do
	[ -f "$f" ] && grep -E '^\[[^]]*\] (BAR|LOSSLESS|LOSS)' "$f" | sed 's/: see the counts above.*//'
done
echo "stamping demo: pcapng files, histograms (.svg), tsstat JSON and logs in $OUT"
exit $fail
