#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel suite: build synpcix.ko and msi_redirect.ko from clean against
# Debian's kernel headers with W=1 and sparse (zero warnings is a test), then
# boot Debian's kernel from the linux-image-amd64 package (the one the
# headers belong to, not the host's) under QEMU TCG with a small initramfs
# (busybox-static, the modules, the guest's NIC drivers) and run
# tests/kernel/guest-init.sh there. The guest writes its results to a
# second serial port, which is a file here; each line is one test.
# Never -enable-kvm: /dev/kvm exists on these machines but hangs.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/suite.sh"
. "$TOP/tests/driver/results.sh"
. "$TOP/tests/lib/guest.sh"
suite_begin kernel
OUT="$BUILD/kernel-test"
KMOD="$BUILD/kmod"
rm -rf "$OUT" && mkdir -p "$OUT"
CYCLES=${KTEST_CYCLES:-100}
TIMEOUT=${KTEST_TIMEOUT:-400}

# --- build, from clean so every warning is seen
rm -rf "$KMOD"
if make --no-print-directory -C "$TOP" modules >"$SUITE_LOG_DIR/modules.log" 2>&1; then
	t_pass modules-build
else
	t_fail modules-build "see ${SUITE_LOG_DIR#"$TOP"/}/modules.log"
	tail -n 20 "$SUITE_LOG_DIR/modules.log" | sed 's/^/    | /'
fi
nwarn=$(cat "$KMOD/build.log" 2>/dev/null | grep -c -E "warning:|error:")
if [ -f "$KMOD/build.log" ] && [ "$nwarn" -eq 0 ] && grep -q '^  CHECK ' "$KMOD/build.log"; then
	t_pass modules-w1-sparse-clean
else
	t_fail modules-w1-sparse-clean "$nwarn warning/error line(s) or sparse did not run (${KMOD#"$TOP"/}/build.log)"
fi

# --- the kernel the headers belong to
if ! guest_kernel >"$SUITE_LOG_DIR/kernel.txt"; then
	t_fail guest-kernel "$(cat "$SUITE_LOG_DIR/kernel.txt")"
	suite_end
	exit 1
fi

# --- msir_apitest.ko (tests/kernel/msir_apitest.c): msi_redirect's
# in-kernel API used from a module, as the patched e1000 does; same
# headers, W=1 and sparse, no warnings
KT="$KMOD/msir_apitest"
KDIR=${KDIR:-/usr/src/linux-headers-$KREL}
mkdir -p "$KT" && cp "$TOP/tests/kernel/msir_apitest.c" "$KT/" &&
	printf 'obj-m += msir_apitest.o\nccflags-y += -I%s -I%s\n' \
		"$KMOD/synpcix/include" "$KMOD/msi_redirect" >"$KT/Kbuild"
if make -C "$KDIR" W=1 C="$(command -v sparse >/dev/null && echo 1 || echo 0)" M="$KT" \
	KBUILD_EXTRA_SYMBOLS="$KMOD/synpcix/Module.symvers $KMOD/msi_redirect/Module.symvers" \
	modules >"$SUITE_LOG_DIR/msir_apitest.log" 2>&1 && [ -f "$KT/msir_apitest.ko" ] &&
	! grep -qE 'warning:|error:' "$SUITE_LOG_DIR/msir_apitest.log"; then
	t_pass msir-apitest-build
else
	t_fail msir-apitest-build "see ${SUITE_LOG_DIR#"$TOP"/}/msir_apitest.log"
fi

# --- initramfs
R="$OUT/initramfs"
sed "s/^CYCLES=.*/CYCLES=$CYCLES/" "$TOP/tests/kernel/guest-init.sh" | guest_root "$R" -
t_run guest-modules guest_module "$R" "$KMOD/synpcix/synpcix.ko" "$KMOD/msi_redirect/msi_redirect.ko" \
	"$KT/msir_apitest.ko" \
	drivers/net/ethernet/intel/e1000e/e1000e.ko drivers/net/ethernet/intel/e1000/e1000.ko
# test tools: ptpio (static), the register image, phc_ctl with its libraries
t_run ptpio ${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -static \
	"$TOP/tests/kernel/ptpio.c" -o "$R/bin/ptpio"
t_run regimage sh -c "${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -I'$BUILD/gen' \
	'$TOP/tests/kernel/regimage.c' -o '$OUT/regimage' && '$OUT/regimage' '$OUT/regs.img' '$R/etc/regs.env'"
t_run phc_ctl guest_binary "$R" /usr/sbin/phc_ctl
t_run initramfs guest_pack "$R" "$OUT/initramfs.gz"

# --- boot
# no_timer_check: the IO-APIC timer check counts ticks in host real time
# and panics ("IO-APIC + timer doesn't work") when TCG runs slow on a loaded host
guest_boot "$OUT" "$TIMEOUT" qemu-system-x86_64 "slub_debug=FZPU no_timer_check" -smp 2 \
	-netdev user,id=n0,restrict=on -device e1000e,netdev=n0,addr=02.0 \
	-netdev user,id=n1,restrict=on -device e1000,netdev=n1,addr=03.0 \
	-netdev user,id=n2,restrict=on -device e1000e,netdev=n2,addr=06.0 \
	-object "memory-backend-file,id=img,mem-path=$OUT/regs.img,size=4096,share=on" \
	-device ivshmem-plain,memdev=img,addr=04.0 \
	-object "memory-backend-file,id=img2,mem-path=$OUT/regs.img,size=4096,share=on" \
	-device ivshmem-plain,memdev=img2,addr=05.0
echo "note: $CYCLES load/unload cycles"
RES="$OUT/results.txt"
cp "$OUT/console.log" "$SUITE_LOG_DIR/console.log" 2>/dev/null

results_read "$RES"
if grep -q '^done' "$RES"; then
	t_pass guest-finished
else
	t_fail guest-finished "guest did not finish (qemu exit $GUEST_RC, ${GUEST_SECS}s; console: ${SUITE_LOG_DIR#"$TOP"/}/console.log)"
	tail -n 25 "$OUT/console.log" | sed 's/^/    | /'
fi
[ "$RESULTS_N" -gt 0 ] || t_fail guest-ran-tests "no results from the guest"
suite_end
