#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# /init of the e2e guest (tests/e2e/run.sh builds the initramfs and boots it
# in build/qemu/qemu-system-x86_64). Devices: e1000 with our MSI capability
# at 00:03.0 (slirp behind it), the SynPCI-X card (Verilated gateware) at
# 00:04.0. One line per test on /dev/ttyS1: "ok NAME" / "not ok NAME: why",
# "# note", then "done".
. /lib/guest-init-lib.sh	# busybox, mounts, ok/nok/check/note, dmesg_clean, cfg*

CYCLES=${CYCLES:-100}
SCALE=${SCALE:-1000}
E1000=0000:00:03.0
CARD=0000:00:04.0
ED=/sys/bus/pci/devices/$E1000
CD=/sys/bus/pci/devices/$CARD
M=/lib/modules

rd() { ptpio peek "$1/resource0" "$2"; }
wr() { ptpio poke "$1/resource0" "$2" "$3"; }
. /etc/regs.env	# SPX_<register>=<offset> from synpcix_regs.h

note "kernel $(uname -r), $(nproc) cpu(s), card clock-scale $SCALE"

# --- e1000: the MSI capability of our patch, and traffic
insmod $M/e1000.ko
sleep 1
check e1000-bound test -e /sys/bus/pci/drivers/e1000/$E1000
MSI=$(find_cap $ED 5)
check e1000-msi-capability test -n "$MSI"
note "e1000 MSI capability at config offset ${MSI:-none}"
if [ -n "$MSI" ]; then
	ctl=$(cfg16 $ED $((MSI + 2)))
	check e1000-msi-64bit test $((ctl & 0x80)) -ne 0
	check e1000-msi-one-vector test $(((ctl >> 1) & 7)) -eq 0
	check e1000-msi-off-at-boot test $((ctl & 1)) -eq 0
fi
IF=$(ls $ED/net 2>/dev/null | head -n 1)
check e1000-netdev test -n "$IF"
ip link set lo up
ip link set "$IF" up
ip addr add 10.0.2.15/24 dev "$IF"
sleep 2
check e1000-ping-slirp ping -c 3 -W 5 10.0.2.2
note "e1000 interrupts: $(grep "$IF" /proc/interrupts | tr -s ' ')"

# --- synpcix binds to the card: real probe (block chain walk, magic)
check synpcix-loads insmod $M/synpcix.ko
sleep 1
check synpcix-bound test -e /sys/bus/pci/drivers/synpcix/$CARD
check synpcix-probe-message sh -c "dmesg | grep -q 'synpcix $CARD: SynPCI-X build .*, 125000000 Hz, 2 event input(s), .* blocks'"
dmesg | grep "synpcix $CARD" | head -n 3 | while read -r l; do note "$l"; done
PTP=""
for c in /sys/class/ptp/ptp*; do
	[ "$(cat "$c/clock_name" 2>/dev/null)" = synpcix ] && PTP=$(basename "$c")
done
D=/dev/$PTP
check phc-registered test -n "$PTP" -a -c "$D"

. /lib/guest-e1000.sh	# the patched e1000: RX stamps from the card (docs/e1000.md)

# --- the PHC against the gateware
# The card starts at 0 (1970) at reset and runs 1/SCALE of virtual time.
phc_ctl $D get >/tmp/get0.txt 2>&1
t0=$(sed -n 's/.*clock time is \([0-9]*\)\..*/\1/p' /tmp/get0.txt)
check phc_ctl-get-fresh-card test -n "$t0" -a "${t0:-99}" -lt 10
expect_out phc_ctl-set "set clock time to 1700000000.000000000" phc_ctl $D set 1700000000
phc_ctl $D get >/tmp/get1.txt 2>&1
ns1=$(sed -n 's/.*clock time is 1700000000\.\([0-9]*\) .*/\1/p' /tmp/get1.txt)
# a few ms of guest time between the two commands are a few us of card time
check phc_ctl-get-after-set test -n "$ns1"
[ -n "$ns1" ] && in_range phc-set-then-read-close "$((1$ns1 - 1000000000))" 0 1000000
expect_out phc_ctl-adj "adjusted clock by 5.000000 seconds" phc_ctl $D adj 5
phc_ctl $D get >/tmp/get2.txt 2>&1
check phc_ctl-get-after-adj grep -q 'clock time is 1700000005\.' /tmp/get2.txt
expect_out phc_ctl-adj-negative "adjusted clock by -2.500000 seconds" phc_ctl $D -- adj -2.5
phc_ctl $D get >/tmp/get3.txt 2>&1
check phc_ctl-get-after-negative-adj grep -q 'clock time is 1700000002\.5' /tmp/get3.txt

