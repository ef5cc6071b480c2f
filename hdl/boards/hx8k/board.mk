# SPDX-License-Identifier: GPL-2.0-or-later
# iCE40 HX8K (ct256) board: what mk/bitstream.mk needs to know about it.
BOARD_DEVICE   := iCE40HX8K-CT256
BOARD_TOP      := synpcix_hx8k_top
BOARD_PCF      := hdl/boards/hx8k/synpcix_hx8k.pcf
NEXTPNR_ARCH   := --hx8k --package ct256
# Placement seed (mk/bitstream.mk's default is 2): session 14's gateware
# (ff1d38b) gave tb_clk 128.82 / 117.37 / 125.31 MHz at seeds 1 / 2 / 3
# (bus_clk 77.39 / 79.33 / 79.68), so seed 1 until session 17, whose
# packing (carry_ff_fill.py's feed-ins and pass-outs) gave 124.01 /
# 130.33 / 112.57 (bus_clk 82.13 / 79.70 / 79.70): seed 2 again. Session
# 18 (compare chains no longer split by over-full tiles, host step):
# 123.70 / 135.32 / 133.51 (bus_clk 79.52 / 77.39 / 68.70), seed 2 kept.
# tb_clk's margin on this board is still a placement lottery of several
# MHz (docs/bitstream.md "Status"), so a gateware or flow change needs a
# new sweep (make test-card NEXTPNR_SEED=n).
NEXTPNR_SEED   ?= 2
# the staged-word block RAMs at fixed sites by the timebase chains they
# feed, as on hx8k-pci (session 22: 123.21 MHz at seed 2 without, the
# RAM's route into timebase chunk 4's chain the worst path)
NEXTPNR_PLACE  := --pre-place hdl/boards/tb_st_rams.py
# board sources after the core's (they instantiate clock_core)
BOARD_SRCS     := hdl/boards/hx8k/ice40_pll.vhd \
                  hdl/boards/hx8k/ice40_pin_in.vhd \
                  hdl/boards/hx8k/ice40_pin_out.vhd \
                  hdl/boards/hx8k_board_common.vhd \
                  hdl/boards/hx8k/synpcix_hx8k_top.vhd
