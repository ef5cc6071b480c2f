# SPDX-License-Identifier: GPL-2.0-or-later
# The card on a simulated PCI bus (sim/pcibus/): the card top
# (hdl/card/synpcix_card.vhd) through GHDL -> hdl/boards/ghdl_verilog.sh ->
# Verilator, with C models of the host bridge, arbiter, an e1000-like NIC
# and a protocol checker on every PCI clock; the `pcibus` test suite.
#
#   VHDL (clock core, pci_interface, capture unit, card top) --ghdl -a--> build/pcibus/work
#     --ghdl_verilog.sh--> build/pcibus/synpcix_card.v
#     --verilator --cc--> build/pcibus/obj/Vsynpcix_card__ALL.a
#   + card_agent.cpp (the only C++) + C models --> build/pcibus/pcibus_tests

PCIBUS_DIR := $(BUILD)/pcibus
PCIBUS_OBJ := $(PCIBUS_DIR)/obj
PCIBUS_SRC := sim/pcibus

# the gateware only: the testbench models listed with the PCI and capture
# sources (sim/hdl/) are not part of the card
PCIBUS_HDL_SRCS := $(HDL_CORE_SRCS) $(filter-out sim/%,$(HDL_PCI_SRCS) $(HDL_CAPTURE_SRCS)) \
	$(HDL_CARD_SRCS)

VERILATOR ?= verilator
PCIBUS_VROOT := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)

# Same warning policy as mk/sim.mk: only GHDL's netlist-style warnings are
# waived, anything else (WIDTH above all) stops the build.
PCIBUS_VFLAGS := --cc --build -O3 --x-assign fast --x-initial fast --no-timing \
	--top-module synpcix_card -Wno-COMBDLY -Wno-INITIALDLY -Wno-CASEINCOMPLETE \
	-Wno-UNUSED -Wno-PINCONNECTEMPTY -Wno-MULTIDRIVEN \
	-MAKEFLAGS "OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2"

PCIBUS_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -I$(GEN) -I$(PCIBUS_SRC) -Idriver/core \
	-Idriver/os/user
PCIBUS_CXXFLAGS := -std=c++17 -O2 -g -Wall -Wextra -I$(GEN) -I$(PCIBUS_SRC) -I$(PCIBUS_OBJ) \
	-isystem $(PCIBUS_VROOT)/include -isystem $(PCIBUS_VROOT)/include/vltstd

PCIBUS_C_MODELS := pci_bus pci_checker pci_arbiter pci_monitor host_bridge enumerate nic_e1000 pci_rng \
	stamp_rig
# the driver model decodes and refines stamps with the driver core itself
# (driver/core/, user-space access layer), as the shipped driver does
PCIBUS_CORE := driver/core/synpcix_hw.c driver/core/synpcix_slot.c driver/os/user/synpcix_osdep.c
PCIBUS_OBJS := $(addprefix $(PCIBUS_DIR)/,$(addsuffix .o,$(PCIBUS_C_MODELS))) \
	$(addprefix $(PCIBUS_DIR)/core/,$(notdir $(PCIBUS_CORE:.c=.o)))
