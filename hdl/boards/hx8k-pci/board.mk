# SPDX-License-Identifier: GPL-2.0-or-later
# iCE40 HX8K (ct256) on the PCI edge: the whole card (synpcix_card: PCI
# interface, capture unit, clock core) with the bus on pins. Selected by
# `make ... BOARD=hx8k-pci`; docs/bitstream.md, "Session 4: PCI interface and
# the PCI board". `make bitstream`'s default board since session 22, when
# the card came within 70 % of the HX8K's logic cells.
BOARD_DEVICE   := iCE40HX8K-CT256
BOARD_TOP      := synpcix_hx8k_pci_top
BOARD_PCF      := hdl/boards/hx8k-pci/synpcix_hx8k_pci.pcf
NEXTPNR_ARCH   := --hx8k --package ct256
# Placement seed (mk/bitstream.mk's default is 2). Session 20's tree,
# seeds 2 / 1 / 3 / 4: tb_clk 119.86 / 123.79 / 118.75 / 136.65 MHz (only
# 4 met; its worst paths were long routes: a staged-word block RAM far
# from the chain it feeds, the message strobe across the chip). Session
# 21 (message decodes a clock ahead, the staged-word RAMs fixed by
# tb_st_rams.py below): 139.31 / 138.33 / 136.65 / 132.43 MHz, bus_clk
# 74.06 / 74.48 / 72.37 / 76.68 (5617 cells placed), seeds 5 and 6 meet
# too. Session 22 (LEDs from the card's time, the answer multiplexer as an
# OR, 5337 cells placed): tb_clk 126.60 / 123.75 / 128.49 / 117.04 /
# 129.85 MHz at seeds 2 / 1 / 3 / 4 / 5, bus_clk 70.69 / 71.69 / 70.98 /
# 74.33 / 72.30, so seed 5. A gateware or flow change still needs a new
# sweep (docs/bitstream.md "Status").
NEXTPNR_SEED   ?= 5
# keep the flip-flops that sample a PCI pad next to it (Tsu 3 ns at 66 MHz;
# docs/bitstream.md "Session 7: PCI inputs"); the LUTs TRDY#/STOP# feed
# through their globals copied per group of pads ("Session 12")
# ... and the staged-word RAMs of the timebase domain at fixed sites by
# the timebase chains they feed ("Session 21")
NEXTPNR_PLACE  := --pre-pack hdl/boards/hx8k-pci/pci_gbin_luts.py \
                  --pre-place hdl/boards/pci_input_ffs.py \
                  --pre-place hdl/boards/tb_st_rams.py
# after the core's list: the PCI interface, the capture unit and the card
# (without the simulation models those lists carry for the testbenches),
# then the board files (the pin and PLL wrappers are hx8k's own; the PLL,
# reset pin, timing I/O and LEDs are hx8k_board_common, shared with hx8k)
BOARD_SRCS     = $(filter-out sim/%,$(HDL_PCI_SRCS) $(HDL_CAPTURE_SRCS) $(HDL_CARD_SRCS)) \
                 hdl/boards/hx8k/ice40_pll.vhd \
                 hdl/boards/hx8k/ice40_pin_in.vhd \
                 hdl/boards/hx8k/ice40_pin_out.vhd \
                 hdl/boards/hx8k_board_common.vhd \
                 hdl/boards/hx8k-pci/ice40_pin_bidir.vhd \
                 hdl/boards/hx8k-pci/pci_pads.vhd \
                 hdl/boards/hx8k-pci/synpcix_hx8k_pci_top.vhd
