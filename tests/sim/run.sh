#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Verilator tests of the card's clock core (tests/sim/sim_tests.c), driven
# through the register port only. Two tests run at a time (2-core machine);
# results are reported in the list's order.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/suite.sh"
suite_begin sim
BIN="${SIM_TESTS:-$BUILD/sim/sim_tests}"
if [ ! -x "$BIN" ]; then
	t_fail build "no $BIN (make test-sim builds it)"
	suite_end
	exit 1
fi
jobs=$(nproc 2>/dev/null || echo 2)
"$BIN" --list >"$SUITE_LOG_DIR/list" || { t_fail list "$BIN --list failed"; suite_end; exit 1; }
xargs -P "$jobs" -I{} sh -c "'$BIN' {} >'$SUITE_LOG_DIR/{}.log' 2>&1; echo \$? >'$SUITE_LOG_DIR/{}.rc'" \
	<"$SUITE_LOG_DIR/list"
while read -r t; do
	if [ "$(cat "$SUITE_LOG_DIR/$t.rc" 2>/dev/null)" = 0 ] && grep -q "^$t: PASS" "$SUITE_LOG_DIR/$t.log"; then
		t_pass "$t"
	else
		t_fail "$t" "log: $SUITE_LOG_DIR/$t.log"
		grep -m6 -E 'FAIL|card_sim|world' "$SUITE_LOG_DIR/$t.log" | sed 's/^/    | /'
	fi
done <"$SUITE_LOG_DIR/list"
suite_end
