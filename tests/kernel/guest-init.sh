#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /init of the QEMU test guest (tests/kernel/run.sh builds the initramfs).
# Runs the kernel-module tests and writes one line per test to the second
# serial port (/dev/ttyS1, a file on the host): "ok NAME" or
# "not ok NAME: why", then "done". The kernel console (ttyS0) is the log.
# Devices (run.sh): e1000e at 00:02.0 (MSI/MSI-X), e1000 at 00:03.0 (no MSI),
# ivshmem-plain at 00:04.0 whose RAM BAR2 holds a register image, and at
# 00:05.0 a second view of the same RAM.
. /lib/guest-init-lib.sh	# busybox, mounts, ok/nok/check/note, dmesg_clean

CYCLES=${CYCLES:-100}
E1000E=0000:00:02.0
E1000=0000:00:03.0
MSIR=/sys/kernel/msi_redirect

# Unreclaimable slab objects and vmalloc use, for the leak check.
slab_objs() { awk 'NR > 2 { s += $2 } END { print s }' /proc/slabinfo; }
vmalloc_kb() { awk '/^VmallocUsed:/ { print $2 }' /proc/meminfo; }

M=/lib/modules
insmod $M/e1000e.ko
insmod $M/e1000.ko
sleep 1
note "kernel $(uname -r), $(nproc) cpu(s)"

check devices-present test -d /sys/bus/pci/devices/$E1000E -a -d /sys/bus/pci/devices/$E1000
check e1000e-has-msi sh -c "grep -q 'msi' /proc/interrupts || ls /sys/bus/pci/devices/$E1000E/msi_irqs/ | grep -q ."

# --- synpcix: loads, registers its driver, binds to nothing without a card
check synpcix-loads insmod /lib/modules/synpcix.ko
check synpcix-driver-registered test -d /sys/bus/pci/drivers/synpcix
bound=$(ls /sys/bus/pci/drivers/synpcix | grep -c '^[0-9a-f]\{4\}:')
check synpcix-binds-nothing test "$bound" -eq 0
check synpcix-no-phc sh -c "! ls /sys/class/ptp/*/clock_name 2>/dev/null | xargs -r cat | grep -q synpcix"

# Probe against a device that is not a card: take e1000e from its driver and
# offer it to synpcix. The block-chain walk must refuse it with a clear
# message and unwind (BAR unmapped, device disabled), no oops.
echo $E1000E >/sys/bus/pci/drivers/e1000e/unbind
VD="$(cat /sys/bus/pci/devices/$E1000E/vendor | sed 's/0x//') $(cat /sys/bus/pci/devices/$E1000E/device | sed 's/0x//')"
echo "$VD" >/sys/bus/pci/drivers/synpcix/new_id
sleep 1
check probe-refuses-foreign-device sh -c "dmesg | grep -q 'synpcix $E1000E: no block header at 0x000.*not a SynPCI-X register window'"
check probe-foreign-left-unbound test ! -e /sys/bus/pci/drivers/synpcix/$E1000E
check probe-foreign-device-disabled test "$(cat /sys/bus/pci/devices/$E1000E/enable)" = 0
echo "$VD" >/sys/bus/pci/drivers/synpcix/remove_id
check synpcix-unloads rmmod synpcix

