#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Driver stamp path cost (BRIEF section 5): instructions per packet of the
# per-descriptor stamp path (tests/driver/stamp_cost.c) counted by callgrind.
# For each mode and each function, callgrind counts only inside the function
# (--toggle-collect, callees included) over N and 2N packets; the cost per
# packet is the difference over N (fixed costs cancel), and the two runs
# must agree with a straight line, else the figure is refused.
#   usage: stamp_cost.sh BIN [N]
BIN=$1
N=${2:-100000}
OUT=$(dirname "$BIN")/callgrind
command -v valgrind >/dev/null 2>&1 || { echo "stamp-path-cost: valgrind not installed" >&2; exit 1; }
mkdir -p "$OUT"
rc=0

# instructions counted inside function $2 for mode $1 over $3 packets
count() {
	f="$OUT/$1.$2.$3.out"
	if ! valgrind --tool=callgrind --toggle-collect="$2" --callgrind-out-file="$f" \
		"$BIN" "$1" "$3" >"$f.log" 2>&1; then
		echo "stamp-path-cost: $BIN $1 $3 failed under callgrind:" >&2
		tail -n 5 "$f.log" >&2
		return 1
	fi
	sed -n 's/^summary: *\([0-9]*\).*/\1/p; s/^totals: *\([0-9]*\).*/\1/p' "$f" | head -n 1
}

echo "stamp path cost, instructions per packet (callgrind, $N and $((2 * N)) packets;"
echo "  spx_stamp_decode = the core, slot_stamp = synpcix_slot_stamp around it):"
printf '%-8s %-18s %10s %10s\n' mode function "per pkt" "N-run/N"
for mode in exact batched none; do
	for fn in spx_stamp_decode slot_stamp; do
		a=$(count $mode $fn "$N") || { rc=1; continue; }
		b=$(count $mode $fn $((2 * N))) || { rc=1; continue; }
		if [ -z "$a" ] || [ -z "$b" ] || [ "$a" -eq 0 ]; then
			echo "stamp-path-cost: no count for $mode $fn (callgrind output in $OUT)" >&2
			rc=1
			continue
		fi
		per=$(awk -v a="$a" -v b="$b" -v n="$N" 'BEGIN { printf "%.2f", (b - a) / n }')
		whole=$(awk -v a="$a" -v n="$N" 'BEGIN { printf "%.2f", a / n }')
		# linear: the whole N run over N within 1 % of the slope
		if ! awk -v p="$per" -v w="$whole" 'BEGIN { d = w - p; if (d < 0) d = -d; exit !(d <= 0.01 * p) }'; then
			echo "stamp-path-cost: $mode $fn not linear in N ($whole vs $per per packet)" >&2
			rc=1
		fi
		printf '%-8s %-18s %10s %10s\n' $mode $fn "$per" "$whole"
	done
done
exit $rc
