#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Measurement tools: tsstat against generated captures with known answers
# (every pcap/pcapng variant), malformed input, a bounded fuzz run,
# clkjitter on this machine's clocks, tsprobe across a veth pair in
# network namespaces, irqlat (BPF) on the same veth traffic and in a QEMU
# guest on an e1000e's interrupts.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/suite.sh"
suite_begin tools
B="$BUILD/tools"
GEN="$B/test/gencap"
TSSTAT="$B/tsstat"
T="$BUILD/test-logs/tools/tmp"
rm -rf "$T" && mkdir -p "$T"
FUZZ_SECONDS=${TOOLS_FUZZ_SECONDS:-60}

# stats_match NAME JSON TRUTH UNMATCHED: every key of `tsstat --json`
# against tests/tools/refstats.awk on the true samples; a relative 1e-9
# covers double vs long double rounding and nothing else.
stats_match() {
	sort -n "$3" | awk -f "$TOP/tests/tools/refstats.awk" >"$T/$1.exp"
	echo "unmatched $4" >>"$T/$1.exp"
	tr -d '{}\n' <"$2" | tr ',' '\n' | sed 's/^ *"//; s/": / /' >"$T/$1.got"
	awk 'NR == FNR { e[$1] = $2; next } { g[$1] = $2 }
	END {
		bad = 0
		for (k in e) {
			if (!(k in g)) { print "missing " k; bad = 1; continue }
			d = g[k] - e[k]; if (d < 0) d = -d
			t = e[k] < 0 ? -e[k] : e[k]; if (t < 1) t = 1
			if (d > 1e-9 * t) { print k ": got " g[k] ", expected " e[k]; bad = 1 }
		}
		exit bad
	}' "$T/$1.exp" "$T/$1.got"
}

# check NAME CMD...: like t_run but the failure text is the command's output
check() {
	_n=$1
	shift
	if _o=$("$@" 2>&1); then t_pass "$_n"; else t_fail "$_n" "$(echo "$_o" | head -n 8)"; fi
}

for tool in $(cd "$B" && ls tsstat tsprobe clkjitter irqlat 2>/dev/null); do
	check "help-$tool" sh -c "'$B/$tool' --help | grep -q '^SYNOPSIS' && '$B/$tool' --help | grep -q '^OPTIONS'"
done

# ---- tsstat: --ref OTHER in every variant ----
# 20000 packets, heavy tail, negative delays, 40 duplicated packets,
# 7 packets only in A and 5 only in B (unmatched = 12).
ref_case() { # name fmtA fmtB res endian
	"$GEN" ref "$T/$1.a" "$T/$1.b" "$T/$1.truth" -n 20000 -s 11 -d 40 -a 7 -b 5 \
		-f "$2" -g "$3" -r "$4" -e "$5" &&
	[ "$(capinfos -c -M "$T/$1.a" | awk '/Number of packets/ {print $NF}')" = 20047 ] &&
	[ "$(capinfos -c -M "$T/$1.b" | awk '/Number of packets/ {print $NF}')" = 20045 ] &&
	"$TSSTAT" --ref "$T/$1.b" "$T/$1.a" --json >"$T/$1.json" &&
	stats_match "$1" "$T/$1.json" "$T/$1.truth" 12
}
check ref-pcap-us-le ref_case pcap-us-le pcap pcap us little
check ref-pcap-us-be ref_case pcap-us-be pcap pcap us big
check ref-pcap-ns-le ref_case pcap-ns-le pcap pcap ns little
check ref-pcap-ns-be ref_case pcap-ns-be pcap pcap ns big
check ref-pcapng-ns-le ref_case pcapng-ns-le pcapng pcapng ns little
check ref-pcapng-ns-be ref_case pcapng-ns-be pcapng pcapng ns big
check ref-pcapng-us-be ref_case pcapng-us-be pcapng pcapng us big
check ref-mixed-pcapng-vs-pcap ref_case mixed pcapng pcap ns little