# --- msi_redirect: loads; refuses every redirect cleanly without a card
check msi-redirect-loads insmod /lib/modules/msi_redirect.ko
echo $E1000E >/sys/bus/pci/drivers/e1000e/bind
sleep 1
check e1000e-rebound test -e /sys/bus/pci/drivers/e1000e/$E1000E
od -An -tx1 -v /sys/bus/pci/devices/$E1000E/config >/tmp/cfg.before
expect_err() { # name errno-text input file
	if echo "$3" >"$4" 2>/tmp/err.out; then
		nok "$1" "write '$3' succeeded"
	elif grep -q "$2" /tmp/err.out; then
		ok "$1"
	else
		nok "$1" "wanted '$2', got: $(cat /tmp/err.out)"
	fi
}
expect_err redirect-no-card "No such device" "$E1000E 0 0" $MSIR/attach
check redirect-no-card-says-why sh -c "dmesg | grep -q 'e1000e $E1000E: refused: no SynPCI-X card'"
expect_err redirect-no-msi-capability "Operation not supported" "$E1000 0 0" $MSIR/attach
check redirect-no-msi-says-why sh -c "dmesg | grep -q 'e1000 $E1000: refused: no MSI or MSI-X capability'"
expect_err redirect-no-such-device "No such device" "0000:00:1f.6 0 0" $MSIR/attach
expect_err redirect-bad-bdf "Invalid argument" "zz:00.0 0 0" $MSIR/attach
expect_err redirect-bad-bdf-range "Invalid argument" "00:20.0 0 0" $MSIR/attach
expect_err redirect-missing-args "Invalid argument" "$E1000E 0" $MSIR/attach
expect_err redirect-extra-args "Invalid argument" "$E1000E 0 0 9" $MSIR/attach
expect_err redirect-negative "Invalid argument" "$E1000E -1 0" $MSIR/attach
expect_err redirect-empty "Invalid argument" "" $MSIR/attach
expect_err redirect-too-long "Invalid argument" "$(printf '%0200d' 0)" $MSIR/attach
expect_err redirect-vector-out-of-range "Invalid argument" "$E1000E 4096 0" $MSIR/attach
expect_err detach-not-attached "No such file or directory" "$E1000E 0" $MSIR/detach
expect_err detach-bad "Invalid argument" "nonsense" $MSIR/detach
check redirects-empty sh -c "test -z \"\$(cat $MSIR/redirects)\""
od -An -tx1 -v /sys/bus/pci/devices/$E1000E/config >/tmp/cfg.after
check refused-redirect-left-device-untouched cmp /tmp/cfg.before /tmp/cfg.after
check msi-redirect-unloads rmmod msi_redirect

# --- synpcix bound to a register image (ivshmem RAM BAR at 00:04.0, see
# tests/kernel/regimage.c): probe, PHC, sysfs and every PTP request against
# known register contents; the guest reads back what the driver wrote. RAM
# keeps a strobed command "pending", so clock commands end in ETIMEDOUT
# here: the driver's timeout path; the guest clears ctrl after each.
. /etc/regs.env
rd() { ptpio peek "$RES" "$1"; }
wr() { ptpio poke "$RES" "$1" "$2"; }
expect_reg() { # name offset value
	_v=$(rd "$2")
	if [ "$_v" -eq $(($3)) ]; then ok "$1"; else nok "$1" "register $2 holds $_v, wanted $(($3))"; fi
}
IMGDEV=0000:00:04.0
# The driver's claim of the BAR stops user mappings of it (IO_STRICT_DEVMEM);
# the guest reads and writes the image through a second ivshmem device on
# the same host file (00:05.0), which no driver claims. driver_override
# binds synpcix to 00:04.0 only.
RES=/sys/bus/pci/devices/0000:00:05.0/resource2
echo synpcix >/sys/bus/pci/devices/$IMGDEV/driver_override
insmod /lib/modules/synpcix.ko reg_bar=2
sleep 1
check image-bound test -e /sys/bus/pci/drivers/synpcix/$IMGDEV
check image-probe-message sh -c "dmesg | grep -q 'synpcix $IMGDEV: SynPCI-X build $IMG_BUILD, 125000000 Hz, 2 event input(s), 0 MSI slot(s), 5 blocks'"
PTP=""
for c in /sys/class/ptp/ptp*; do
	[ "$(cat "$c/clock_name" 2>/dev/null)" = synpcix ] && PTP=$(basename "$c")
done
D=/dev/$PTP
check image-phc-registered test -n "$PTP" -a -c "$D"
P=/bin/ptpio
expect_out ptp-caps "OK max_adj=875000000 n_ext_ts=3 n_per_out=1 n_pins=4 pps=0" $P caps $D
expect_out ptp-gettime "OK $IMG_TIME_S.500000000" $P get $D
expect_out ptp-gettimex64 "OK $IMG_TIME_S.500000000" $P xget $D 5
expect_out ptp-gettimex64-too-many-samples "ERR EINVAL" $P xget $D 1000
expect_out phc_ctl-get "clock time is $IMG_TIME_S.500000000" phc_ctl $D get
check ptp-pin-names sh -c "cat /sys/class/ptp/$PTP/pins/PPS_IN /sys/class/ptp/$PTP/pins/EVENT0 /sys/class/ptp/$PTP/pins/EVENT1 /sys/class/ptp/$PTP/pins/PPS_OUT"
S=/sys/bus/pci/devices/$IMGDEV
for kv in servo_mode=off servo_state=locked pps_present=1 pps_offset_ns=-5 \
	servo_freq_adj_ppb=10000 pps_edges=42 pps_glitches=1 pps_rejects=2 \
	pps_losses=3 servo_steps=4 event_overflows=7 events_lost=0 build_id=$IMG_BUILD; do
	check "sysfs-${kv%%=*}" test "$(cat $S/${kv%%=*})" = "${kv#*=}"
