# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest side of the QEMU test guests, sourced by each /init
# (tests/kernel/guest-init.sh, tests/e2e/guest-init.sh,
# tests/tools/irqlat-guest-init.sh) from /lib/guest-init-lib.sh. Sets up
# busybox and the pseudo file systems and opens the result channel: the
# second serial port (/dev/ttyS1), a file on the host (tests/lib/guest.sh).
# Result lines: "ok NAME", "not ok NAME: why", "# note", then "done".
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec 3>/dev/ttyS1

ok() { echo "ok $1" >&3; }
nok() { echo "not ok $1: $2" >&3; }
note() { echo "# $*" >&3; }
check() { # name cmd...: pass when the command succeeds
	_n=$1
	shift
	if "$@" >/tmp/check.out 2>&1; then ok "$_n"; else nok "$_n" "$(head -c 300 /tmp/check.out | tr '\n' ' ')"; fi
}
expect_out() { # name wanted-text cmd...
	_n=$1
	_w=$2
	shift 2
	"$@" >/tmp/out.txt 2>&1
	if grep -qF -- "$_w" /tmp/out.txt; then ok "$_n"; else nok "$_n" "wanted '$_w', got: $(head -c 300 /tmp/out.txt | tr '\n' ' ')"; fi
}
in_range() { # name value lo hi
	if [ "$2" -ge "$3" ] && [ "$2" -le "$4" ]; then ok "$1"; else nok "$1" "$2 not in [$3, $4]"; fi
}

# Anything the kernel says that means a bug, in our modules or elsewhere.
BAD='BUG:|WARNING:|Oops|Call Trace|general protection|kernel BUG|refcount_t:|list_add corruption|list_del corruption|UBSAN|KASAN|slab error|Poison overwritten|double free|use-after-free|stack-protector|hung_task'
dmesg_clean() {
	if dmesg | grep -E "$BAD" >/tmp/bad.txt; then
		cat /tmp/bad.txt
		return 1
	fi
	return 0
}

# PCI configuration space through sysfs
cfg8() { od -An -tu1 -j "$2" -N1 "$1/config" | tr -d ' '; }
cfg16() { od -An -tu2 -j "$2" -N2 "$1/config" | tr -d ' '; }
cfgw8() { printf "\\$(printf %o "$3")" | dd of="$1/config" bs=1 seek="$2" conv=notrunc 2>/dev/null; }
cfgw32() { # dev off value (little endian)
	for _i in 0 1 2 3; do cfgw8 "$1" $(($2 + _i)) $((($3 >> (8 * _i)) & 255)); done
}
find_cap() { # dev id -> offset or nothing
	_p=$(cfg8 "$1" 52)
	_k=0
	while [ "$_p" -ne 0 ] && [ $_k -lt 48 ]; do
		[ "$(cfg8 "$1" "$_p")" -eq "$2" ] && { echo "$_p"; return; }
		_p=$(cfg8 "$1" $((_p + 1)))
		_k=$((_k + 1))
	done
}