PCIBUS_VLIB := $(PCIBUS_OBJ)/Vsynpcix_card__ALL.a
PCIBUS_VRT  := $(PCIBUS_DIR)/verilated.o $(PCIBUS_DIR)/verilated_threads.o
PCIBUS_HDRS := $(wildcard $(PCIBUS_SRC)/*.h) $(REGS_H) $(wildcard driver/core/*.h driver/os/user/*.h)

.PHONY: pcibus test-pcibus demo-stamp stamp-rates
SUITES += pcibus

pcibus: $(PCIBUS_DIR)/pcibus_tests $(PCIBUS_DIR)/stamp_demo

$(PCIBUS_DIR)/synpcix_card.v: $(PCIBUS_HDL_SRCS) hdl/boards/ghdl_verilog.sh hdl/boards/ghdl_verilog_fix.awk
	@rm -rf $(PCIBUS_DIR)/work && mkdir -p $(PCIBUS_DIR)/work
	ghdl -a --std=08 --workdir=$(PCIBUS_DIR)/work $(PCIBUS_HDL_SRCS)
	sh hdl/boards/ghdl_verilog.sh $@ $(PCIBUS_DIR)/work synpcix_card

$(PCIBUS_VLIB): $(PCIBUS_DIR)/synpcix_card.v
	@rm -rf $(PCIBUS_OBJ)
	$(VERILATOR) $(PCIBUS_VFLAGS) --Mdir $(PCIBUS_OBJ) $^ >$(PCIBUS_DIR)/verilator.log 2>&1 || \
		{ tail -n 40 $(PCIBUS_DIR)/verilator.log; exit 1; }

$(PCIBUS_DIR)/card_agent.o: $(PCIBUS_SRC)/card_agent.cpp $(PCIBUS_HDRS) $(PCIBUS_VLIB)
	$(CXX) $(PCIBUS_CXXFLAGS) -c $< -o $@

$(PCIBUS_VRT): $(PCIBUS_DIR)/%.o: $(PCIBUS_VROOT)/include/%.cpp $(PCIBUS_VLIB)
	$(CXX) $(PCIBUS_CXXFLAGS) -w -c $< -o $@

$(PCIBUS_DIR)/%.o: $(PCIBUS_SRC)/%.c $(PCIBUS_HDRS)
	@mkdir -p $(PCIBUS_DIR)
	$(CC) $(PCIBUS_CFLAGS) -c $< -o $@

$(PCIBUS_DIR)/core/%.o: driver/core/%.c $(PCIBUS_HDRS)
	@mkdir -p $(PCIBUS_DIR)/core
	$(CC) $(PCIBUS_CFLAGS) -std=gnu11 -c $< -o $@

$(PCIBUS_DIR)/core/%.o: driver/os/user/%.c $(PCIBUS_HDRS)
	@mkdir -p $(PCIBUS_DIR)/core
	$(CC) $(PCIBUS_CFLAGS) -std=gnu11 -c $< -o $@

$(PCIBUS_DIR)/pcibus_tests.o: tests/pcibus/pcibus_tests.c $(PCIBUS_HDRS)
	@mkdir -p $(PCIBUS_DIR)
	$(CC) $(PCIBUS_CFLAGS) -c $< -o $@

$(PCIBUS_DIR)/pcibus_tests: $(PCIBUS_DIR)/pcibus_tests.o $(PCIBUS_OBJS) \
		$(PCIBUS_DIR)/card_agent.o $(PCIBUS_VLIB) $(PCIBUS_VRT)
	$(CXX) -o $@ $^ -lm -pthread

$(PCIBUS_DIR)/stamp_demo.o: $(PCIBUS_SRC)/stamp_demo.c $(PCIBUS_HDRS)
	@mkdir -p $(PCIBUS_DIR)
	$(CC) $(PCIBUS_CFLAGS) -c $< -o $@

$(PCIBUS_DIR)/stamp_demo: $(PCIBUS_DIR)/stamp_demo.o $(PCIBUS_OBJS) \
		$(PCIBUS_DIR)/card_agent.o $(PCIBUS_VLIB) $(PCIBUS_VRT)
	$(CXX) -o $@ $^ -lm -pthread

# the suite also runs a short stamping demo and reads its files with tsstat
test-pcibus: $(PCIBUS_DIR)/pcibus_tests $(PCIBUS_DIR)/stamp_demo $(BUILD)/tools/tsstat
	@BUILD=$(BUILD) sh tests/pcibus/run.sh

# The stamping co-simulation of `make demo` (docs/stamping-results.md):
# 100 kpps and GbE line rate at PCI 66 and 33 MHz, nanosecond pcapng files
# of card stamps, interrupt-time software stamps and truth in
# build/demo/stamp/, the thesis table of each by tsstat. Each PCI clock's
# ingress latency is calibrated first in separate 20 kpps runs (64- and
# 1518-byte frames) and handed to its scored runs (the driver's stamp
# refinement). Sizes through the environment: DEMO_PKTS_100K (5000),
# DEMO_PKTS_1488K (20000), DEMO_PKTS_CAL (600 per frame length).
DEMO_PKTS_100K ?= 5000
DEMO_PKTS_1488K ?= 20000
DEMO_PKTS_CAL ?= 600
demo-stamp: $(PCIBUS_DIR)/stamp_demo $(BUILD)/tools/tsstat
	@sh sim/pcibus/stamp_demo.sh $(PCIBUS_DIR)/stamp_demo $(BUILD)/tools/tsstat \
		$(BUILD)/demo/stamp $(DEMO_PKTS_100K) $(DEMO_PKTS_1488K) $(DEMO_PKTS_CAL)

# The highest packet rate stamped without loss at PCI 66 and 33 MHz
# (bisection, STAMP_RATE_PKTS frames per trial, default 4000).
STAMP_RATE_PKTS ?= 4000
stamp-rates: $(PCIBUS_DIR)/stamp_demo
	@for m in 66 33; do \
		$(PCIBUS_DIR)/stamp_demo --max-rate --mhz $$m --pkts $(STAMP_RATE_PKTS) || exit 1; \
	done

# The measured stamping figures (docs/stamping-results.md): the four
# stamping tests of the suite, their result lines only. Sizes through the
# environment: STAMP_PKTS_100K (3000), STAMP_PKTS_1488K (6000),
# STAMP_TX_NS (mean gap of TX-style doorbells at 100 kpps, 25000; 0: none),
# STAMP_OVERLOAD_DOORBELLS (1200), STAMP_SETTLE (msi_slots.settle; unset: reset).
.PHONY: stamp-bench
stamp-bench: $(PCIBUS_DIR)/pcibus_tests
	@for t in stamp_100k stamp_100k_rx_only stamp_1488k stamp_overload; do \
		$(PCIBUS_DIR)/pcibus_tests $$t >$(PCIBUS_DIR)/$$t.log 2>&1; rc=$$?; \
		grep -E '^\[|^overload|^card time|^FAIL|: PASS|: FAIL|^pci_checker' $(PCIBUS_DIR)/$$t.log; \
		[ $$rc = 0 ] || fail=1; \
	done; exit $${fail:-0}