done
check sysfs-servo-mode-write sh -c "echo servo >$S/servo_mode && test \"\$(cat $S/servo_mode)\" = servo"
expect_reg sysfs-servo-mode-reaches-card $R_PPS_CTRL 2
expect_out adjfine-refused-while-servo "ERR EBUSY" $P freq $D 100
expect_err sysfs-servo-mode-bad "Invalid argument" "bogus" $S/servo_mode
expect_err sysfs-read-only "Invalid argument" "x" $S/servo_state
echo off >$S/servo_mode

expect_out settime-times-out-on-ram "ERR ETIMEDOUT" $P set $D 1234567890 123456789
expect_reg settime-set-ns-lo $R_SET_NS_LO 0x7DE98115
expect_reg settime-set-ns-hi $R_SET_NS_HI 0x112210F4
expect_reg settime-strobe $R_CLOCK_CTRL 1
expect_out settime-waits-for-pending "ERR ETIMEDOUT" $P set $D 5 0
expect_reg settime-no-restage-while-pending $R_SET_NS_LO 0x7DE98115
wr $R_CLOCK_CTRL 0
expect_out settime-negative "ERR EINVAL" $P set $D -1 0
expect_out adjtime-negative "ERR ETIMEDOUT" $P adj $D -1500000000
expect_reg adjtime-lo $R_ADJ_NS_LO 0xA697D100
expect_reg adjtime-hi $R_ADJ_NS_HI 0xFFFFFFFF
expect_reg adjtime-strobe $R_CLOCK_CTRL 2
wr $R_CLOCK_CTRL 0
expect_out adjfine-100ppm "ERR ETIMEDOUT" $P freq $D 100000
expect_reg adjfine-period-ns $R_PERIOD_NS 8
expect_reg adjfine-period-frac $R_PERIOD_FRAC 3435974
expect_reg adjfine-strobe $R_CLOCK_CTRL 4
wr $R_CLOCK_CTRL 0
expect_out adjfine-beyond-max-adj "ERR ERANGE" $P freq $D 900000000

expect_out extts-bad-index "ERR EINVAL" $P extts $D 3 1
expect_out extts-both-edges "ERR EOPNOTSUPP" $P extts $D 1 f
expect_out extts-pps-enable "OK" $P extts $D 0 3
expect_reg extts-pps-sets-report $R_PPS_CTRL 1
expect_out extts-pps-event "OK 0 $IMG_PPS_S.000000000" $P event $D 2000
expect_out extts-pps-disable "OK" $P extts $D 0 0
expect_reg extts-pps-back-to-off $R_PPS_CTRL 0
expect_out extts-pps-falling "OK" $P extts $D 0 5
expect_reg extts-pps-falling-edge-and-report $R_PPS_CTRL 5
expect_out extts-pps-falling-disable "OK" $P extts $D 0 0
expect_reg extts-pps-off-keeps-edge $R_PPS_CTRL 4
echo servo >$S/servo_mode
expect_out extts-pps-edge-change-refused-under-servo "ERR EBUSY" $P extts $D 0 3
echo off >$S/servo_mode
expect_out extts-pps-rising-again "OK" $P extts $D 0 3
expect_out extts-pps-rising-disable "OK" $P extts $D 0 0
expect_reg extts-pps-rising-edge-off $R_PPS_CTRL 0
expect_out extts-event1-falling "OK" $P extts $D 2 d
expect_reg extts-event1-falling-bits $R_EVENT_CTRL 0x202
expect_out extts-event1-disable "OK" $P extts $D 2 0
expect_reg extts-event1-off $R_EVENT_CTRL 0