# tshark reads the same file: the pcapng reader agrees on every stamp
check tshark-agrees-on-stamps sh -c "
	tshark -r '$T/pcapng-ns-be.a' -T fields -e frame.time_epoch 2>/dev/null >'$T/tshark.ts' &&
	'$TSSTAT' --samples-out '$T/ia.txt' '$T/pcapng-ns-be.a' --json >/dev/null &&
	awk -F. 'NR > 1 { print (\$1 - s) * 1000000000 + (\$2 - f) } { s = \$1; f = \$2 }' '$T/tshark.ts' >'$T/tshark.ia' &&
	cmp '$T/tshark.ia' '$T/ia.txt'"

# ---- inter-arrival, with stamps taken independently from tshark ----
interarrival() {
	tshark -r "$T/pcap-ns-le.a" -T fields -e frame.time_delta 2>/dev/null |
		tail -n +2 | awk -F. '{ s = $1 * 1000000000 + $2; print s }' >"$T/ia.truth" &&
	"$TSSTAT" "$T/pcap-ns-le.a" --json >"$T/ia.json" &&
	stats_match ia "$T/ia.json" "$T/ia.truth" 0
}
check interarrival-vs-tshark interarrival

# ---- baselines ----
baseline_min() {
	sort -n "$T/pcap-ns-le.truth" | head -n 1 >"$T/min"
	awk -v m="$(cat "$T/min")" '{ print $1 - m }' "$T/pcap-ns-le.truth" >"$T/bmin.truth" &&
	"$TSSTAT" --ref "$T/pcap-ns-le.b" --baseline min --json "$T/pcap-ns-le.a" >"$T/bmin.json" &&
	stats_match bmin "$T/bmin.json" "$T/bmin.truth" 12
}
check baseline-min baseline_min
baseline_sliding() { # naive O(nW) sliding minimum of the last 50 samples
	awk '{ x[NR] = $1; m = x[NR]; for (i = NR - 49; i < NR; i++) if (i >= 1 && x[i] < m) m = x[i]; print x[NR] - m }' \
		"$T/pcap-ns-le.truth" >"$T/bsl.truth" &&
	"$TSSTAT" --ref "$T/pcap-ns-le.b" --baseline sliding:50 --json "$T/pcap-ns-le.a" >"$T/bsl.json" &&
	stats_match bsl "$T/bsl.json" "$T/bsl.truth" 12
}
check baseline-sliding baseline_sliding

# ---- --ref payload: loss, reordering, duplicates, follow-up stamps ----
# expected counters from the generator's rules (see gencap.c gen_payload)
payload_case() { # name linktype extra-gencap-args
	n=20000
	"$GEN" payload "$T/$1.pcap" "$T/$1.truth" -n $n -s 5 -l 97 -o 101 -D 89 -L "$2" $3 &&
	"$TSSTAT" --ref payload --json "$T/$1.pcap" >"$T/$1.json" &&
	"$TSSTAT" --ref payload "$T/$1.pcap" >"$T/$1.txt" &&
	exp=$(awk -v n=$n 'BEGIN {
		for (i = 0; i < n; i++) lost[i] = (i % 97 == 96)
		for (i = 0; i < n; i++) if (!lost[i]) { if (i % 89 == 0) d++; if (i % 50 == 25) o++; r++ }
		for (i = 100; i + 1 < n; i += 101) if (!lost[i] && !lost[i + 1]) ro++
		for (i = 0; i < n; i++) l += lost[i]
		printf "probes: %d received, %d lost, %d reordered, %d duplicates|%d", r + d, l, ro, d, o }') &&
	grep -qx "${exp%|*}" "$T/$1.txt" || { echo "want '${exp%|*}'"; cat "$T/$1.txt"; return 1; }
	stats_match "$1" "$T/$1.json" "$T/$1.truth" "${exp#*|}"
}
check payload-ethernet payload_case pl-eth 1 ""
check payload-followup-stamps payload_case pl-fu 1 -F
check payload-raw-ip payload_case pl-raw 101 -F
check payload-linux-cooked payload_case pl-sll 113 ""
check payload-kind-labelled sh -c "grep -q 'send stamps: .* kernel software TX stamp' '$T/pl-fu.txt' &&
	grep -q 'send stamps: .* user-space clock' '$T/pl-fu.txt' && ! grep -q 'kernel' '$T/pl-eth.txt'"

