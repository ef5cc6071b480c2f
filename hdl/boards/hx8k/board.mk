# SPDX-License-Identifier: GPL-2.0-or-later
# iCE40 HX8K (ct256) board: what mk/bitstream.mk needs to know about it.
BOARD_DEVICE   := iCE40HX8K-CT256
BOARD_TOP      := synpcix_hx8k_top
BOARD_PCF      := hdl/boards/hx8k/synpcix_hx8k.pcf
NEXTPNR_ARCH   := --hx8k --package ct256
# Placement seed (mk/bitstream.mk's default is 2): session 14's gateware
# (ff1d38b) gave tb_clk 128.82 / 117.37 / 125.31 MHz at seeds 1 / 2 / 3
# (bus_clk 77.39 / 79.33 / 79.68); tb_clk's margin on this board is a
# placement lottery of +-7 MHz (docs/bitstream.md "Status"), so a gateware
# change needs a new sweep (make test-card NEXTPNR_SEED=n).
NEXTPNR_SEED   ?= 1
# board sources after the core's (they instantiate clock_core)
BOARD_SRCS     := hdl/boards/hx8k/ice40_pll.vhd \
                  hdl/boards/hx8k/ice40_pin_in.vhd \
                  hdl/boards/hx8k/ice40_pin_out.vhd \
                  hdl/boards/hx8k_board_common.vhd \
                  hdl/boards/hx8k/synpcix_hx8k_top.vhd
