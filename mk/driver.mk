# SPDX-License-Identifier: GPL-2.0-only
# Driver core (driver/core/) unit tests in user space.
.PHONY: test-driver
SUITES += driver

test-driver: $(REGS_H)
	@BUILD=$(BUILD) sh tests/driver/run.sh

# Co-simulation of the driver core against the Verilator card model
# (sim/verilator/, built by mk/sim.mk): exists when the card model does.
ifneq ($(SIM_VLIBS),)
COSIM_DIR := $(BUILD)/cosim
COSIM_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Idriver/core \
	-Idriver/os/user -I$(GEN) -I$(SIM_SRC)
COSIM_CORE := driver/core/synpcix_hw.c driver/core/synpcix_slot.c driver/os/user/synpcix_osdep.c \
	tests/driver/cosim.c tests/driver/cosim_slot.c
COSIM_HDRS := $(wildcard driver/core/*.h driver/os/user/*.h) tests/driver/cosim.h $(SIM_HDRS)

.PHONY: test-cosim cosim-figures
SUITES += cosim

$(COSIM_DIR)/%.o: driver/core/%.c $(COSIM_HDRS)
	@mkdir -p $(COSIM_DIR)
	$(CC) $(COSIM_CFLAGS) -c $< -o $@
$(COSIM_DIR)/%.o: driver/os/user/%.c $(COSIM_HDRS)
	@mkdir -p $(COSIM_DIR)
	$(CC) $(COSIM_CFLAGS) -c $< -o $@
$(COSIM_DIR)/%.o: tests/driver/%.c $(COSIM_HDRS)
	@mkdir -p $(COSIM_DIR)
	$(CC) $(COSIM_CFLAGS) -c $< -o $@

$(COSIM_DIR)/cosim: $(COSIM_DIR)/cosim.o $(COSIM_DIR)/cosim_slot.o $(COSIM_DIR)/synpcix_hw.o $(COSIM_DIR)/synpcix_slot.o \
		$(COSIM_DIR)/synpcix_osdep.o $(SIM_MODEL_OBJS) $(SIM_VLIBS) $(SIM_VRT)
	$(CXX) -o $@ $^ -lm -pthread

test-cosim:
	@BUILD=$(BUILD) sh tests/driver/cosim.sh

# Driver stamp path cost (BRIEF section 5): callgrind's instructions per
# packet of the per-descriptor stamp path (docs/driver.md has the figures).
.PHONY: stamp-path-cost
$(COSIM_DIR)/stamp_cost: $(COSIM_DIR)/stamp_cost.o $(COSIM_DIR)/synpcix_hw.o \
		$(COSIM_DIR)/synpcix_slot.o $(COSIM_DIR)/synpcix_osdep.o
	$(CC) -o $@ $^

stamp-path-cost: $(COSIM_DIR)/stamp_cost
	@BUILD=$(BUILD) sh tests/driver/stamp_cost.sh $(COSIM_DIR)/stamp_cost

# The figures the driver issue asks for: PHC read cost, read jitter,
# adjfine accuracy (co-simulated against the gateware).
cosim-figures: $(COSIM_DIR)/cosim
	@$(COSIM_DIR)/cosim | sed -n 's/^# //p'
endif