# ---- filter (libpcap) ----
check filter-libpcap sh -c "
	'$TSSTAT' --filter 'udp port 40001' --ref payload --json '$T/pl-eth.pcap' >'$T/f1.json' &&
	cmp '$T/f1.json' '$T/pl-eth.json' &&
	'$TSSTAT' --filter 'tcp' '$T/pl-eth.pcap' --json | grep -q '\"samples\": 0,' &&
	! '$TSSTAT' --filter 'nonsense ((' '$T/pl-eth.pcap' 2>'$T/f.err' && grep -q 'filter' '$T/f.err'"

# ---- histograms and P-P plots ----
hist_case() {
	"$TSSTAT" --ref "$T/pcap-ns-le.b" --hist "$T/h.txt" --bin 1us "$T/pcap-ns-le.a" >/dev/null &&
	awk '{ b = int($1 / 1000); if ($1 < 0 && b * 1000 != $1) b--; c[b * 1000]++ }
	     END { for (k in c) print k, c[k] }' "$T/pcap-ns-le.truth" | sort -n >"$T/h.exp" &&
	grep -v '^#' "$T/h.txt" | sort -n >"$T/h.got" && cmp "$T/h.exp" "$T/h.got" &&
	"$TSSTAT" --ref "$T/pcap-ns-le.b" --hist "$T/h.svg" --bin 2us "$T/pcap-ns-le.a" >/dev/null &&
	head -c 4 "$T/h.svg" | grep -q '<svg' && tail -n 1 "$T/h.svg" | grep -q '</svg>' &&
	[ "$(grep -c '<rect x=' "$T/h.svg")" -eq "$(awk '{ print int(($1 + 1000000) / 2000) }' "$T/pcap-ns-le.truth" | sort -u | wc -l)" ]
}
check histogram-bins hist_case
pp_case() {
	"$TSSTAT" --ref "$T/pcap-ns-le.b" --samples-out "$T/s1" "$T/pcap-ns-le.a" >/dev/null &&
	"$TSSTAT" --ref "$T/pcap-ns-le.b" --pp "$T/pp.txt" --pp-ref "$T/s1" "$T/pcap-ns-le.a" >/dev/null &&
	grep -v '^#' "$T/pp.txt" | awk '$1 != $2 { exit 1 }' &&
	"$TSSTAT" --ref "$T/pcap-ns-le.b" --pp "$T/ppn.txt" "$T/pcap-ns-le.a" >/dev/null &&
	grep -v '^#' "$T/ppn.txt" | awk '$1 < p1 || $2 < p2 || $1 > 1 || $2 > 1 || $1 < 0 { exit 1 } { p1 = $1; p2 = $2 } END { exit NR < 1000 }' &&
	"$TSSTAT" --ref "$T/pcap-ns-le.b" --pp "$T/pp.svg" "$T/pcap-ns-le.a" >/dev/null &&
	grep -q '<polyline' "$T/pp.svg"
}
check pp-plot pp_case