# rate: the card's clock against the guest's, at 0 and +1000 ppm
rate() { # -> "phc_ns sys_ns"
	phcrate $D 2000 | sed -n 's/^OK //p'
}
expect_out phc_ctl-freq-zero "adjusted clock frequency offset to 0.000000ppb" phc_ctl $D freq 0
set -- $(rate)
p0=${1:-0}
s0=${2:-1}
expect_out phc_ctl-freq-plus "adjusted clock frequency offset to 1000000.000000ppb" phc_ctl $D freq 1000000
set -- $(rate)
p1=${1:-0}
s1=${2:-1}
expect_out phc_ctl-freq-minus "adjusted clock frequency offset to -1000000.000000ppb" phc_ctl $D -- freq -1000000
set -- $(rate)
p2=${1:-0}
s2=${2:-1}
note "phc vs guest clock: ${p0}/${s0} ns at 0 ppb, ${p1}/${s1} at +1e6 ppb, ${p2}/${s2} at -1e6 ppb"
check phc-rate-measured test "$p0" -gt 0 -a "$p1" -gt 0 -a "$p2" -gt 0
if [ "$p0" -gt 0 ] && [ "$p1" -gt 0 ] && [ "$p2" -gt 0 ]; then
	# guest ns per card ns: the clock-scale (guest TSC calibration aside)
	in_range phc-rate-is-scaled $((s0 * 1000 / p0)) $((SCALE * 980)) $((SCALE * 1020))
	den=$((p0 * s1 / 1000000))
	up=$(((p1 * s0 - p0 * s1) / den))
	den=$((p0 * s2 / 1000000))
	dn=$(((p2 * s0 - p0 * s2) / den))
	note "frequency change measured: ${up} ppm for +1000 ppm, ${dn} ppm for -1000 ppm"
	in_range phc-freq-plus-1000ppm "$up" 950 1050
	in_range phc-freq-minus-1000ppm "$dn" -1050 -950
fi
expect_out phc_ctl-freq-back "adjusted clock frequency offset to 1000000.000000ppb" phc_ctl $D freq 1000000
expect_out ptpio-xget "OK 1700000002." ptpio xget $D 5
. /lib/guest-testptp.sh	# the kernel's testptp: -c -l -g -T -t -n -s -k -x -f -p, bad args

# --- the card's own registers agree (read with the driver unbound: a
# claimed BAR cannot be mapped from user space, IO_STRICT_DEVMEM)
echo $CARD >/sys/bus/pci/drivers/synpcix/unbind
check phc-gone-after-unbind test ! -e /sys/class/ptp/$PTP
echo 1 >$CD/enable
check card-magic test "$(rd $CD $SPX_ID_MAGIC)" -eq $((SPX_ID_MAGIC_RESET))
check card-period-ns test "$(rd $CD $SPX_CLOCK_PERIOD_NS)" -eq 8
# +1000 ppm of 8 ns in units of 2^-32 ns: 8 * 2^32 * 1e-3
check card-period-frac test "$(rd $CD $SPX_CLOCK_PERIOD_FRAC)" -eq 34359738
lo=$(rd $CD $SPX_CLOCK_TIME_NS_LO)
hi=$(rd $CD $SPX_CLOCK_TIME_NS_HI)
t=$((hi * 4294967296 + lo))
note "card time register after the PHC tests: $t ns"
in_range card-time-register $((t / 1000000)) 1700000002500 1700000002600
lo2=$(rd $CD $SPX_CLOCK_TIME_NS_LO)
hi2=$(rd $CD $SPX_CLOCK_TIME_NS_HI)
check card-time-advances test $((hi2 * 4294967296 + lo2)) -gt $t

# --- an MSI capture slot end to end (tests/e2e/stampring.c): a ring in a
# locked page of the program, a CPU write to the slot's doorbell, stamps,
# counters and the card's own MSI (into the program's second page), then
# one vector, bus mastering off, INTx
stampring $CD $SCALE >/tmp/stampring.out 2>/tmp/stampring.err
src=$?
cat /tmp/stampring.out >&3
if [ $src -eq 2 ] || ! grep -q '^ok ' /tmp/stampring.out; then
	nok stampring-setup "exit $src: $(head -c 300 /tmp/stampring.err | tr '\n' ' ')"
fi

