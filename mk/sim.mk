# SPDX-License-Identifier: GPL-2.0-or-later
# Verilator model of the card without its PCI interface (clock core +
# capture unit) and its world models (sim/verilator/), the `sim` test
# suite and the PPS-lock demo.
#
#   VHDL (HDL_CORE_SRCS + the capture unit, mk/hdl.mk, + the wiring
#     hdl/card/card_core.vhd) --ghdl -a--> build/sim/work
#     --hdl/boards/ghdl_verilog.sh (GHDL synth + repairs, shared with the
#       bitstream flow)--> build/sim/card_core.v
#     + sim/verilator/card_top.v (master, doorbell, DMA
#       responder and reset flops)
#     --verilator --cc --build -O3--> build/sim/obj/Vcard_top__ALL.a
#   + card_sim.cpp (C++ glue) + world models in C --> build/sim/servo_demo,
#     build/sim/sim_tests

# The gateware to model (override to try a changed source without editing
# hdl/, e.g. to check a fix: make test-sim SIM_HDL_SRCS="...").
SIM_HDL_SRCS ?= $(HDL_CORE_SRCS) $(filter hdl/%,$(HDL_CAPTURE_SRCS)) \
	hdl/card/card_core.vhd

SIM_DIR    ?= $(BUILD)/sim
SIM_OBJ    := $(SIM_DIR)/obj
SIM_SRC    := sim/verilator
VERILATOR  ?= verilator
VERILATOR_ROOT_DIR := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)

# Warnings GHDL's netlist style always produces (non-blocking assignments in
# combinational and initial blocks, cases without default over all values,
# unused and unconnected nets); every other warning (WIDTH above all) stops
# the build.
SIM_VFLAGS := --cc --build -O3 --x-assign fast --x-initial fast --no-timing \
	--top-module card_top -Wno-COMBDLY -Wno-INITIALDLY -Wno-CASEINCOMPLETE \
	-Wno-UNUSED -Wno-PINCONNECTEMPTY -Wno-MULTIDRIVEN \
	-MAKEFLAGS "OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2"

SIM_CFLAGS   := -std=c11 -O2 -g -Wall -Wextra -Werror -I$(GEN) -I$(SIM_SRC)
SIM_CXXFLAGS := -std=c++17 -O2 -g -Wall -Wextra -I$(GEN) -I$(SIM_SRC) -I$(SIM_OBJ) \
	-isystem $(VERILATOR_ROOT_DIR)/include -isystem $(VERILATOR_ROOT_DIR)/include/vltstd

SIM_C_MODELS := sim_rng osc_model gps_model world
SIM_MODEL_OBJS := $(addprefix $(SIM_DIR)/,$(addsuffix .o,$(SIM_C_MODELS))) $(SIM_DIR)/card_sim.o
SIM_VLIBS := $(SIM_OBJ)/Vcard_top__ALL.a
# Verilator's runtime, built here (verilator --build makes it only for --exe)
SIM_VRT := $(SIM_DIR)/verilated.o $(SIM_DIR)/verilated_threads.o
SIM_HDRS := $(wildcard $(SIM_SRC)/*.h) $(REGS_H)

.PHONY: sim test-sim demo-servo
SUITES += sim

sim: $(SIM_DIR)/servo_demo $(SIM_DIR)/sim_tests

$(SIM_DIR)/card_core.v: $(SIM_HDL_SRCS) hdl/boards/ghdl_verilog.sh hdl/boards/ghdl_verilog_fix.awk
	@rm -rf $(SIM_DIR)/work && mkdir -p $(SIM_DIR)/work
	ghdl -a --std=08 --workdir=$(SIM_DIR)/work $(SIM_HDL_SRCS)
	sh hdl/boards/ghdl_verilog.sh $@ $(SIM_DIR)/work card_core

$(SIM_VLIBS): $(SIM_SRC)/card_top.v $(SIM_DIR)/card_core.v
	@rm -rf $(SIM_OBJ)
	$(VERILATOR) $(SIM_VFLAGS) --Mdir $(SIM_OBJ) $^ >$(SIM_DIR)/verilator.log 2>&1 || \
		{ tail -n 40 $(SIM_DIR)/verilator.log; exit 1; }

$(SIM_DIR)/card_sim.o: $(SIM_SRC)/card_sim.cpp $(SIM_HDRS) $(SIM_VLIBS)
	$(CXX) $(SIM_CXXFLAGS) -c $< -o $@

$(SIM_VRT): $(SIM_DIR)/%.o: $(VERILATOR_ROOT_DIR)/include/%.cpp $(SIM_VLIBS)
	$(CXX) $(SIM_CXXFLAGS) -w -c $< -o $@

$(SIM_DIR)/%.o: $(SIM_SRC)/%.c $(SIM_HDRS)
	@mkdir -p $(SIM_DIR)
	$(CC) $(SIM_CFLAGS) -c $< -o $@

$(SIM_DIR)/servo_demo.o: $(SIM_SRC)/servo_demo.c $(SIM_HDRS)
	@mkdir -p $(SIM_DIR)
	$(CC) $(SIM_CFLAGS) -c $< -o $@

$(SIM_DIR)/sim_tests.o: tests/sim/sim_tests.c $(SIM_HDRS)
	@mkdir -p $(SIM_DIR)
	$(CC) $(SIM_CFLAGS) -c $< -o $@

$(SIM_DIR)/servo_demo $(SIM_DIR)/sim_tests: %: %.o $(SIM_MODEL_OBJS) $(SIM_VLIBS) $(SIM_VRT)
	$(CXX) -o $@ $^ -lm -pthread

test-sim: $(SIM_DIR)/sim_tests
	@BUILD=$(BUILD) sh tests/sim/run.sh

# The PPS-lock scenario; writes build/demo/servo.json. `make demo` runs it
# and then the stamping co-simulation (demo-stamp, mk/pcibus.mk).
demo-servo: $(SIM_DIR)/servo_demo
	@mkdir -p $(BUILD)/demo
	$(SIM_DIR)/servo_demo --json $(BUILD)/demo/servo.json

demo: deps
	@$(MAKE) --no-print-directory demo-servo
	@echo "servo demo: $(BUILD)/demo/servo.json"
	@$(MAKE) --no-print-directory demo-stamp
