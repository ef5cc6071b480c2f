# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host side of every QEMU test guest (tests/kernel, tests/e2e,
# tests/tools/irqlat-guest.sh): find Debian's guest kernel, build a busybox
# initramfs, boot it under TCG and collect what the guest wrote. Sourced;
# TOP must be set. The guest side is tests/lib/guest-init-lib.sh, installed
# as /lib/guest-init-lib.sh in every initramfs.
#
# Why Debian's linux-image-amd64 and not the host's kernel: the modules are
# built against linux-headers-amd64, which belong to that image, and it has
# BTF for irqlat. Never -enable-kvm: /dev/kvm exists on these machines but
# hangs.

# guest_kernel: set KREL, VMLINUZ, MODDIR; on failure print why, return 1
guest_kernel() {
	KREL=$(make -s --no-print-directory -C "$TOP" kernel-release 2>/dev/null)
	VMLINUZ=/boot/vmlinuz-$KREL
	MODDIR=/lib/modules/$KREL/kernel
	if [ -z "$KREL" ] || [ ! -r "$VMLINUZ" ] || [ ! -d "$MODDIR" ]; then
		echo "no guest kernel '$VMLINUZ' or $MODDIR (make deps installs linux-image-amd64)"
		return 1
	fi
}

# guest_root DIR INIT: a fresh initramfs tree with busybox, the shared
# guest helpers and INIT (a file, or - for stdin) as /init
guest_root() {
	rm -rf "$1" &&
		mkdir -p "$1/bin" "$1/proc" "$1/sys" "$1/dev" "$1/tmp" "$1/etc" "$1/lib/modules" &&
		cp /bin/busybox "$1/bin/busybox" &&
		cp "$TOP/tests/lib/guest-init-lib.sh" "$1/lib/guest-init-lib.sh" || return 1
	if [ "$2" = - ]; then cat >"$1/init"; else cp "$2" "$1/init"; fi && chmod +x "$1/init"
}

# guest_module DIR KO...: copy modules into /lib/modules; a path relative
# to the guest kernel's module tree may be stored xz-compressed there
guest_module() {
	_r=$1
	shift
	for _m in "$@"; do
		case $_m in /*) ;; *) _m=$MODDIR/$_m ;; esac
		if [ -f "$_m" ]; then
			cp "$_m" "$_r/lib/modules/" || return 1
		elif [ -f "$_m.xz" ]; then
			xz -dc "$_m.xz" >"$_r/lib/modules/$(basename "$_m")" || return 1
		else
			echo "missing module $_m"
			return 1
		fi
	done
}

# guest_binary DIR BIN [NAME]: BIN as /bin/NAME with every shared library
# it loads, at the same paths
guest_binary() {
	cp "$2" "$1/bin/${3:-$(basename "$2")}" || return 1
	for _l in $(ldd "$2" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p;s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'); do
		mkdir -p "$1$(dirname "$_l")" && cp -L "$_l" "$1$_l" || return 1
	done
}

# guest_regs_env FILE: register offsets and reset values from the generated
# header as SPX_<NAME>=<decimal> lines, for guest scripts to source
guest_regs_env() {
	sed -n 's/^#define SYNPCIX_\([A-Z0-9_]*\) \(0x[0-9A-Fa-f]*\)u$/\1 \2/p' "$BUILD/gen/synpcix_regs.h" |
		while read -r _n _v; do echo "SPX_$_n=$((_v))"; done >"$1"
}

# guest_pack DIR OUT.gz
guest_pack() {
	(cd "$1" && find . | cpio -o -H newc 2>/dev/null | gzip -1 >"$2")
}

# guest_boot OUTDIR TIMEOUT QEMU APPEND-EXTRA [qemu args...]: boot
# OUTDIR/initramfs.gz; the guest's console goes to OUTDIR/console.log, its
# second serial port (results) to OUTDIR/results.txt. Sets GUEST_RC and
# GUEST_SECS and prints one line about the run.
guest_boot() {
	_o=$1 _t=$2 _q=$3 _a=$4
	shift 4
	: >"$_o/results.txt"
	_s=$(date +%s)
	timeout "$_t" "$_q" -accel tcg -M q35 -cpu max -m 512 \
		-nographic -vga none -no-reboot -nodefaults \
		-kernel "$VMLINUZ" -initrd "$_o/initramfs.gz" \
		-append "console=ttyS0 panic=-1 loglevel=6 $_a" \
		-serial "file:$_o/console.log" \
		-chardev "file,id=res,path=$_o/results.txt" -device isa-serial,chardev=res \
		"$@" >"$_o/qemu.log" 2>&1
	GUEST_RC=$?
	GUEST_SECS=$(($(date +%s) - _s))
	echo "note: qemu exit $GUEST_RC after ${GUEST_SECS}s (kernel $KREL)"
}
