#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# irqlat in a QEMU guest: boot Debian's 6.1 kernel (linux-image-amd64, the
# one with BTF that tests/kernel boots) under TCG with an initramfs holding
# busybox, e1000e.ko, irqlat, tsprobe and their shared libraries, and
# tests/tools/irqlat-guest-init.sh as /init. The host sends UDP probes into
# the guest through a slirp hostfwd port while the guest pings the gateway,
# so every packet arrives through the e1000e's interrupt; irqlat watches eth0.
# Never -enable-kvm: /dev/kvm exists on these machines but hangs.
#
# usage: irqlat-guest.sh OUTDIR   (exit 0 when every check holds; the
# guest's output is OUTDIR/results.txt, the console OUTDIR/console.log)
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/build_dir.sh"
B="$BUILD/tools"
OUT=${1:?usage: irqlat-guest.sh OUTDIR}
TIMEOUT=${IRQLAT_GUEST_TIMEOUT:-150}
rm -rf "$OUT" && mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 1

. "$TOP/tests/lib/guest.sh"
guest_kernel || exit 1

# --- initramfs: busybox, e1000e, the tools and every library they load
R="$OUT/initramfs"
guest_root "$R" "$TOP/tests/tools/irqlat-guest-init.sh" &&
	guest_module "$R" drivers/net/ethernet/intel/e1000e/e1000e.ko &&
	guest_binary "$R" "$B/irqlat" && guest_binary "$R" "$B/tsprobe" &&
	guest_pack "$R" "$OUT/initramfs.gz" || exit 1

# --- boot, with the host sending probes into the guest's UDP port 40001
HPORT=$((20000 + $$ % 20000))
RES="$OUT/results.txt"
boot_once() {
	"$B/tsprobe" send -p "$HPORT" -r 300 -n 0 -d "${TIMEOUT}s" --no-tx-stamp 127.0.0.1 \
		>"$OUT/send.log" 2>&1 &
	SENDER=$!
	guest_boot "$OUT" "$TIMEOUT" qemu-system-x86_64 "" -smp 2 \
		-netdev "user,id=n0,restrict=on,hostfwd=udp:127.0.0.1:$HPORT-10.0.2.15:40001" \
		-device e1000e,netdev=n0,addr=02.0
	kill "$SENDER" 2>/dev/null
	wait "$SENDER" 2>/dev/null
}
boot_once
# Under multi-threaded TCG the guest kernel once stalled for good in
# text_poke_bp (irqlat attaching its tracepoint patches kernel text and
# waits for the other vCPU's answer to an IPI): a soft lockup of the
# emulated machine, seen once in many runs. That one signature, and only
# it, gets a second boot; its console stays as console-lockup.log.
if ! grep -q '^done' "$RES" && grep -q 'BUG: soft lockup' "$OUT/console.log"; then
	echo "note: guest soft lockup under TCG ($(grep -m1 'BUG: soft lockup' "$OUT/console.log" | tr -d '\r')); booting once more"
	mv "$OUT/console.log" "$OUT/console-lockup.log"
	boot_once
fi

