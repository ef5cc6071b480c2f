# SPDX-License-Identifier: GPL-2.0-or-later
# Register map: one description -> VHDL package, C header, docs/registers.md.

REGMAP_SRC := hdl/regmap/synpcix.toml
REGMAP_GEN := hdl/regmap/gen_regmap.py
REGS_VHD   := $(GEN)/synpcix_regs_pkg.vhd
REGS_H     := $(GEN)/synpcix_regs.h

.PHONY: regmap test-regmap
SUITES += regmap

$(REGS_VHD) $(REGS_H) &: $(REGMAP_SRC) $(REGMAP_GEN)
	@mkdir -p $(GEN)
	$(PYTHON) $(REGMAP_GEN) $(REGMAP_SRC) --vhdl $(REGS_VHD) --c $(REGS_H)

# docs/registers.md is committed so the map reads on any web view; `make
# regmap` refreshes it and test-regmap fails when it is stale.
regmap: $(REGS_VHD) $(REGS_H)
	$(PYTHON) $(REGMAP_GEN) $(REGMAP_SRC) --md docs/registers.md

test-regmap: $(REGS_VHD) $(REGS_H)
	@BUILD=$(BUILD) sh tests/regmap/run.sh
