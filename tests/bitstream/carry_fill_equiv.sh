#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# hdl/boards/carry_ff_fill.py rewires flip-flops through LUTs it makes
# before nextpnr packs; this proves the result equal to the HDL: the probe
# design (carry_fill_probe.vhd) through the bitstream's own steps (GHDL,
# yosys_ice40.sh, nextpnr with the script, placed and routed), the
# bitstream read back into Verilog (icebox_vlog), and Yosys' SAT solver
# proving, by induction from all flip-flops 0, that no input sequence
# makes an output differ. Fails if the script moves nothing (the probe no
# longer covers it). Usage: carry_fill_equiv.sh OUTDIR
set -eu
out=$1
top=carry_fill_probe
here=$(cd "$(dirname "$0")" && pwd)
boards=$here/../../hdl/boards
rm -rf "$out" && mkdir -p "$out/work"
ghdl -a --std=08 --workdir="$out/work" "$here/$top.vhd"
sh "$boards/ghdl_verilog.sh" "$out/$top.v" "$out/work" "$top"
sh "$boards/yosys_ice40.sh" "$out/$top.v" "$top" "$out/yosys.log" "$out/$top.json"
nextpnr-ice40 --hx8k --package ct256 --json "$out/$top.json" --pcf "$here/$top.pcf" \
	--asc "$out/$top.asc" --pre-pack "$boards/carry_ff_fill.py" --seed 1 \
	--log "$out/nextpnr.log" -q >"$out/nextpnr.out" 2>&1
moved=$(sed -n 's/^carry_ff_fill: .*, \([0-9]*\) moved in$/\1/p' "$out/nextpnr.out")
echo "carry_ff_fill moved ${moved:-no} flip-flops into carry cells"
[ "${moved:-0}" -gt 0 ] || { echo "carry_fill_equiv: the script moved nothing" >&2; exit 1; }
icebox_vlog -p "$here/$top.pcf" "$out/$top.asc" >"$out/gate.v" 2>"$out/icebox_vlog.log"
# the probe's ports as single bits, named as icebox_vlog names the pads
yosys -q -l "$out/equiv.log" -p "
	read_verilog $out/$top.v
	hierarchy -top $top
	proc; flatten; splitnets -ports
	rename $top gold
	read_verilog $out/gate.v
	proc
	rename chip gate
	miter -equiv -flatten -make_outputs -ignore_gold_x gold gate miter
	hierarchy -top miter
	opt -fast
	sat -verify -tempinduct -prove trigger 0 -set-init-zero -seq 1 -maxsteps 20 miter"
grep -q "Induction step proven: SUCCESS" "$out/equiv.log"
echo "carry_fill_equiv: placed bitstream equal to $top"
