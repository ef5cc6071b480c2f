#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# /init of the irqlat QEMU guest (tests/tools/irqlat-guest.sh builds the
# initramfs). Brings up the e1000e NIC on QEMU user networking, receives the
# UDP probes the host sends through a hostfwd port (tsprobe recv), pings the
# slirp gateway, and runs irqlat on eth0 meanwhile: once with the text table,
# once with --json. Everything goes to the second serial port (/dev/ttyS1, a
# file on the host) between "== NAME" lines, then "done".
. /lib/guest-init-lib.sh	# busybox, mounts, the result channel on fd 3
sect() { echo "== $1" >&3; cat "$2" >&3 2>/dev/null; }

insmod /lib/modules/e1000e.ko
i=0
while [ ! -e /sys/class/net/eth0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
ip link set lo up
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
ip route add default via 10.0.2.2
# the link comes up after autonegotiation
i=0
while ! grep -q 1 /sys/class/net/eth0/carrier 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
echo "kernel $(uname -r), $(nproc) cpu(s), btf $(wc -c </sys/kernel/btf/vmlinux) bytes" >/tmp/info
grep eth0 /proc/interrupts >>/tmp/info
sect info /tmp/info

RXIRQ=$(awk '/eth0-rx-0/ { sub(":", "", $1); print $1; exit }' /proc/interrupts)
tsprobe recv -p 40001 -d 9s -t 9s -i 0 --json >/tmp/probe.json 2>/tmp/probe.err &
P=$!
ping -c 40 -i 0.1 10.0.2.2 >/tmp/ping.txt 2>&1 &
rx0=$(cat /sys/class/net/eth0/statistics/rx_packets)
irqlat -i eth0 -d 6s >/tmp/irqlat.txt 2>&1 &
A=$!
irqlat -i eth0 -d 6s --json >/tmp/irqlat.json 2>&1 &
B=$!
if [ -n "$RXIRQ" ]; then
	irqlat -i eth0 --irq "$RXIRQ" -d 6s --json >/tmp/irqlat-irq.json 2>&1 &
	C=$!
fi
wait $A; echo "irqlat exit $?" >/tmp/rc
wait $B; echo "irqlat-json exit $?" >>/tmp/rc
echo "rx_packets $(( $(cat /sys/class/net/eth0/statistics/rx_packets) - rx0 ))" >>/tmp/rc
[ -n "$RXIRQ" ] && { wait $C; echo "irqlat-irq exit $? (irq $RXIRQ)" >>/tmp/rc; }
wait $P; echo "tsprobe exit $?" >>/tmp/rc
sect rc /tmp/rc
sect irqlat /tmp/irqlat.txt
sect irqlat-json /tmp/irqlat.json
sect irqlat-irq-json /tmp/irqlat-irq.json
sect probe /tmp/probe.json
sect probe-err /tmp/probe.err
sect ping /tmp/ping.txt
dmesg | grep -iE 'BUG:|WARNING:|Oops|Call Trace|bpf' >/tmp/dmesg.txt
sect dmesg /tmp/dmesg.txt
echo done >&3
sync
poweroff -f
