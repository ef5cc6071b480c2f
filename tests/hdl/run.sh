#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# GHDL unit tests: analyse the gateware, then run every sim/hdl/tb_*.vhd
# (one self-checking testbench per block) in parallel on the machine's cores.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/suite.sh"
suite_begin hdl
W="$BUILD/ghdl"
rm -rf "$W" && mkdir -p "$W"
cd "$TOP" || exit 1
GHDL="ghdl -a --std=08 --workdir=$W"
if ! $GHDL "$@" >"$SUITE_LOG_DIR/analyse.log" 2>&1; then
	t_fail analyse "$(head -5 "$SUITE_LOG_DIR/analyse.log")"
	suite_end
	exit 1
fi
t_pass analyse-gateware
for tb in sim/hdl/tb_*.vhd; do
	$GHDL "$tb" >>"$SUITE_LOG_DIR/analyse.log" 2>&1 || t_fail "$(basename "$tb" .vhd)" "does not analyse"
done
jobs=$(nproc 2>/dev/null || echo 2)
ls sim/hdl/tb_*.vhd | xargs -n1 basename | sed 's/\.vhd$//' |
	xargs -P "$jobs" -I{} sh -c "cd '$W' && ghdl --elab-run --std=08 {} --assert-level=error >'$SUITE_LOG_DIR/{}.log' 2>&1; echo \$? >'$SUITE_LOG_DIR/{}.rc'"
# the same integration testbench against GHDL's synthesis netlist (in the
# background while the RTL testbenches run)
sh tests/hdl/netlist.sh "$BUILD/ghdl-netlist" "$SUITE_LOG_DIR/netlist-synth.log" "$@" \
	>"$SUITE_LOG_DIR/netlist.log" 2>&1 &
nl_pid=$!
for tb in sim/hdl/tb_*.vhd; do
	n=$(basename "$tb" .vhd)
	if [ "$(cat "$SUITE_LOG_DIR/$n.rc" 2>/dev/null)" = 0 ] && grep -q "$n: PASS" "$SUITE_LOG_DIR/$n.log"; then
		t_pass "$n"
	else
		t_fail "$n" "log: $SUITE_LOG_DIR/$n.log"
		grep -m5 -E 'FAIL|error' "$SUITE_LOG_DIR/$n.log" | sed 's/^/    | /'
	fi
done
wait $nl_pid
nl_rc=$?
for n in tb_clock_core tb_pps_servo tb_timebase tb_perout_gen tb_edge_capture tb_capture_unit; do
	if grep -q "$n: PASS" "$SUITE_LOG_DIR/netlist.log"; then
		t_pass "$n-on-synthesis-netlist"
	else
		t_fail "$n-on-synthesis-netlist" "exit $nl_rc, log: $SUITE_LOG_DIR/netlist.log"
		grep -m5 -E 'FAIL|error' "$SUITE_LOG_DIR/netlist.log" | sed 's/^/    | /'
	fi
done
# tb_capture_unit's measured figures (exact/batched stamps, captures,
# overflows, DMA requests) must be the same on the netlist as on the RTL: a
# difference is a synthesis bug or an RTL-only artefact (docs/stamping.md 11.)
figs() { grep -o 'tb_capture_unit: .*' "$1" | grep -v ': PASS' ; }
figs "$SUITE_LOG_DIR/tb_capture_unit.log" >"$SUITE_LOG_DIR/capture-figures-rtl.txt"
figs "$SUITE_LOG_DIR/netlist.log" >"$SUITE_LOG_DIR/capture-figures-netlist.txt"
if [ -s "$SUITE_LOG_DIR/capture-figures-rtl.txt" ] &&
	cmp -s "$SUITE_LOG_DIR/capture-figures-rtl.txt" "$SUITE_LOG_DIR/capture-figures-netlist.txt"; then
	t_pass tb_capture_unit-netlist-figures-equal-rtl
else
	t_fail tb_capture_unit-netlist-figures-equal-rtl "RTL and netlist runs differ"
	diff "$SUITE_LOG_DIR/capture-figures-rtl.txt" "$SUITE_LOG_DIR/capture-figures-netlist.txt" |
		head -10 | sed 's/^/    | /'
fi
# ghdl_verilog fix 8 (one-hot cases as parallel casez) proven not to
# change blocks with many state cases (the Verilator models and the
# bitstream use its output; tests/hdl/fix8_equiv.sh)
for b in perout_gen stamp_engine pci_target; do
	if sh tests/hdl/fix8_equiv.sh "$BUILD/fix8/$b" "$b" "$@" >"$SUITE_LOG_DIR/fix8-$b.log" 2>&1; then
		echo "note: $(tail -n 1 "$SUITE_LOG_DIR/fix8-$b.log")"
		t_pass "verilog-fix8-equivalent-$b"
	else
		t_fail "verilog-fix8-equivalent-$b" "log: $SUITE_LOG_DIR/fix8-$b.log"
		tail -n 3 "$SUITE_LOG_DIR/fix8-$b.log" | sed 's/^/    | /'
	fi
done
suite_end
