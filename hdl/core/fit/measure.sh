#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Area and timing of capture_unit on its own (docs/stamping.md, "Area").
# Usage: measure.sh REGS_PKG.vhd [OUTDIR] [N_SLOTS] [FIFO_LOG2]
#   (defaults build/capture-fit, 4, 8: the card's configuration)
# 1. GHDL -> Verilog with the project's repair script; 2. Yosys synth_ice40
# of capture_unit alone: LUT4/FF per block and its logic cells after
# nextpnr's packing (what counts against the card's budget); 3. nextpnr-ice40
# --hx8k of hdl/core/fit/capture_unit_fit.v (ports registered, time_ns from
# a counter) at 66 MHz bus_clk / 125 MHz tb_clk (fit.pcf). Prints a summary.
set -eu
top=$(cd "$(dirname "$0")/../../.." && pwd)
pkg=$1
out=${2:-$top/build/capture-fit}
nslots=${3:-4}
flog2=${4:-8}
rm -rf "$out" && mkdir -p "$out/work"
cd "$top"
ghdl -a --std=08 --workdir="$out/work" "$pkg" hdl/core/sync_bit.vhd hdl/core/msi_capture.vhd hdl/core/card_irq.vhd \
	hdl/core/card_dma_arbiter.vhd hdl/core/stamp_slot_ram.vhd hdl/core/stamp_engine.vhd \
	hdl/core/capture_regs.vhd hdl/core/capture_unit.vhd
sh hdl/boards/ghdl_verilog.sh "$out/capture_unit.v" "$out/work" capture_unit \
	-gN_SLOTS="$nslots" -gFIFO_LOG2="$flog2"
yosys -l "$out/yosys-core.log" -p "read_verilog $out/capture_unit.v; synth_ice40 -top capture_unit -json $out/core.json; stat" >/dev/null
# per-block figures (hierarchy kept: a little more than flattened)
if [ "${BLOCKS:-0}" = 1 ]; then
	yosys -l "$out/yosys-blocks.log" -p "read_verilog $out/capture_unit.v; synth_ice40 -noflatten -top capture_unit; stat" >/dev/null
fi
# packing alone gives the unit's logic cells (its ports are internal signals)
nextpnr-ice40 --hx8k --package ct256 --json "$out/core.json" --pack-only \
	--log "$out/nextpnr-core.log" -q >/dev/null 2>&1 || true
yosys -l "$out/yosys-fit.log" -p "read_verilog $out/capture_unit.v hdl/core/fit/capture_unit_fit.v; synth_ice40 -top capture_unit_fit -json $out/fit.json" >/dev/null
nextpnr-ice40 --hx8k --package ct256 --json "$out/fit.json" --pcf hdl/core/fit/fit.pcf \
	--pcf-allow-unconstrained --seed 1 --timing-allow-fail \
	--log "$out/nextpnr.log" -q >/dev/null 2>&1
echo "capture_unit (N_SLOTS $nslots, FIFO_LOG2 $flog2), yosys synth_ice40 (LUT4 / FF / carry / RAM):"
stats() {
	awk '/^=== / { m = $2; l[m] = 0; f[m] = 0; c[m] = 0; r[m] = 0 } /SB_LUT4/ { l[m] += $2 } /SB_DFF/ { f[m] += $2 }
		/SB_CARRY/ { c[m] += $2 } /SB_RAM/ { r[m] += $2 }
		/^=== design hierarchy ===/ { exit }
		END { for (k in l) if (k != "design" && k != "") printf "  %-44s %5d / %4d / %3d / %d\n", k, l[k], f[k], c[k], r[k] }' "$1" | sort
}
stats "$out/yosys-core.log"
if [ "${BLOCKS:-0}" = 1 ]; then
	echo "per block (synth_ice40 -noflatten):"
	stats "$out/yosys-blocks.log"
fi
echo "capture_unit packed (nextpnr --pack-only):"
grep -E 'ICESTORM_LC:|ICESTORM_RAM:' "$out/nextpnr-core.log" | head -n 2 | sed 's/^Info: */  /'
echo "capture_unit_fit (unit + registered ports + time counter), nextpnr --hx8k:"
grep -E 'ICESTORM_LC:|ICESTORM_RAM:' "$out/nextpnr.log" | tail -n 2 | sed 's/^Info: */  /'
grep -E "Max frequency for clock" "$out/nextpnr.log" | tail -n 2 | sed 's/^Info: */  /'