# ---- malformed input: clear message, exit 1, no crash ----
bad() { # name expected-text file [args]
	f=$3
	shift 3
	"$TSSTAT" "$@" "$f" >"$T/bad.out" 2>"$T/bad.err"
	rc=$?
	if [ $rc -ne 1 ]; then
		t_fail "malformed-$_bn" "exit $rc, want 1: $(head -c 300 "$T/bad.err")"
	elif ! grep -q "$_be" "$T/bad.err"; then
		t_fail "malformed-$_bn" "message lacks '$_be': $(head -c 300 "$T/bad.err")"
	else
		t_pass "malformed-$_bn"
	fi
}
mal() { _bn=$1; _be=$2; bad "$@"; }
good="$T/pcap-ns-le.a"
ng="$T/pcapng-ns-le.a"
: >"$T/empty"
head -c 10 "$good" >"$T/trunc-hdr"
head -c 50 "$good" >"$T/trunc-rec"
head -c $(($(wc -c <"$good") - 7)) "$good" >"$T/trunc-data"
cp "$good" "$T/absurd"
printf '\377\377\377\177' | dd of="$T/absurd" bs=1 seek=32 conv=notrunc 2>/dev/null
cp "$ng" "$T/ng-absurd"
printf '\001\000\000\200' | dd of="$T/ng-absurd" bs=1 seek=64 conv=notrunc 2>/dev/null
cp "$ng" "$T/ng-badtrail"
# first EPB starts at 60 (SHB 28 + IDB 32); its trailing length sits at 60 + len - 4
eplen=$(od -An -tu4 -j64 -N4 "$ng" | tr -d ' ')
printf '\001\002\003\004' | dd of="$T/ng-badtrail" bs=1 seek=$((60 + eplen - 4)) conv=notrunc 2>/dev/null
cp "$ng" "$T/ng-noif"
printf '\007\000\000\000' | dd of="$T/ng-noif" bs=1 seek=68 conv=notrunc 2>/dev/null
head -c 64 /dev/urandom >"$T/random"; printf 'HELO' | dd of="$T/random" bs=1 conv=notrunc 2>/dev/null
cp "$T/pl-eth.pcap" "$T/linktype"
printf '\350\375\000\000' | dd of="$T/linktype" bs=1 seek=20 conv=notrunc 2>/dev/null
mkdir -p "$T/adir"
mal empty-file "empty file" "$T/empty"
mal truncated-header "too short\|truncated pcap file header" "$T/trunc-hdr"
mal truncated-record "truncated data\|truncated record" "$T/trunc-rec"
mal truncated-last-packet "packet 20047 .*truncated data" "$T/trunc-data"
mal absurd-caplen "absurd captured length 2147483647" "$T/absurd"
mal pcapng-absurd-block "absurd block length" "$T/ng-absurd"
mal pcapng-trailer-mismatch "trailing length" "$T/ng-badtrail"
mal pcapng-unknown-interface "interface 7 was never described" "$T/ng-noif"
mal not-a-capture "not a pcap or pcapng file" "$T/random"
mal unknown-linktype "link type 65000 .*cannot be parsed" "$T/linktype" --ref payload
mal directory "is a directory" "$T/adir"
mal nonexistent "cannot open: No such file" "$T/does-not-exist.pcap"
mal bad-reference "truncated" "$good" --ref "$T/trunc-rec"
check usage-errors-exit-2 sh -c "
	'$TSSTAT' >/dev/null 2>&1; [ \$? -eq 2 ] &&
	{ '$TSSTAT' --bin 0 '$good' 2>/dev/null; [ \$? -eq 2 ]; } &&
	{ '$TSSTAT' --baseline sliding:x '$good' 2>/dev/null; [ \$? -eq 2 ]; } &&
	{ '$TSSTAT' --nope '$good' 2>/dev/null; [ \$? -eq 2 ]; }"
check input-untouched sh -c "cmp '$T/absurd' '$T/absurd' && [ -d '$T/adir' ] && [ ! -s '$T/empty' ] &&
	capinfos -c '$good' >/dev/null"

# ---- bounded fuzz run of the pcap/pcapng reader (libFuzzer + ASan/UBSan) ----
fuzz() {
	c="$T/corpus"
	mkdir -p "$c"
	"$GEN" ref "$c/a" "$c/b" "$T/x" -n 12 -d 1 -a 1 -f pcapng -g pcap -e big -r us &&
	"$GEN" ref "$c/c" "$c/d" "$T/x" -n 12 -f pcap -g pcapng -r ns &&
	"$GEN" payload "$c/e" "$T/x" -n 12 -F -f pcapng &&
	cp "$T/trunc-hdr" "$T/ng-noif" "$c/" &&
	"$B/test/capfile_fuzz" -max_total_time="$FUZZ_SECONDS" -max_len=4096 -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 "$c" >"$T/fuzz.log" 2>&1 &&
	grep -E 'stat::number_of_executed_units' "$T/fuzz.log"
}
if fuzz_out=$(fuzz); then
	t_pass "fuzz-reader-${FUZZ_SECONDS}s ($(echo "$fuzz_out" | awk '{print $2}') inputs)"
