#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tsstat on a 10^7-packet capture (the thesis's run size), beside capinfos
# reading the same file: packets/s and peak memory (max RSS), measured.
# The capture (about 1 GB) is made once under $BUILD/tools/bench/.
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/build_dir.sh"
B="$BUILD/tools"
N=${BENCH_PACKETS:-10000000}
D="$B/bench"
F="$D/bench-$N.pcap"
mkdir -p "$D"
if [ ! -s "$F" ]; then
	echo "bench: writing $N-packet capture $F"
	"$B/test/gencap" bench "$F.tmp" "$N" && mv "$F.tmp" "$F"
fi
echo "bench: $F, $(du -m "$F" | cut -f1) MB, $N packets, $(nproc) CPUs"
cat "$F" >/dev/null     # same page-cache state for every run

# run NAME CMD...: wall seconds and max RSS from GNU time's %e %M
run() {
	name=$1
	shift
	/usr/bin/time -f '%e %M' -o "$D/time" "$@" >"$D/$name.out" 2>"$D/$name.err" ||
		{ echo "bench: $name failed: $(cat "$D/$name.err")"; exit 1; }
	read -r secs kb <"$D/time"
	awk -v n="$N" -v s="$secs" -v kb="$kb" -v name="$name" 'BEGIN {
		printf "%-28s %8.2f s %12.0f packets/s   peak RSS %7.1f MB\n", name, s, (s > 0 ? n / s : 0), kb / 1024 }'
}
run "tsstat (inter-arrival)" "$B/tsstat" --json "$F"
run "tsstat --ref payload" "$B/tsstat" --ref payload --json "$F"
run "capinfos" capinfos "$F"
run "capinfos -c (count only)" capinfos -c "$F"
echo "tsstat inter-arrival result: $(cat "$D/tsstat (inter-arrival).out")"
