# SPDX-License-Identifier: GPL-2.0-or-later
# Bitstream for the card's FPGA with the open flow (docs/bitstream.md):
#   VHDL --ghdl --synth--> Verilog --fix (stubs, strings)--> Yosys synth_ice40
#   --> nextpnr-ice40 (per-clock targets from the board .pcf) --> report.json
#   (fails when a clock misses its target) --> icepack.
# Everything lands in build/bitstream-<board>/ (build/bitstream/ for hx8k).
# `make flash` writes the result to the card's SPI flash.

# BOARD: a directory of hdl/boards/ with a board.mk. hx8k-pci, the whole card
# on the PCI edge, is the default since it fits the HX8K within the 70 % bar
# (session 22); hx8k is the clock core with the SPI debug port
# (docs/bitstream.md). Each board builds into its own directory, so
# switching boards rebuilds nothing of the other.
BOARD        ?= hx8k-pci
ifeq ($(wildcard hdl/boards/$(BOARD)/board.mk),)
$(error BOARD=$(BOARD): no hdl/boards/$(BOARD)/board.mk (boards: $(notdir $(patsubst %/board.mk,%,$(wildcard hdl/boards/*/board.mk)))))
endif
include hdl/boards/$(BOARD)/board.mk

BS_DIR       := $(BUILD)/bitstream$(if $(filter-out hx8k,$(BOARD)),-$(BOARD))
BS_NAME      := synpcix_$(BOARD)
BS_BIN       := $(BS_DIR)/$(BS_NAME).bin
BS_REPORT    := $(BS_DIR)/report.json
# Placement seed. From the sweep of the gateware at dc35416 (session 4,
# timebase domain pipeline cuts; nextpnr 0.4): tb_clk 129.45 MHz at seed
# 1, 129.50 at seed 2; bus_clk 80.5 / 72.9. The result still moves with
# any change of the netlist (docs/bitstream.md "Session 4: timebase
# domain" lists every netlist and seed measured): a gateware change needs
# a new check (make test-card NEXTPNR_SEED=n). A board.mk may set its own
# (hx8k: 1 since session 14).
NEXTPNR_SEED ?= 2
# Yosys: hdl/boards/yosys_ice40.sh runs synth_ice40 -abc2 (session 9: a
# second ABC pass) with the last LUT mapping's ABC script from
# hdl/boards/ice40_luts.abc (session 13: area recovery, docs/bitstream.md),
# for the bitstream and for block-fit alike (so the budget counts what is
# built). YOSYS_SYNTH: extra synth_ice40 options; YOSYS_ABC_LUT= (empty):
# Yosys' own script, i.e. plain synth_ice40 -abc2.
# -dffe_min_ce_use 3 (session 16): a clock enable or synchronous reset
# shared by fewer than 3 flip-flops goes into the flip-flop's LUT, where
# ABC can merge it with the data logic and nextpnr can pack the pair
# (docs/bitstream.md "Session 16: small enables into LUTs"). YOSYS_SYNTH=
# (empty) builds without it.
YOSYS_SYNTH ?= -dffe_min_ce_use 3
export YOSYS_SYNTH
# nextpnr: hdl/boards/carry_ff_fill.py before packing (session 14) puts
# flip-flops that would take a logic cell alone into the cells nextpnr
# makes for carries alone (docs/bitstream.md "Session 14: lone flip-flops
# into carry cells"), for the bitstream and block-fit alike.
# NEXTPNR_PACK= (empty): nextpnr's own packing.
NEXTPNR_PACK ?= --pre-pack hdl/boards/carry_ff_fill.py
export NEXTPNR_PACK
# The clock nets whose carry chains carry_ff_fill.py gives no feed-in host
# (its header, "host step"; session 18): tb_clk, the 125 MHz timebase, on
# both boards and in block-fit's synpcix_card, by any of the net's names as
# the pcf's set_frequency resolves it (the boards' net is common_tb_clk,
# tb_clk an alias). A name no flip-flop is clocked by fails the packing.
# Empty: hosts on every clock.
CARRY_FILL_FAST_CLOCKS ?= tb_clk
export CARRY_FILL_FAST_CLOCKS
ifdef YOSYS_ABC_LUT
export YOSYS_ABC_LUT
endif

# Sources in analysis order: the core's list (mk/hdl.mk, generated register
# package first), the SPI debug port unless the core list has it already,
# then the board files. Paths made absolute so duplicates compare equal.
BS_CORE_SRCS  = $(abspath $(HDL_CORE_SRCS))
BS_SRCS       = $(BS_CORE_SRCS) \
                $(filter-out $(BS_CORE_SRCS),$(abspath hdl/core/sync_bit.vhd hdl/core/spi_reg_port.vhd)) \
                $(abspath $(BOARD_SRCS))
BS_TOOLS     := hdl/boards/ghdl_verilog.sh hdl/boards/ghdl_verilog_fix.awk hdl/boards/ice40_report.py \
                hdl/boards/$(BOARD)/board.mk mk/bitstream.mk

.PHONY: bitstream flash test-bitstream card-utilisation test-card
SUITES += bitstream

bitstream: $(BS_BIN)

# The BUILD register names the gateware, not the commit: the first 8 hex
# digits of a SHA-1 over the bitstream's own sources and the register
# description (the generated package is made from it). A constant in the
# netlist moves nextpnr's placement, and tb_clk's margin is thin (seed
# sweeps in docs/bitstream.md), so a commit that does not touch the
# gateware must build the identical bitstream. The stamp file changes only
# when the hash does.
BS_ID_SRCS = $(filter-out %/synpcix_regs_pkg.vhd,$(BS_SRCS)) $(abspath hdl/regmap/synpcix.toml)
# A stamp file: the recipe line $(call write_stamp,WORDS) writes WORDS into
# $@ only when they differ from what it holds, so targets that depend on
# it are remade when WORDS change and not otherwise (used with FORCE).
write_stamp = mkdir -p $(@D) && [ "$$(cat $@ 2>/dev/null)" = "$(1)" ] || echo "$(1)" >$@
$(BS_DIR)/build_id: FORCE
	@id=$$(cat $(BS_ID_SRCS) | sha1sum | cut -c1-8); $(call write_stamp,$$id)

# 1. VHDL -> Verilog (hdl/boards/ghdl_verilog.sh works around GHDL 2.0's
# Verilog writer). GHDL's warnings about unbound vendor components are
# expected (they become Yosys cells); the log keeps them.
$(BS_DIR)/$(BS_NAME).v: $(BS_SRCS) $(BS_DIR)/build_id $(BS_TOOLS)
	@if [ -z "$(strip $(HDL_CORE_SRCS))" ]; then \
	   echo "bitstream: HDL_CORE_SRCS is empty: mk/hdl.mk (the clock core's source list) is missing" >&2; exit 1; fi
	@echo "  GHDL    $(BOARD_TOP) (BUILD_ID $$(cat $(BS_DIR)/build_id))"
	@rm -rf $(BS_DIR)/work && mkdir -p $(BS_DIR)/work
	@ghdl -a --std=08 --workdir=$(BS_DIR)/work $(BS_SRCS) >$(BS_DIR)/ghdl-analyse.log 2>&1 || \
	   { cat $(BS_DIR)/ghdl-analyse.log >&2; echo "bitstream: GHDL analysis failed" >&2; exit 1; }
	@sh hdl/boards/ghdl_verilog.sh $@ $(BS_DIR)/work $(BOARD_TOP) \
	   -gBUILD_ID=x\"$$(cat $(BS_DIR)/build_id)\"

# 2. Yosys: map to iCE40 cells. Its options in a stamp file, as nextpnr's
# below: a netlist mapped with other synth_ice40 options or another ABC
# script is not reused.
$(BS_DIR)/yosys-opts: FORCE
	@$(call write_stamp,$(YOSYS_SYNTH) abc=$(if $(filter undefined,$(origin YOSYS_ABC_LUT)),default,$(YOSYS_ABC_LUT)))

$(BS_DIR)/$(BS_NAME).json: $(BS_DIR)/$(BS_NAME).v hdl/boards/yosys_ice40.sh hdl/boards/ice40_luts.abc \
                           $(BS_DIR)/yosys-opts
	@echo "  YOSYS   synth_ice40"
	@sh hdl/boards/yosys_ice40.sh $< $(BOARD_TOP) $(BS_DIR)/yosys.log $@.tmp -- $(YOSYS_SYNTH) || \
	   { tail -20 $(BS_DIR)/yosys.log >&2; echo "bitstream: Yosys failed (log: $(BS_DIR)/yosys.log)" >&2; exit 1; }
	@mv $@.tmp $@

# 3. Place and route. --timing-allow-fail: nextpnr finishes and reports,
# and ice40_report.py decides (with the critical paths in its message).
# A design too big for the device is said in those words.
# The placer's options, in a stamp file that changes only when they do: a
# placement made with another seed or pre-place script is not reused
# (`make bitstream NEXTPNR_SEED=3` after a seed-2 build used to report the
# seed-2 placement again).
$(BS_DIR)/nextpnr-opts: FORCE
	@$(call write_stamp,--seed $(NEXTPNR_SEED) $(NEXTPNR_PACK) $(NEXTPNR_PLACE) fast=$(CARRY_FILL_FAST_CLOCKS))

$(BS_DIR)/$(BS_NAME).asc: $(BS_DIR)/$(BS_NAME).json $(BOARD_PCF) $(BS_DIR)/nextpnr-opts \
                          $(filter %.py,$(NEXTPNR_PACK) $(NEXTPNR_PLACE))
	@echo "  NEXTPNR $(NEXTPNR_ARCH) (seed $(NEXTPNR_SEED))"
	@rm -f $(BS_REPORT) $(BS_BIN) $(BS_DIR)/nextpnr-report.json
	@nextpnr-ice40 $(NEXTPNR_ARCH) --json $< --pcf $(BOARD_PCF) --asc $@.tmp \
	   $(NEXTPNR_PACK) $(NEXTPNR_PLACE) --seed $(NEXTPNR_SEED) --timing-allow-fail --report $(BS_DIR)/nextpnr-report.json \
	   --log $(BS_DIR)/nextpnr.log -q || { \
	   set -- $$(sed -n 's|.*ICESTORM_LC: *\([0-9]*\)/ *\([0-9]*\).*|\1 \2|p' $(BS_DIR)/nextpnr.log | head -n 1); \
	   if [ $$# -eq 2 ] && [ "$$1" -gt "$$2" ]; then \
	     echo "bitstream: the design needs $$1 logic cells, $(BOARD_DEVICE) has $$2: it does not fit" >&2; \
	   else grep -E '^ERROR' $(BS_DIR)/nextpnr.log >&2; fi; \
	   echo "bitstream: nextpnr failed (log: $(BS_DIR)/nextpnr.log)" >&2; exit 1; }
	@mv $@.tmp $@

# 4. report.json, then the bitstream only if every clock met its target.
# The .bin is not written on failure, so the next make checks again.
$(BS_BIN): $(BS_DIR)/$(BS_NAME).asc
	@$(PYTHON) hdl/boards/ice40_report.py --nextpnr-report $(BS_DIR)/nextpnr-report.json \
	   --netlist $(BS_DIR)/$(BS_NAME).json --pcf $(BOARD_PCF) --device $(BOARD_DEVICE) \
	   --out $(BS_REPORT) --paths $(BS_DIR)/critical_paths.txt
	@echo "  ICEPACK $(notdir $@)"
	@icepack $< $@.tmp && mv $@.tmp $@
	@echo "bitstream: $@ (report: $(BS_REPORT))"

# Packing only (no placement): how many logic cells the card needs, in
# seconds rather than the many minutes nextpnr's placer takes on a nearly
# full HX8K. Writes $(BS_DIR)/utilisation.json {"lc_used", "lc_total"};
# fails when the card does not even pack into the device. Packing is not
# placing: at 91 % nextpnr packed the card but could not place it; at
# 69.7 % it places (see docs/bitstream.md "Status").
card-utilisation: $(BS_DIR)/$(BS_NAME).json
	@nextpnr-ice40 $(NEXTPNR_ARCH) --json $< --pcf $(BOARD_PCF) --pack-only $(NEXTPNR_PACK) \
	   --log $(BS_DIR)/nextpnr-pack.log -q || true
	@set -- $$(sed -n 's|.*ICESTORM_LC: *\([0-9]*\)/ *\([0-9]*\).*|\1 \2|p' $(BS_DIR)/nextpnr-pack.log | head -n 1); \
	 [ $$# -eq 2 ] || { echo "card-utilisation: no utilisation in $(BS_DIR)/nextpnr-pack.log" >&2; exit 1; }; \
	 printf '{"device": "%s", "lc_used": %s, "lc_total": %s}\n' "$(BOARD_DEVICE)" $$1 $$2 >$(BS_DIR)/utilisation.json; \
	 if [ "$$1" -gt "$$2" ]; then \
	   echo "card-utilisation: the card needs $$1 logic cells, $(BOARD_DEVICE) has $$2 ($$(( $$1 * 100 / $$2 )) %): it does not fit (BOARD=$(BOARD))" >&2; exit 1; fi; \
	 echo "card-utilisation: packs into $$1 of $$2 logic cells ($$(( $$1 * 100 / $$2 )) %)"; \
	 [ "$$(( $$1 * 100 ))" -le "$$(( $$2 * 70 ))" ] || \
	   echo "card-utilisation: above the 70 % bar ($$(( $$2 * 70 / 100 )) cells): it may not place or meet timing"

# The card's full bars (every clock meets its target, <= 70 % of the logic
# cells): not part of `make test` while the card misses them (tb_clk is
# short of 125 MHz) -- see docs/bitstream.md "Status" for the numbers.
test-card:
	@CARD_FULL=1 BUILD=$(BUILD) sh tests/bitstream/run.sh

flash: $(BS_BIN)
	@sh hdl/boards/ice40_flash.sh $(BS_BIN)

test-bitstream:
	@BUILD=$(BUILD) sh tests/bitstream/run.sh

.PHONY: FORCE
FORCE:

# Logic cells of one block, or of the whole card, packed for the HX8K
# (hdl/boards/block_fit.sh; no placement, so no Fmax): e.g.
#   make block-fit BLOCK=pps_servo
#   make block-fit BLOCK=synpcix_card        (the whole card, PCI included)
#   make block-fit BLOCK=capture_unit GENERICS="-gN_SLOTS=4"
BLOCK ?= synpcix_card
.PHONY: block-fit
block-fit: $(REGS_VHD) $(PCI_IDS_VHD)
	@sh hdl/boards/block_fit.sh $(BUILD)/block-fit/$(BLOCK) $(BLOCK) \
		$(HDL_CORE_SRCS) $(HDL_PCI_SRCS) $(HDL_CAPTURE_SRCS) $(HDL_CARD_SRCS) -- $(GENERICS)

# PCI pin timing at 66 MHz (docs/bitstream.md "Session 6: PCI pins"):
# pci_interface behind the PCI board's pads, placed on its balls; fails when
# a pin or the fabric misses PCI 2.3's 66 MHz bounds. About a minute.
#   make pci-io-fit [PCI_IO_SEED=n] [PCI_IO_REGS=false] [PCI_IO_CHECK=outputs|inputs]
#                   [PCI_IO_PREPLACE=false]  (the input flip-flops left to the placer)
# Seed 5 since session 21 (the fit now synthesised as the card is, by
# hdl/boards/yosys_ice40.sh): at seeds 1 / 2 / 3 / 4 / 5 / 6 every input and
# output met at 3 and 5 only (1, 2, 4, 6 missed an AD or GNT# Tsu by
# 0.01 - 0.12 ns; fabric 75 - 83 MHz at all six). Seed 1 was the default
# until then.
PCI_IO_SEED ?= 5
PCI_IO_REGS ?= true
PCI_IO_CHECK ?= all
PCI_IO_PREPLACE ?= true
PCI_IO_DIR ?= $(BUILD)/pci-io-fit
.PHONY: pci-io-fit
pci-io-fit: $(REGS_VHD) $(PCI_IDS_VHD)
	@sh hdl/pci/fit/pci_io_fit.sh $(PCI_IO_DIR) $(REGS_VHD) $(PCI_IDS_VHD) $(PCI_IO_SEED) $(PCI_IO_REGS) $(PCI_IO_CHECK) $(PCI_IO_PREPLACE)