else
	t_fail "fuzz-reader-${FUZZ_SECONDS}s" "$(tail -n 30 "$T/fuzz.log")"
fi

# ---- clkjitter on this machine's clocks ----
CJ="$B/clkjitter"
clkjitter_case() {
	"$CJ" -n 20000 -k 5 --json --hist "$T/cj.txt" --bin 1ns >"$T/cj.json" &&
	for c in realtime monotonic_raw tsc; do
		for s in step jitter; do
			l=$(grep "\"clock\": \"$c\", \"series\": \"$s\"" "$T/cj.json") || { echo "no $c/$s"; return 1; }
			n=$(echo "$l" | sed 's/.*"samples": \([0-9]*\).*/\1/')
			want=$([ $s = step ] && echo 80000 || echo 20000)
			[ "$n" = "$want" ] || { echo "$c/$s: $n samples, want $want"; return 1; }
			# histogram counts add up to the samples
			[ "$(grep -v '^#' "$T/cj-$c-$s.txt" | awk '{ t += $2 } END { print t }')" = "$want" ] ||
				{ echo "$c/$s histogram does not add up"; return 1; }
		done
		# a read costs something and less than a millisecond at the median
		echo "$l" | grep -q '"p50_ns": [0-9]' || return 1
	done
	# monotonic clocks never step backwards
	grep '"clock": "monotonic_raw", "series": "step"' "$T/cj.json" | grep -q '"min_ns": [0-9]'
}
check clkjitter-system-clocks clkjitter_case
check clkjitter-periodic-under-load sh -c "
	s=\$(date +%s%N); '$CJ' -c monotonic -n 200 -p 1ms -l 1 >'$T/cjp.txt' && e=\$(date +%s%N) &&
	[ \$(( (e - s) / 1000000 )) -ge 190 ] && grep -q '1 load threads' '$T/cjp.txt' && grep -q 'samples *800' '$T/cjp.txt'"
check clkjitter-bad-clocks sh -c "
	! '$CJ' -c /dev/ptp97 -n 10 2>'$T/cj1.err' && grep -q 'cannot open' '$T/cj1.err' &&
	! '$CJ' -c /dev/null -n 10 2>'$T/cj2.err' && grep -q 'not a PTP hardware clock' '$T/cj2.err' &&
	{ '$CJ' -c sundial 2>/dev/null; [ \$? -eq 2 ]; } && { '$CJ' -k 26 2>/dev/null; [ \$? -eq 2 ]; }"
if ls /dev/ptp[0-9]* >/dev/null 2>&1; then
	p=$(ls /dev/ptp[0-9]* | head -n 1)
	check "clkjitter-$p" sh -c "'$CJ' -c '$p' -n 2000 | grep -q 'window'"
else
	echo "NOTE tools: no /dev/ptpN on this machine; the PHC path was not exercised"
fi