# --- e1000 MSI delivered as a memory write into the card's BAR: the
# e1000's message address is the card's scratch register, its data a
# marker; an interrupt cause on the e1000 must land the marker there.
echo $E1000 >/sys/bus/pci/drivers/e1000/unbind
echo 1 >$ED/enable
cmd=$(cfg16 $ED 4)
cfgw8 $ED 4 $(((cmd | 0x06) & 255))
bar=$(head -n 1 $CD/resource | cut -d' ' -f1)
scr=$((bar + SPX_ID_SCRATCH))
wr $CD $SPX_ID_SCRATCH 0
check card-scratch-cleared test "$(rd $CD $SPX_ID_SCRATCH)" -eq 0
if [ -n "$MSI" ]; then
	cfgw32 $ED $((MSI + 4)) $((scr & 0xffffffff))
	cfgw32 $ED $((MSI + 8)) $((scr >> 32))
	cfgw8 $ED $((MSI + 12)) $((0x17))
	cfgw8 $ED $((MSI + 13)) $((0x5a))
	# INTx path first (MSI off): the cause must not write the card
	rd $ED 192 >/dev/null	# ICR: read clears
	wr $ED 208 4		# IMS: link status change
	wr $ED 200 4		# ICS: raise it
	check e1000-intx-no-card-write test "$(rd $CD $SPX_ID_SCRATCH)" -eq 0
	rd $ED 192 >/dev/null
	ctl=$(cfg16 $ED $((MSI + 2)))
	cfgw8 $ED $((MSI + 2)) $(((ctl | 1) & 255))
	wr $ED 200 4
	v=$(rd $CD $SPX_ID_SCRATCH)
	check e1000-msi-lands-in-card test "$v" -eq $((0x5a17))
	note "card scratch after the e1000 MSI: $(printf 0x%x "$v")"
	# one message per rising edge: no new one while the cause stays set
	wr $CD $SPX_ID_SCRATCH 0
	wr $ED 200 4
	check e1000-msi-edge-only test "$(rd $CD $SPX_ID_SCRATCH)" -eq 0
	rd $ED 192 >/dev/null
	wr $ED 200 4
	check e1000-msi-again-after-clear test "$(rd $CD $SPX_ID_SCRATCH)" -eq $((0x5a17))
	# the e1000's MSI at slot 2's doorbell: the card latches it (slot 2 is
	# not enabled, so the capture finds nothing to stamp: empty)
	db=$((bar + SPX_RSV_DOORBELLS_BASE + 2 * SPX_RSV_DOORBELLS_STRIDE))
	cfgw32 $ED $((MSI + 4)) $((db & 0xffffffff))
	cfgw32 $ED $((MSI + 8)) $((db >> 32))
	rd $ED 192 >/dev/null
	wr $CD $SPX_MSI_SLOTS_SLOT_SEL 2
	c0=$(rd $CD $SPX_MSI_SLOTS_CAPTURES)
	e0=$(rd $CD $SPX_MSI_SLOTS_EMPTY)
	wr $ED 200 4
	sleep 1
	check e1000-msi-captured-by-slot test "$(rd $CD $SPX_MSI_SLOTS_CAPTURES)" -eq $((c0 + 1))
	check e1000-msi-capture-empty test "$(rd $CD $SPX_MSI_SLOTS_EMPTY)" -eq $((e0 + 1))
	check e1000-msi-data-latched test "$(rd $CD $SPX_MSI_SLOTS_LAST_DATA)" -eq $((0x5a17))
	wr $ED 216 4		# IMC
	rd $ED 192 >/dev/null
	cfgw8 $ED $((MSI + 2)) $((ctl & 254))
fi
echo $E1000 >/sys/bus/pci/drivers/e1000/bind
sleep 1
check e1000-rebound test -e /sys/bus/pci/drivers/e1000/$E1000

. /lib/guest-irq.sh	# interrupt path through the card (tests/e2e/guest-irq.sh)

# --- load/unload cycles with the card present, leak and log checks
rmmod synpcix
insmod $M/synpcix.ko && rmmod synpcix	# first-load allocations out of the count
echo 3 >/proc/sys/vm/drop_caches
s0=$(awk 'NR > 2 { s += $2 } END { print s }' /proc/slabinfo)
fails=0
bindfails=0
phcfails=0
i=0
while [ $i -lt "$CYCLES" ]; do
	insmod $M/synpcix.ko || fails=$((fails + 1))
	test -e /sys/bus/pci/drivers/synpcix/$CARD || bindfails=$((bindfails + 1))
	p=$(grep -lx synpcix /sys/class/ptp/ptp*/clock_name 2>/dev/null | head -n 1)
	p=${p%/clock_name}
	phc_ctl /dev/${p##*/} get >/dev/null 2>&1 || phcfails=$((phcfails + 1))
	rmmod synpcix || fails=$((fails + 1))
	i=$((i + 1))
done
echo 3 >/proc/sys/vm/drop_caches
sleep 1
s1=$(awk 'NR > 2 { s += $2 } END { print s }' /proc/slabinfo)
note "cycles $CYCLES: slab objects $s0 -> $s1"
# one lost object per cycle would be $CYCLES: allow a third for the idle guest
check no-slab-leak test $((s1 - s0)) -lt $((CYCLES / 3 + 1))
check "load-unload-${CYCLES}x" test "$fails" -eq 0
check bound-every-cycle test "$bindfails" -eq 0
check phc-every-cycle test "$phcfails" -eq 0
check synpcix-gone sh -c "! grep -q '^synpcix ' /proc/modules"
check dmesg-no-oops-or-warning dmesg_clean
echo done >&3
sync
poweroff -f
