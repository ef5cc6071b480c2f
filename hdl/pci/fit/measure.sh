#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Area and 66 MHz timing of pci_target on its own (docs/pci.md, "Area").
# Usage: measure.sh PCI_IDS_PKG.vhd [OUTDIR]   (default OUTDIR build/pci-fit)
# 1. GHDL -> Verilog with the project's repair script, 2. Yosys synth_ice40
# of pci_target alone (its own LUT/FF count, and its logic cells after
# nextpnr's packing), 3. nextpnr-ice40 --hx8k at 66
# MHz of hdl/pci/fit/pci_target_fit.v (pins registered). Prints a summary.
set -eu
top=$(cd "$(dirname "$0")/../../.." && pwd)
pkg=$1
out=${2:-$top/build/pci-fit}
rm -rf "$out" && mkdir -p "$out/work"
cd "$top"
ghdl -a --std=08 --workdir="$out/work" "$pkg" hdl/pci/pci_target.vhd
sh hdl/boards/ghdl_verilog.sh "$out/pci_target.v" "$out/work" pci_target
yosys -l "$out/yosys-core.log" -p "read_verilog $out/pci_target.v; synth_ice40 -top pci_target -json $out/core.json; stat" >/dev/null
# packing alone gives the core's logic cells (placing it would need more
# pins than the package has: its ports are internal signals)
nextpnr-ice40 --hx8k --package ct256 --json "$out/core.json" --pack-only \
	--log "$out/nextpnr-core.log" -q >/dev/null 2>&1 || true
yosys -l "$out/yosys-fit.log" -p "read_verilog $out/pci_target.v hdl/pci/fit/pci_target_fit.v; synth_ice40 -top pci_target_fit -json $out/fit.json" >/dev/null
nextpnr-ice40 --hx8k --package ct256 --json "$out/fit.json" --freq 66 --seed 1 \
	--timing-allow-fail --log "$out/nextpnr.log" -q >/dev/null 2>&1
echo "pci_target (yosys synth_ice40, core alone):"
sed -n '/^3. Printing statistics/,$p' "$out/yosys-core.log" | grep -E 'SB_LUT4|SB_DFF|SB_CARRY|SB_RAM' | sed 's/^ */  /'
grep -E 'ICESTORM_LC:' "$out/nextpnr-core.log" | head -n 1 | sed 's/^Info: */  packed: /'
echo "pci_target_fit (core + registered pins + loop-back back end), nextpnr --hx8k at 66 MHz:"
grep -E 'ICESTORM_LC:|SB_IO:' "$out/nextpnr.log" | tail -n 2 | sed 's/^Info: */  /'
grep -E "Max frequency for clock" "$out/nextpnr.log" | tail -n 1 | sed 's/^Info: */  /'
