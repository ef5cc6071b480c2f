#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /init of the QEMU test guest (tests/kernel/run.sh builds the initramfs).
# Runs the kernel-module tests and writes one line per test to the second
# serial port (/dev/ttyS1, a file on the host): "ok NAME" or
# "not ok NAME: why", then "done". The kernel console (ttyS0) is the log.
# Devices (run.sh): e1000e at 00:02.0 (MSI/MSI-X), e1000 at 00:03.0 (no MSI).
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

CYCLES=${CYCLES:-100}
E1000E=0000:00:02.0
E1000=0000:00:03.0
MSIR=/sys/kernel/msi_redirect

exec 3>/dev/ttyS1
ok() { echo "ok $1" >&3; }
nok() { echo "not ok $1: $2" >&3; }
check() { # name cond-cmd... ; pass when the command succeeds
	_n=$1
	shift
	if "$@" >/tmp/check.out 2>&1; then ok "$_n"; else nok "$_n" "$(head -c 300 /tmp/check.out | tr '\n' ' ')"; fi
}
note() { echo "# $*" >&3; }

# Anything the kernel says that means a bug, in our modules or elsewhere.
BAD='BUG:|WARNING:|Oops|Call Trace|general protection|kernel BUG|refcount_t:|list_add corruption|list_del corruption|UBSAN|KASAN|slab error|Poison overwritten|double free|use-after-free|stack-protector|hung_task'
dmesg_clean() {
	if dmesg | grep -E "$BAD" >/tmp/bad.txt; then
		cat /tmp/bad.txt
		return 1
	fi
	return 0
}

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

# --- 100 load/unload cycles of each module, leak and log checks
insmod /lib/modules/synpcix.ko && rmmod synpcix
insmod /lib/modules/msi_redirect.ko && rmmod msi_redirect
echo 3 >/proc/sys/vm/drop_caches
s0=$(slab_objs)
v0=$(vmalloc_kb)
fails=0
i=0
while [ $i -lt "$CYCLES" ]; do
	insmod /lib/modules/synpcix.ko || fails=$((fails + 1))
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
