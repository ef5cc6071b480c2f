#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Co-simulation suite: the driver core against the Verilator card model.
# The build is part of the suite: a card model that does not build fails it.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/suite.sh"
. "$TOP/tests/driver/results.sh"
suite_begin cosim
t_run build make --no-print-directory -C "$TOP" "$BUILD/cosim/cosim"
if [ -x "$BUILD/cosim/cosim" ]; then
	start=$(date +%s)
	"$BUILD/cosim/cosim" >"$SUITE_LOG_DIR/cosim.log" 2>&1
	rc=$?
	results_read "$SUITE_LOG_DIR/cosim.log"
	echo "cosim: exit $rc after $(( $(date +%s) - start ))s"
	if [ "$rc" -ne 0 ] && ! grep -q '^not ok ' "$SUITE_LOG_DIR/cosim.log"; then
		t_fail cosim-exit "exit $rc without a failed test (crash?)"
		tail -n 20 "$SUITE_LOG_DIR/cosim.log" | sed 's/^/    | /'
	fi
	[ "$RESULTS_N" -gt 0 ] || t_fail cosim-ran "no test lines"
fi
suite_end