expect_out perout-bad-index "ERR EINVAL" $P perout $D 1 1700000010 1000000000 0 0
expect_out perout-period-too-long "ERR ERANGE" $P perout $D 0 1700000010 5000000000 0 0
expect_out perout-one-shot-unsupported "ERR EOPNOTSUPP" $P perout $D 0 1700000010 1000000000 0 1
expect_out perout-width-not-below-period "ERR EINVAL" $P perout $D 0 1700000010 1000000000 1000000000 2
expect_out perout-period-too-short "ERR EINVAL" $P perout $D 0 1700000010 100 50 2
expect_out perout-arm "OK" $P perout $D 0 1700000010 1000000000 100000000 2
ST=$((1700000010 * 1000000000 - PEROUT_DELAY_NS))
expect_reg perout-start-lo $R_PEROUT_START_LO $((ST & 0xffffffff))
expect_reg perout-start-hi $R_PEROUT_START_HI $((ST >> 32))
expect_reg perout-period $R_PEROUT_PERIOD 1000000000
expect_reg perout-width $R_PEROUT_WIDTH 100000000
expect_reg perout-enabled $R_PEROUT_CTRL 1
expect_out perout-past-start-moves-on "OK" $P perout $D 0 1600000000 1000000000 100000000 2
ST=$((1700000001 * 1000000000 - PEROUT_DELAY_NS))	# now is .5 s: next whole second
expect_reg perout-past-start-whole-periods $R_PEROUT_START_LO $((ST & 0xffffffff))

expect_out pin-wrong-function "ERR EOPNOTSUPP" $P pin $D 0 2 0
expect_out pin-bad-index "ERR EINVAL" $P pin $D 9 1 0
expect_out pin-own-function "OK" $P pin $D 3 2 0

wr $R_TIME_NS_LO 0xffffffff
wr $R_TIME_NS_HI 0xffffffff
wr $R_TIME_FRAC 0xffffffff
expect_out card-gone-gettime "ERR ENODEV" $P get $D
wr $R_TIME_NS_LO $((1700000000500000000 & 0xffffffff))
wr $R_TIME_NS_HI $((1700000000500000000 >> 32))
wr $R_TIME_FRAC 0

expect_out unbind-while-open "ERR ENODEV" $P unplug $D /sys/bus/pci/drivers/synpcix/unbind $IMGDEV
expect_reg unbind-stops-perout $R_PEROUT_CTRL 0
check unbind-phc-gone test ! -e /sys/class/ptp/$PTP
check synpcix-unloads-after-image rmmod synpcix

# --- 100 load/unload cycles of each module, leak and log checks
insmod /lib/modules/synpcix.ko reg_bar=2 && rmmod synpcix
insmod /lib/modules/msi_redirect.ko && rmmod msi_redirect
echo 3 >/proc/sys/vm/drop_caches
s0=$(slab_objs)
v0=$(vmalloc_kb)
fails=0
bindfails=0
i=0
while [ $i -lt "$CYCLES" ]; do
	insmod /lib/modules/synpcix.ko reg_bar=2 || fails=$((fails + 1))
	test -e /sys/bus/pci/drivers/synpcix/$IMGDEV || bindfails=$((bindfails + 1))
	insmod /lib/modules/msi_redirect.ko || fails=$((fails + 1))
	echo "$E1000E 0 0" >$MSIR/attach 2>/dev/null && fails=$((fails + 1))
	rmmod msi_redirect || fails=$((fails + 1))
	rmmod synpcix || fails=$((fails + 1))
	i=$((i + 1))
done
echo 3 >/proc/sys/vm/drop_caches
sleep 1
s1=$(slab_objs)
v1=$(vmalloc_kb)
note "cycles $CYCLES: slab objects $s0 -> $s1, vmalloc $v0 -> $v1 kB"
check load-unload-${CYCLES}x test "$fails" -eq 0
check bound-image-every-cycle test "$bindfails" -eq 0
check modules-gone sh -c "! grep -qE '^(synpcix|msi_redirect) ' /proc/modules"
# One lost object per cycle would be $CYCLES objects: allow a third of that
# for unrelated kernel activity in an idle guest.
check no-slab-leak test $((s1 - s0)) -lt $((CYCLES / 3 + 1))
check no-vmalloc-leak test $((v1 - v0)) -lt 64
check dmesg-no-oops-or-warning dmesg_clean
dmesg >/tmp/dmesg.txt
note "dmesg lines: $(wc -l </tmp/dmesg.txt)"
echo done >&3
sync
poweroff -f
