#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The card and an e1000-like NIC on the simulated PCI bus (sim/pcibus/,
# tests/pcibus/pcibus_tests.c), the protocol checker on every clock. Two
# tests run at a time (2-core machine); results are reported in list order.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/suite.sh"
suite_begin pcibus
BIN="${PCIBUS_TESTS:-$BUILD/pcibus/pcibus_tests}"
if [ ! -x "$BIN" ]; then
	t_fail build "no $BIN (make test-pcibus builds it)"
	suite_end
	exit 1
fi
jobs=$(nproc 2>/dev/null || echo 2)
[ "$jobs" -gt 2 ] && jobs=2
"$BIN" --list >"$SUITE_LOG_DIR/list" || { t_fail list "$BIN --list failed"; suite_end; exit 1; }
xargs -P "$jobs" -I{} sh -c "'$BIN' {} >'$SUITE_LOG_DIR/{}.log' 2>&1; echo \$? >'$SUITE_LOG_DIR/{}.rc'" \
	<"$SUITE_LOG_DIR/list"
while read -r t; do
	if [ "$(cat "$SUITE_LOG_DIR/$t.rc" 2>/dev/null)" = 0 ] && grep -q "^$t: PASS" "$SUITE_LOG_DIR/$t.log"; then
		t_pass "$t"
	else
		t_fail "$t" "log: $SUITE_LOG_DIR/$t.log"
		grep -m8 -E '^FAIL|pci_checker|host_bridge|nic_e1000' "$SUITE_LOG_DIR/$t.log" | sed 's/^/    | /'
	fi
done <"$SUITE_LOG_DIR/list"
# the stamping demo, short: its four runs must be sound, and the pcapng
# files it writes must parse with tsstat and hold as many packets as the
# runs delivered (stamp_demo.sh checks the counts)
DEMO="${STAMP_DEMO:-$BUILD/pcibus/stamp_demo}"
TSSTAT="${TSSTAT:-$BUILD/tools/tsstat}"
if [ -x "$DEMO" ] && [ -x "$TSSTAT" ]; then
	rm -rf "$SUITE_LOG_DIR/demo"
	t_run stamp_demo_short sh "$TOP/sim/pcibus/stamp_demo.sh" "$DEMO" "$TSSTAT" \
		"$SUITE_LOG_DIR/demo" 300 1500
else
	t_fail stamp_demo_short "no $DEMO or $TSSTAT (make test-pcibus builds them)"
fi
# tests of known open bugs: not judged here, run by `make stamp-bench`
"$BIN" --list-open | sed 's/^/note: open bug, not run here: /'
suite_end
