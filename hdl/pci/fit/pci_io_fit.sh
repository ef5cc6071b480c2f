#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# PCI pin timing at 66 MHz (`make pci-io-fit`; docs/bitstream.md "Session 6:
# PCI pins"): pci_interface behind the hx8k-pci board's pads
# (hdl/pci/fit/pci_io_fit.vhd) placed on the board's balls by nextpnr, then
# hdl/pci/fit/pci_pin_timing.py turns nextpnr's fabric delays into pin
# timing with the iCE40 data sheet's pad and clock-network delays and checks
# it against PCI 2.3 at 66 MHz. Exit status 1 when anything is missed.
# Usage: pci_io_fit.sh OUTDIR REGS_PKG.vhd PCI_IDS_PKG.vhd [SEED [IO_REGS [CHECK [PREPLACE]]]]
#   IO_REGS true (default: the board's I/O-cell registers) or false (the
#   direct pads of sessions 4 and 5); CHECK all (default), outputs or
#   inputs: which bounds decide the exit status (all are printed);
#   PREPLACE true (default) or false: hdl/boards/pci_input_ffs.py
set -eu
out=$1 regs=$2 ids=$3 seed=${4:-1} ioregs=${5:-true} check=${6:-all} preplace=${7:-true}
top=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$top"
rm -rf "$out" && mkdir -p "$out/work"
ghdl -a --std=08 --workdir="$out/work" "$regs" "$ids" hdl/core/sync_bit.vhd \
	hdl/pci/pci_target.vhd hdl/pci/pci_initiator.vhd hdl/pci/pci_msi_raise.vhd \
	hdl/pci/pci_interface.vhd hdl/boards/hx8k/ice40_pin_in.vhd hdl/boards/hx8k/ice40_pin_out.vhd \
	hdl/boards/hx8k-pci/ice40_pin_bidir.vhd hdl/boards/hx8k-pci/pci_pads.vhd \
	hdl/pci/fit/pci_io_fit.vhd
sh hdl/boards/ghdl_verilog.sh "$out/pci_io_fit.v" "$out/work" pci_io_fit -gIO_REGS="$ioregs"
# synthesised as the card is (the board's ABC script and YOSYS_SYNTH, which
# make exports): plain synth_ice40 mapped the initiator's pin preparation
# 7 LUTs deep after session 21's 48-bit address change (64.70 MHz at seed
# 1), while the board's flow met 68 - 72 MHz with the same HDL
sh hdl/boards/yosys_ice40.sh "$out/pci_io_fit.v" pci_io_fit "$out/yosys.log" "$out/pci_io_fit.json" \
	-- ${YOSYS_SYNTH-}
# the board's PCI balls (the pcf is the one place they are typed) and the
# 66 MHz target on PCI CLK
{ grep -E '^set_io +pci_' hdl/boards/hx8k-pci/synpcix_hx8k_pci.pcf; echo "set_frequency pci_clk 66"; } >"$out/pci_io_fit.pcf"
# the flip-flops that sample a pad kept next to it and the LUTs on the
# TRDY#/STOP# globals copied per group of pads, as on the board
# (hdl/boards/hx8k-pci/board.mk; PCI_IO_PREPLACE=false leaves them free)
pre=
[ "$preplace" = false ] || pre="--pre-pack hdl/boards/hx8k-pci/pci_gbin_luts.py --pre-place hdl/boards/pci_input_ffs.py"
nextpnr-ice40 --hx8k --package ct256 --json "$out/pci_io_fit.json" --pcf "$out/pci_io_fit.pcf" \
	$pre --seed "$seed" --timing-allow-fail --sdf "$out/pci_io_fit.sdf" \
	--log "$out/nextpnr.log" -q >/dev/null 2>&1 || {
	grep -E '^ERROR' "$out/nextpnr.log" >&2 || true
	echo "pci-io-fit: nextpnr failed (log: $out/nextpnr.log)" >&2; exit 1; }
python3 hdl/pci/fit/pci_pin_timing.py --sdf "$out/pci_io_fit.sdf" --log "$out/nextpnr.log" \
	--netlist "$out/pci_io_fit.json" --check "$check"