# --- checks (the serial port writes CR LF)
tr -d '\r' <"$RES" >"$OUT/results.clean" && RES="$OUT/results.clean"
sect() { awk -v s="== $1" '$0 == s { on = 1; next } /^== / || /^done$/ { on = 0 } on' "$RES"; }
sect info
grep -q '^done$' "$RES" || { echo "guest did not finish"; tail -n 20 "$OUT/console.log"; exit 1; }
sect rc
sect irqlat
sect probe | tail -n 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
sect rc | grep -q '^irqlat exit 0$' || bad "irqlat (text) did not exit 0"
sect rc | grep -q '^irqlat-json exit 0$' || bad "irqlat --json did not exit 0"
# what the guest's socket received: the probes; irqlat must have seen at least those
got=$(sect probe | sed -n 's/.*"received": \([0-9]*\).*/\1/p')
[ "${got:-0}" -gt 0 ] || bad "the guest received no probes"
field() { # section stage key
	sect "$1" | grep "\"stage\": \"$2\"" | sed -n "s/.*\"$3\": \(-\{0,1\}[0-9.e+-]*\).*/\1/p"
}
# the hard-irq run (--irq, eth0-rx-0) only has to count: a NIC interrupt can
# nest between a packet's arrival and its processing, so some samples of
# that mode are negative by design
irqn=$(field irqlat-irq-json "int -> stack" samples)
echo "irqlat --irq: int -> stack samples $irqn"
[ "${irqn:-0}" -gt 0 ] || bad "irqlat --irq (eth0-rx-0) saw no packets"
for s in irqlat-json; do
	n=$(field $s "int -> stack" samples)
	mn=$(field $s "int -> stack" min_ns); p50=$(field $s "int -> stack" p50_ns); mx=$(field $s "int -> stack" max_ns)
	echo "$s: int -> stack samples $n min $mn p50 $p50 max $mx; int -> sw stamp $(field $s "int -> sw stamp" samples); delivery $(field $s "int -> delivery" samples); hw $(field $s "hw -> sw stamp" samples)"
	[ "${n:-0}" -gt 0 ] || bad "$s: no int -> stack samples"
	# plausible: positive, below 100 ms even under TCG, ordered
	awk -v a="$mn" -v b="$p50" -v c="$mx" 'BEGIN { exit !(a > 0 && a <= b && b <= c && c < 1e8) }' ||
		bad "$s: implausible int -> stack min/p50/max $mn/$p50/$mx"
	[ "$(field $s "hw -> sw stamp" samples)" = 0 ] || bad "$s: hardware stamps on an e1000e?"
	sw=$(field $s "int -> sw stamp" samples)
	[ "${sw:-0}" -gt 0 ] && [ "$sw" -le "$n" ] || bad "$s: int -> sw stamp samples $sw (stack $n)"
	[ "$(sect $s | grep '"stage": "int -> stack"' | sed -n 's/.*"negative": \([0-9]*\).*/\1/p')" = 0 ] ||
		bad "$s: negative int -> stack samples in softirq mode"
done
# the NIC's own counter over irqlat's run bounds what it can have seen; the
# BPF load takes a moment under TCG, so at least half of it
n=$(field irqlat-json "int -> stack" samples)
rx=$(sect rc | sed -n 's/^rx_packets //p')
echo "eth0 rx_packets during the run: $rx, irqlat int -> stack: $n, int -> delivery: $(field irqlat-json "int -> delivery" samples)"
[ "${n:-0}" -le "${rx:-0}" ] && [ "$((2 * ${n:-0}))" -ge "${rx:-0}" ] ||
	bad "int -> stack counted $n packets, the NIC received $rx during the run"
sect irqlat | grep -q '^int -> stack (NET_RX softirq):' || bad "no text table"
# UDP delivery: fentry on skb_consume_udp sees every datagram tsprobe reads;
# besides them eth0 got at most the 40 ping replies and a few ARP frames,
# and datagrams still queued when irqlat stops are not counted: at least
# most of the rest (idle host runs: 1847 of 1867 and 1897 of 1989 frames; without
# the hook 1602 of 1913, though also 1842 of 1851: e1000e's receive path
# decides whether an skb passes the copy tracepoint). Ping replies and ARP
# frames reach consume_skb too, so delivery may come close to the stack
# count; one run counted 3 deliveries more than stack samples (1990 vs
# 1987, not explained yet), so the upper bound has 1 % slack. The lower
# bound is 75 %, not 90 %: on a host loaded by other builds tsprobe, sharing
# the guest's two vCPUs with three irqlat instances, drains its socket late
# and one run counted 1689 of 1995 (84.7 %); that the hook itself loaded is
# checked by the line above, so the count only has to show it counts
# datagrams, not that the guest kept up
sect irqlat-json | grep -q '^irqlat: delivery hooks: .*skb_consume_udp (every UDP datagram)' ||
	bad "the UDP delivery hook did not load: $(sect irqlat-json | grep 'delivery hooks')"
d=$(field irqlat-json "int -> delivery" samples)
[ $((100 * ${d:-0})) -le $((101 * ${n:-0})) ] && [ $((4 * ${d:-0})) -ge $((3 * (${n:-0} - 50))) ] ||
	bad "int -> delivery counted $d datagrams of $n frames (want 75 % of those not ping replies or ARP, and not over 101 %)"
sect dmesg | grep -E 'BUG:|WARNING:|Oops|Call Trace' && bad "kernel complained"
exit $fail
