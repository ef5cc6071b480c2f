#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# e2e suite: the card inside QEMU. Builds our QEMU (make qemu: Debian's
# QEMU 7.2 + sim/qemu/patches + the synpcix device on the Verilated
# gateware) and the modules, then boots Debian's kernel (as tests/kernel
# does: busybox initramfs, results on a second serial port) with the
# synpcix card at 00:04.0 and an e1000 with our MSI capability at 00:03.0,
# and runs tests/e2e/guest-init.sh there. TCG only, never -enable-kvm.
# -icount makes virtual time, and so the card's time, deterministic.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/suite.sh"
. "$TOP/tests/driver/results.sh"
suite_begin e2e
OUT="$TOP/build/e2e-test"
KMOD="$TOP/build/kmod"
QEMU="$TOP/build/qemu/qemu-system-x86_64"
rm -rf "$OUT" && mkdir -p "$OUT"
CYCLES=${E2E_CYCLES:-100}
SCALE=${E2E_SCALE:-1000}
TIMEOUT=${E2E_TIMEOUT:-400}
ICOUNT=${E2E_ICOUNT:-shift=3,sleep=off}

t_run qemu-build make --no-print-directory -C "$TOP" qemu
[ -f "$TOP/build/qemu/build-time.txt" ] && echo "note: $(cat "$TOP/build/qemu/build-time.txt")"
if [ ! -f "$KMOD/synpcix/synpcix.ko" ]; then
	t_run modules-build make --no-print-directory -C "$TOP" modules
fi
if [ ! -x "$QEMU" ] || [ ! -f "$KMOD/synpcix/synpcix.ko" ]; then
	t_fail prerequisites "no $QEMU or synpcix.ko"
	suite_end
	exit 1
fi

KREL=$(make -s --no-print-directory -C "$TOP" kernel-release 2>/dev/null)
VMLINUZ=/boot/vmlinuz-$KREL
MODDIR=/lib/modules/$KREL/kernel
if [ ! -r "$VMLINUZ" ] || [ ! -d "$MODDIR" ]; then
	t_fail guest-kernel "no $VMLINUZ or $MODDIR (make deps installs linux-image-amd64)"
	suite_end
	exit 1
fi

# --- initramfs (the same recipe as tests/kernel/run.sh)
R="$OUT/initramfs"
mkdir -p "$R/bin" "$R/proc" "$R/sys" "$R/dev" "$R/tmp" "$R/etc" "$R/lib/modules"
cp /bin/busybox "$R/bin/busybox"
sed -e "s/^CYCLES=.*/CYCLES=$CYCLES/" -e "s/^SCALE=.*/SCALE=$SCALE/" \
	"$TOP/tests/e2e/guest-init.sh" >"$R/init"
chmod +x "$R/init"
cp "$KMOD/synpcix/synpcix.ko" "$R/lib/modules/"
m=$MODDIR/drivers/net/ethernet/intel/e1000/e1000.ko
if [ -f "$m" ]; then cp "$m" "$R/lib/modules/"; else xz -dc "$m.xz" >"$R/lib/modules/e1000.ko"; fi
t_run guest-tools sh -c "${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -static \
	'$TOP/tests/kernel/ptpio.c' -o '$R/bin/ptpio' && \
	${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -static \
	'$TOP/tests/e2e/phcrate.c' -o '$R/bin/phcrate'"
# register offsets and reset values, decimal, from the generated header
sed -n 's/^#define SYNPCIX_\([A-Z0-9_]*\) \(0x[0-9A-Fa-f]*\)u$/\1 \2/p' "$TOP/build/gen/synpcix_regs.h" |
	while read -r n v; do echo "SPX_$n=$((v))"; done >"$R/etc/regs.env"
cp /usr/sbin/phc_ctl "$R/bin/phc_ctl"
for lib in $(ldd /usr/sbin/phc_ctl | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p;s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'); do
	mkdir -p "$R$(dirname "$lib")"
	cp -L "$lib" "$R$lib"
done
t_run initramfs sh -c "cd '$R' && find . | cpio -o -H newc 2>/dev/null | gzip -1 >'$OUT/initramfs.gz'"

# --- boot
RES="$OUT/results.txt"
: >"$RES"
start=$(date +%s)
timeout "$TIMEOUT" "$QEMU" -L /usr/share/qemu -L /usr/share/seabios \
	-accel tcg -icount "$ICOUNT" -M q35 -cpu max -smp 1 -m 512 \
	-nographic -vga none -no-reboot -nodefaults \
	-kernel "$VMLINUZ" -initrd "$OUT/initramfs.gz" \
	-append "console=ttyS0 panic=-1 slub_debug=FZPU loglevel=6" \
	-serial "file:$OUT/console.log" \
	-chardev "file,id=res,path=$RES" -device isa-serial,chardev=res \
	-netdev user,id=n0 -device e1000,netdev=n0,addr=03.0,romfile= \
	-device synpcix,addr=04.0,clock-scale="$SCALE" \
	>"$OUT/qemu.log" 2>&1
rc=$?
secs=$(( $(date +%s) - start ))
echo "note: qemu exit $rc after ${secs}s (kernel $KREL, clock-scale $SCALE, icount $ICOUNT, $CYCLES cycles)"
cp "$OUT/console.log" "$OUT/qemu.log" "$SUITE_LOG_DIR/" 2>/dev/null

results_read "$RES"
if grep -q '^done' "$RES"; then
	t_pass guest-finished
else
	t_fail guest-finished "guest did not finish (qemu exit $rc, ${secs}s; console: ${SUITE_LOG_DIR#"$TOP"/}/console.log)"
	tail -n 25 "$OUT/console.log" | sed 's/^/    | /'
	tail -n 5 "$OUT/qemu.log" | sed 's/^/    | /'
fi
[ "$RESULTS_N" -gt 0 ] || t_fail guest-ran-tests "no results from the guest"
suite_end