# ---- tsprobe across a veth pair between two namespaces made here ----
TP="$B/tsprobe"
NSA="tt-a-$$"
NSB="tt-b-$$"
cleanup_ns() { ip netns del "$NSA" 2>/dev/null; ip netns del "$NSB" 2>/dev/null; }
trap cleanup_ns EXIT INT TERM
netns_up() {
	ip netns add "$NSA" && ip netns add "$NSB" &&
	ip link add tt0 netns "$NSA" type veth peer name tt1 netns "$NSB" &&
	ip -n "$NSA" addr add 10.77.0.1/24 dev tt0 && ip -n "$NSB" addr add 10.77.0.2/24 dev tt1 &&
	ip -n "$NSA" link set tt0 up && ip -n "$NSB" link set tt1 up &&
	ip -n "$NSA" link set lo up && ip -n "$NSB" link set lo up
}
# probe_run NAME RECV-ARGS -- SEND-ARGS: receiver in B, sender in A
probe_run() {
	_pn=$1
	shift
	_ra=""
	while [ "$1" != "--" ]; do _ra="$_ra $1"; shift; done
	shift
	# shellcheck disable=SC2086
	ip netns exec "$NSB" "$TP" recv $_ra >"$T/$_pn.recv" 2>"$T/$_pn.recv.err" &
	_rp=$!
	sleep 0.3
	ip netns exec "$NSA" "$TP" send "$@" 10.77.0.2 >"$T/$_pn.send" 2>&1
	_sr=$?
	wait $_rp
	_rr=$?
	[ $_sr -eq 0 ] && [ $_rr -eq 0 ] || { echo "send exit $_sr, recv exit $_rr"; cat "$T/$_pn.send" "$T/$_pn.recv.err"; return 1; }
}
jget() { sed "s/.*\"$2\": \"*\([^,\"}]*\).*/\1/" "$T/$1"; }
if netns_up >"$T/netns.log" 2>&1; then
	t_pass tsprobe-netns-veth-setup
	# sequence rules by design: every 333rd never sent (loss), every 100th
	# after its successor (reordering), every 150th twice (duplicates)
	probe_seq() {
		probe_run seq -n 2000 -t 3s -i 0 --json --baseline none -w "$T/probe.pcapng" -- \
			-r 5000 -n 2000 --test-skip 333 --test-reorder 100 --test-duplicate 150 &&
		for kv in received:2008 lost:6 reordered:19 duplicates:14 samples:1994 \
			"rx_stamps:software (kernel)"; do
			v=$(jget seq.recv "${kv%%:*}")
			[ "$v" = "${kv#*:}" ] || { echo "${kv%%:*} = '$v', want '${kv#*:}'"; cat "$T/seq.recv"; return 1; }
		done
		jget seq.recv tx_stamps | grep -q '^software (kernel)' || { cat "$T/seq.recv"; return 1; }
		grep -q 'tx stamps: software (kernel SO_TIMESTAMPING; no hardware' "$T/seq.send" || return 1
		# a one-way delay over veth: positive and below 10 ms at the median
		p50=$(jget seq.recv p50_ns)
		awk -v x="$p50" 'BEGIN { exit !(x > 0 && x < 10000000) }' || { echo "p50 $p50"; return 1; }
	}
	check tsprobe-sequence-loss-reorder-dup-software-stamps probe_seq
	# the pcapng written by recv gives tsstat the same samples
	probe_pcapng() {
		"$TSSTAT" --ref payload --json "$T/probe.pcapng" | sed 's/, "unmatched": [0-9]*}//' >"$T/pp1" &&
		sed 's/.*"stats": //; s/, "unmatched": [0-9]*}}//' "$T/seq.recv" >"$T/pp2" &&
		cmp "$T/pp1" "$T/pp2" &&
		"$TSSTAT" --ref payload "$T/probe.pcapng" | grep -q '2008 received, 6 lost, 19 reordered, 14 duplicates'
	}
	check tsprobe-pcapng-to-tsstat probe_pcapng
	# real drops: a token bucket on the sender's veth; recv's loss must be
	# exactly what the qdisc dropped (the follow-up packet may be one more)
	probe_tbf() {
		ip netns exec "$NSA" tc qdisc add dev tt0 root tbf rate 2mbit burst 3000 limit 4000 &&
		probe_run tbf -n 3000 -t 2s -i 0 --json -- -r 20000 -n 3000 -s 200 || return 1
		dropped=$(ip netns exec "$NSA" tc -s qdisc show dev tt0 | sed -n 's/.*(dropped \([0-9]*\),.*/\1/p')
		ip netns exec "$NSA" tc qdisc del dev tt0 root
		lost=$(jget tbf.recv lost)
		recvd=$(jget tbf.recv received)
		echo "qdisc dropped $dropped, tsprobe lost $lost, received $recvd"
		[ "$lost" -gt 0 ] && [ $((lost + recvd)) -eq 3000 ] &&
		{ [ "$dropped" -eq "$lost" ] || [ "$dropped" -eq $((lost + 1)) ]; }
	}
	check tsprobe-loss-equals-qdisc-drops probe_tbf
	# DSCP and rate: tcpdump in B sees the DSCP; 1000 probes at 4000 pps take 0.25 s
	probe_dscp() {
		ip netns exec "$NSB" tcpdump -i tt1 -n -w "$T/dscp.pcap" --time-stamp-precision=nano udp port 40001 >/dev/null 2>&1 &
		_tp=$!
		sleep 1
		probe_run dscp -n 1000 -t 2s -i 0 -- -r 4000 -n 1000 -T 46
		_r=$?
		sleep 0.5
		kill $_tp
		wait $_tp
		[ $_r -eq 0 ] || return 1
		[ "$(tshark -r "$T/dscp.pcap" -Y 'ip.dsfield.dscp == 46' 2>/dev/null | wc -l)" -ge 1000 ] || { echo "dscp 46 not seen"; return 1; }
		secs=$(sed -n 's/.* datagrams in \([0-9.]*\) s.*/\1/p' "$T/dscp.send")
		awk -v s="$secs" 'BEGIN { exit !(s > 0.23 && s < 0.5) }' || { echo "1000 probes at 4000 pps took $secs s"; return 1; }
		# tcpdump's own capture is a reference too: tsstat reads it
		"$TSSTAT" --ref payload "$T/dscp.pcap" | grep -q '1000 received, 0 lost'
	}
	check tsprobe-dscp-rate-tcpdump probe_dscp
	# irqlat: BPF loads on this kernel and measures the probes in B
	irqlat_veth() {
		ip netns exec "$NSB" "$B/irqlat" -i tt1 -d 3s --json >"$T/irqlat.json" 2>"$T/irqlat.err" &
		_ip=$!
		sleep 1
		probe_run irq -n 1000 -t 2s -i 0 -- -r 2000 -n 1000 || return 1
		wait $_ip || { cat "$T/irqlat.err"; return 1; }
		n=$(grep '"stage": "int -> stack"' "$T/irqlat.json" | sed 's/.*"samples": \([0-9]*\).*/\1/')
		sw=$(grep '"stage": "int -> sw stamp"' "$T/irqlat.json" | sed 's/.*"samples": \([0-9]*\).*/\1/')
		hw=$(grep '"stage": "hw -> sw stamp"' "$T/irqlat.json" | sed 's/.*"samples": \([0-9]*\).*/\1/')
		echo "int->stack $n, int->sw $sw, hw->sw $hw"
		# every probe and the follow-up passed netif_receive_skb on tt1; veth has no hardware stamps
		[ "$n" -ge 1001 ] && [ "$n" -le 1010 ] && [ "$sw" -eq "$n" ] && [ "$hw" -eq 0 ] &&
		grep '"stage": "int -> stack"' "$T/irqlat.json" | grep -q '"min_ns": [1-9]'
	}
	if [ -r /sys/kernel/btf/vmlinux ]; then
		check irqlat-bpf-on-veth irqlat_veth
	else
		echo "NOTE tools: no kernel BTF here; irqlat was built but not run"
	fi
else
	t_fail tsprobe-netns-veth-setup "$(cat "$T/netns.log")"
fi
# irqlat in a QEMU guest (Debian's 6.1 kernel with BTF, e1000e on slirp,
# UDP probes from this host and pings): see tests/tools/irqlat-guest.sh
check irqlat-in-qemu-guest sh "$TOP/tests/tools/irqlat-guest.sh" "$B/guest"
check irqlat-bad-interface sh -c "! '$B/irqlat' -i no-such-if0 -d 1s 2>'$T/il.err' && grep -q 'no such interface' '$T/il.err'"
check tsprobe-usage-errors sh -c "
	{ '$TP' send 2>/dev/null; [ \$? -eq 2 ]; } && { '$TP' recv -p 0 2>/dev/null; [ \$? -eq 2 ]; } &&
	{ '$TP' send -r 10Zbit 10.0.0.1 2>/dev/null; [ \$? -eq 2 ]; } && { '$TP' frobnicate 2>/dev/null; [ \$? -eq 2 ]; } &&
	{ '$TP' send -n 1 no-such-host.invalid 2>'$T/tp.err'; [ \$? -eq 1 ]; } && grep -q 'no-such-host' '$T/tp.err'"

suite_end
