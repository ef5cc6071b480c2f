# SPDX-License-Identifier: GPL-2.0-or-later
# iCE40 HX8K (ct256) board: what mk/bitstream.mk needs to know about it.
BOARD_DEVICE   := iCE40HX8K-CT256
BOARD_TOP      := synpcix_hx8k_top
BOARD_PCF      := hdl/boards/hx8k/synpcix_hx8k.pcf
NEXTPNR_ARCH   := --hx8k --package ct256
# board sources after the core's (they instantiate clock_core)
BOARD_SRCS     := hdl/boards/hx8k/ice40_pll.vhd \
                  hdl/boards/hx8k/ice40_pin_in.vhd \
                  hdl/boards/hx8k/ice40_pin_out.vhd \
                  hdl/boards/hx8k_board_common.vhd \
                  hdl/boards/hx8k/synpcix_hx8k_top.vhd
