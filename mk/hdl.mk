# SPDX-License-Identifier: GPL-2.0-or-later
# Gateware sources (compile order) and the GHDL unit-test suite.

HDL_CORE_SRCS := \
	$(REGS_VHD) \
	hdl/core/sync_bit.vhd \
	hdl/core/cdc_handshake.vhd \
	hdl/core/clock_msg_pkg.vhd \
	hdl/core/timebase.vhd \
	hdl/core/edge_capture.vhd \
	hdl/core/event_fifo.vhd \
	hdl/core/perout_gen.vhd \
	hdl/core/pps_servo.vhd \
	hdl/core/clock_regs.vhd \
	hdl/core/clock_tb_domain.vhd \
	hdl/core/clock_core.vhd

# extra sources the testbenches need (not part of clock_core)
HDL_EXTRA_SRCS := $(wildcard hdl/core/spi_reg_port.vhd)

.PHONY: test-hdl
SUITES += hdl
test-hdl: $(REGS_VHD)
	@sh tests/hdl/run.sh $(HDL_CORE_SRCS) $(HDL_EXTRA_SRCS)
