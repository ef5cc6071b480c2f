#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Area and 66 MHz timing of the PCI interface (docs/pci.md, "Area and timing").
# Usage: measure.sh PCI_IDS_PKG.vhd [REGS_PKG.vhd [OUTDIR]]
#   (defaults build/gen/synpcix_regs_pkg.vhd and build/pci-fit)
# 1. GHDL -> Verilog with the project's repair script, 2. Yosys synth_ice40
# of pci_target, pci_initiator and pci_interface each alone (LUT/FF counts,
# and logic cells after nextpnr's packing), 3. nextpnr-ice40 --hx8k at 66
# MHz of hdl/pci/fit/pci_target_fit.v and pci_interface_fit.v (pins
# registered). Prints a summary.
set -eu
top=$(cd "$(dirname "$0")/../../.." && pwd)
pkg=$1
regs=${2:-$top/build/gen/synpcix_regs_pkg.vhd}
out=${3:-$top/build/pci-fit}
rm -rf "$out" && mkdir -p "$out/work"
cd "$top"
ghdl -a --std=08 --workdir="$out/work" "$regs" "$pkg" hdl/pci/pci_target.vhd \
	hdl/pci/pci_initiator.vhd hdl/pci/pci_msi_raise.vhd hdl/pci/pci_interface.vhd
for ent in pci_target pci_initiator pci_interface; do
	sh hdl/boards/ghdl_verilog.sh "$out/$ent.v" "$out/work" "$ent"
	yosys -l "$out/yosys-$ent.log" -p "read_verilog $out/$ent.v; synth_ice40 -top $ent -json $out/$ent.json; stat" >/dev/null
	# packing alone gives the block's logic cells (placing it would need
	# more pins than the package has: its ports are internal signals)
	nextpnr-ice40 --hx8k --package ct256 --json "$out/$ent.json" --pack-only \
		--log "$out/nextpnr-$ent.log" -q >/dev/null 2>&1 || true
done
for fit in pci_target pci_interface; do
	yosys -l "$out/yosys-$fit-fit.log" -p "read_verilog $out/$fit.v hdl/pci/fit/${fit}_fit.v; synth_ice40 -top ${fit}_fit -json $out/$fit-fit.json" >/dev/null
	nextpnr-ice40 --hx8k --package ct256 --json "$out/$fit-fit.json" --freq 66 --seed 1 \
		--timing-allow-fail --log "$out/nextpnr-$fit-fit.log" -q >/dev/null 2>&1
done
for ent in pci_target pci_initiator pci_interface; do
	echo "$ent (yosys synth_ice40, alone):"
	# the last statistics block (the explicit stat), flip-flop kinds summed
	awk '/Printing statistics/ { delete n } /SB_(LUT4|DFF|CARRY|RAM)/ { k = $1; sub(/SB_DFF.*/, "SB_DFF*", k); n[k] += $2 }
		END { for (k in n) printf "  %s %d\n", k, n[k] }' "$out/yosys-$ent.log" | sort
	grep -E 'ICESTORM_LC:' "$out/nextpnr-$ent.log" | head -n 1 | sed 's/^Info: */  packed: /'
done
for fit in pci_target pci_interface; do
	echo "${fit}_fit (core + registered pins), nextpnr --hx8k at 66 MHz:"
	grep -E 'ICESTORM_LC:|SB_IO:|ICESTORM_RAM:' "$out/nextpnr-$fit-fit.log" | tail -n 3 | sed 's/^Info: */  /'
	grep -E "Max frequency for clock" "$out/nextpnr-$fit-fit.log" | tail -n 1 | sed 's/^Info: */  /'
done
