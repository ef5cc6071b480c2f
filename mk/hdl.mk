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
	@BUILD=$(BUILD) sh tests/hdl/run.sh $(HDL_CORE_SRCS) $(HDL_EXTRA_SRCS) $(HDL_PCI_SRCS) \
		$(HDL_CAPTURE_SRCS) $(HDL_CARD_SRCS)

# The card without its board (pci_target + clock_core + later the capture
# unit), last: it instantiates all of the above. mk/pcibus.mk verilates it.
HDL_CARD_SRCS := hdl/card/card_core.vhd hdl/card/synpcix_card.vhd

# MSI capture slots, stamping engine, card interrupts and the DMA arbiter
# (issue 3; docs/card-internals.md), in compile order
HDL_CAPTURE_SRCS := \
	hdl/core/msi_capture.vhd \
	hdl/core/card_irq.vhd \
	hdl/core/card_dma_arbiter.vhd \
	hdl/core/event_dma.vhd \
	hdl/core/stamp_slot_ram.vhd \
	hdl/core/stamp_engine.vhd \
	hdl/core/capture_regs.vhd \
	hdl/core/capture_unit.vhd \
	sim/hdl/model_host_mem_pkg.vhd \
	sim/hdl/model_dma_host.vhd

# PCI target and initiator (hdl/pci, issue 3; not in the board top yet),
# the protocol checker and the behavioural memory target their testbenches
# use. The ID package is generated from the driver's
# header, the one place the PCI IDs are written.
PCI_IDS_H    := driver/core/synpcix_pci_ids.h
PCI_IDS_VHD  := $(GEN)/synpcix_pci_ids_pkg.vhd
HDL_PCI_SRCS := \
	$(PCI_IDS_VHD) \
	hdl/pci/pci_target.vhd \
	hdl/pci/pci_initiator.vhd \
	hdl/pci/pci_msi_raise.vhd \
	hdl/pci/pci_interface.vhd \
	sim/hdl/pci_checker.vhd \
	sim/hdl/pci_mem_target.vhd

$(PCI_IDS_VHD): $(PCI_IDS_H) hdl/pci/gen_pci_ids.py
	@mkdir -p $(GEN)
	$(PYTHON) hdl/pci/gen_pci_ids.py $(PCI_IDS_H) $@

test-hdl: $(PCI_IDS_VHD)

# Area and timing of the capture unit alone (docs/stamping.md, "Area"):
# logic cells, RAMs, Fmax at 66 MHz bus_clk / 125 MHz tb_clk. BLOCKS=1 adds
# per-block figures.
.PHONY: capture-fit
capture-fit: $(REGS_VHD)
	@sh hdl/core/fit/measure.sh $(REGS_VHD) $(BUILD)/capture-fit
