#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ghdl_verilog fix 8 (one-hot cases as parallel casez) must not change a
# design: BLOCK's Verilog with and without it, each flattened, proven
# equivalent by Yosys (equiv_make / equiv_simple / equiv_induct; any
# unproven cell fails). Also checks that the fix rewrote some case, so the
# proof is not about two identical netlists.
# Usage: fix8_equiv.sh OUTDIR BLOCK SOURCES...
set -eu
out=$1 block=$2
shift 2
here=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out" && mkdir -p "$out/work"
ghdl -a --std=08 --workdir="$out/work" "$@"
sh "$here/hdl/boards/ghdl_verilog.sh" "$out/fixed.v" "$out/work" "$block"
awk -v no_onehot=1 -f "$here/hdl/boards/ghdl_verilog_fix.awk" \
	"$out/fixed.v.vhd" "$out/fixed.v.raw" >"$out/plain.v"
n=$(grep -c 'parallel_case' "$out/fixed.v" || true)
[ "$n" -gt 0 ] || { echo "fix8_equiv: no case of $block was rewritten" >&2; exit 1; }
# each netlist flattened on its own (both have the same submodule names),
# then the two tops side by side
yosys -q -l "$out/yosys.log" -p "
	read_verilog $out/plain.v; hierarchy -top $block; proc; flatten; opt_clean;
	memory -nomap; rename $block gold; design -stash gold;
	read_verilog $out/fixed.v; hierarchy -top $block; proc; flatten; opt_clean;
	memory -nomap; rename $block gate;
	design -copy-from gold -as gold gold;
	async2sync; equiv_make gold gate equiv; hierarchy -top equiv;
	equiv_simple -seq 5; equiv_induct -seq 5; equiv_status -assert" >/dev/null
echo "fix8_equiv: $block: $n cases rewritten, equivalent ($(grep -o 'Of those cells [0-9]* are proven' "$out/yosys.log" | tail -1))"
