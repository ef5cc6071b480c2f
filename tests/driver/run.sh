#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Driver core unit tests in user space: the OS-independent core
# (driver/core/) built with the user-space access layer (driver/os/user/),
# warnings as errors, with AddressSanitizer and UBSan; every "ok"/"not ok"
# line of the test program is one test.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/suite.sh"
. "$TOP/tests/driver/results.sh"
suite_begin driver
OUT="$BUILD/driver-test"
mkdir -p "$OUT"
CFLAGS="-std=gnu11 -O2 -g -Wall -Wextra -Wshadow -Wstrict-prototypes -Werror"
INC="-I$TOP/driver/core -I$TOP/driver/os/user -I$BUILD/gen"
SRC="$TOP/driver/core/synpcix_hw.c $TOP/driver/core/synpcix_slot.c $TOP/driver/os/user/synpcix_osdep.c"

# shellcheck disable=SC2086
t_run build-core-user ${CC:-cc} $CFLAGS -fsanitize=address,undefined \
	-fno-sanitize-recover=all $INC $SRC "$TOP/tests/driver/test_core.c" \
	-o "$OUT/test_core"
# shellcheck disable=SC2086
t_run build-slot-user ${CC:-cc} $CFLAGS -fsanitize=address,undefined \
	-fno-sanitize-recover=all $INC $SRC "$TOP/tests/driver/test_slot.c" \
	-o "$OUT/test_slot"
# shellcheck disable=SC2086
t_run build-refine-user ${CC:-cc} $CFLAGS -fsanitize=address,undefined \
	-fno-sanitize-recover=all $INC $SRC "$TOP/tests/driver/test_refine.c" \
	-o "$OUT/test_refine"
# The core must also build on its own with no libc beyond the access layer:
# -ffreestanding catches a stray <string.h>/<stdlib.h> call in driver/core.
# shellcheck disable=SC2086
t_run core-freestanding sh -c "${CC:-cc} $CFLAGS -ffreestanding -fno-builtin -c \
	$INC '$TOP/driver/core/synpcix_hw.c' -o '$OUT/synpcix_hw_freestanding.o' && \
	${CC:-cc} $CFLAGS -ffreestanding -fno-builtin -c \
	$INC '$TOP/driver/core/synpcix_slot.c' -o '$OUT/synpcix_slot_freestanding.o' && \
	ld -r '$OUT/synpcix_hw_freestanding.o' '$OUT/synpcix_slot_freestanding.o' \
	-o '$OUT/core_freestanding.o'"
if nm -u "$OUT/core_freestanding.o" 2>/dev/null | grep -v ' spx_os_' | grep -q ' U '; then
	t_fail core-no-libc-calls "core calls outside the access layer: $(nm -u "$OUT/core_freestanding.o" | grep -v spx_os_ | tr '\n' ' ')"
else
	t_pass core-no-libc-calls
fi

for prog in test_core test_slot test_refine; do
	if [ -x "$OUT/$prog" ]; then
		"$OUT/$prog" >"$SUITE_LOG_DIR/$prog.log" 2>&1
		rc=$?
		results_read "$SUITE_LOG_DIR/$prog.log"
		# A crash (sanitizer report, signal) after some lines must not pass.
		if [ "$rc" -ne 0 ] && ! grep -q '^not ok ' "$SUITE_LOG_DIR/$prog.log"; then
			t_fail $prog-exit "exit $rc without a failed test (crash?)"
			tail -n 20 "$SUITE_LOG_DIR/$prog.log" | sed 's/^/    | /'
		fi
		[ "$RESULTS_N" -gt 0 ] || t_fail $prog-ran "no test lines"
	else
		t_fail $prog "not built"
	fi
done
suite_end
