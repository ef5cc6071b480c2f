#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# hdl/boards/carry_ff_fill.py rewires flip-flops through LUTs it makes
# before nextpnr packs; this proves the result equal to the HDL: the probe
# design (carry_fill_probe.vhd) through the bitstream's own steps (GHDL,
# yosys_ice40.sh, nextpnr with the script, placed and routed), the
# bitstream read back into Verilog (icebox_vlog), and Yosys' SAT solver
# proving, by induction from all flip-flops 0, that no input sequence
# makes an output differ. Fails if the script makes none of one of its
# six kinds of step (the probe no longer covers it).
# Usage: carry_fill_equiv.sh OUTDIR
set -eu
out=$1
top=carry_fill_probe
here=$(cd "$(dirname "$0")" && pwd)
boards=$here/../../hdl/boards
rm -rf "$out" && mkdir -p "$out/work"
ghdl -a --std=08 --workdir="$out/work" "$here/$top.vhd"
sh "$boards/ghdl_verilog.sh" "$out/$top.v" "$out/work" "$top"
sh "$boards/yosys_ice40.sh" "$out/$top.v" "$top" "$out/yosys.log" "$out/$top.json"
# CARRY_FILL_FAST_CLOCKS (tb_clk from mk/bitstream.mk under make) emptied:
# the probe has one clock, clk, and its host must be made
CARRY_FILL_FAST_CLOCKS= nextpnr-ice40 --hx8k --package ct256 --json "$out/$top.json" \
	--pcf "$here/$top.pcf" --asc "$out/$top.asc" --pre-pack "$boards/carry_ff_fill.py" --seed 1 \
	--log "$out/nextpnr.log" -q >"$out/nextpnr.out" 2>&1
# "... N moved in (F into feed-ins made here, C beside a constant carry in);
# H feed-ins made for a LUT of x; carry outs joined to their chains: P
# through a LUT made here, L by a LUT's input order"
set -- $(sed -n 's/^carry_ff_fill: .*, \([0-9]*\) moved in (\([0-9]*\) into .*, \([0-9]*\) beside .*; \([0-9]*\) feed-ins made for .*: \([0-9]*\) through .*, \([0-9]*\) by .*$/\1 \2 \3 \4 \5 \6/p' \
	"$out/nextpnr.out")
[ $# -eq 6 ] || { echo "carry_fill_equiv: no carry_ff_fill line in $out/nextpnr.out" >&2; exit 1; }
echo "carry_ff_fill moved $1 flip-flops into carry cells ($2 into feed-ins, $3 beside a" \
	"constant carry in); $4 feed-ins for a LUT; carry outs joined: $5 through a LUT, $6 by" \
	"input order"
# each kind of step must be in the proof, or it proves less than it claims
for k in $(($1 - $2 - $3)) "$2" "$3" "$4" "$5" "$6"; do
	[ "$k" -gt 0 ] || { echo "carry_fill_equiv: the script did not make every kind of step" >&2; exit 1; }
done
icebox_vlog -p "$here/$top.pcf" "$out/$top.asc" >"$out/gate.v" 2>"$out/icebox_vlog.log"
# the probe's ports as single bits, named as icebox_vlog names the pads;
# the probe's SB_CARRY / SB_LUT4 instances from Yosys' own models (their
# warnings go to equiv.err). No -ignore_gold_x: the probe's registers all
# start at 0, and a gold X left out of the compare lets a counter held by
# its enable differ unseen, so the induction never closes.
yosys -q -l "$out/equiv.log" 2>"$out/equiv.err" -p "
	read_verilog $out/$top.v
	read_verilog -D NO_ICE40_DEFAULT_ASSIGNMENTS +/ice40/cells_sim.v
	hierarchy -top $top
	proc; flatten; splitnets -ports
	rename $top gold
	read_verilog $out/gate.v
	proc
	rename chip gate
	miter -equiv -flatten -make_outputs gold gate miter
	hierarchy -top miter
	opt -fast
	sat -verify -tempinduct -prove trigger 0 -set-init-zero -seq 1 -maxsteps 20 miter" || {
	tail -n 5 "$out/equiv.err" >&2; echo "carry_fill_equiv: not proven ($out/equiv.log)" >&2; exit 1; }
grep -q "Induction step proven: SUCCESS" "$out/equiv.log"
echo "carry_fill_equiv: placed bitstream equal to $top"
# The host step's clock rule (session 18): with the probe's clock named in
# CARRY_FILL_FAST_CLOCKS its chain gets no host; a name no flip-flop is
# clocked by fails the packing. Packing only (no placement needed).
pack_fast() {
	CARRY_FILL_FAST_CLOCKS=$1 nextpnr-ice40 --hx8k --package ct256 --json "$out/$top.json" \
		--pack-only --pre-pack "$boards/carry_ff_fill.py" --log "$out/nextpnr-$1.log" -q \
		>"$out/nextpnr-$1.out" 2>&1
}
pack_fast clk || { echo "carry_fill_equiv: packing with CARRY_FILL_FAST_CLOCKS=clk failed" >&2; exit 1; }
grep -q "^carry_ff_fill: feed-ins for a LUT of x: 0 made .*, [1-9][0-9]* left on a clock" \
	"$out/nextpnr-clk.out" || {
	echo "carry_fill_equiv: CARRY_FILL_FAST_CLOCKS=clk still made a host ($out/nextpnr-clk.out)" >&2; exit 1; }
if pack_fast no_such_clk; then
	echo "carry_fill_equiv: CARRY_FILL_FAST_CLOCKS=no_such_clk packed ($out/nextpnr-no_such_clk.out)" >&2; exit 1
fi
grep -q "no flip-flop is clocked by it" "$out/nextpnr-no_such_clk.out" || {
	echo "carry_fill_equiv: CARRY_FILL_FAST_CLOCKS=no_such_clk failed for another reason" >&2; exit 1; }
echo "carry_fill_equiv: CARRY_FILL_FAST_CLOCKS=clk leaves the probe's chain without a host," \
	"an unknown clock name fails"
