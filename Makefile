# SPDX-License-Identifier: GPL-2.0-or-later
#
# SynPCI-X: the one entry point. `make help` lists the targets.
# Everything built goes under build/. Each area has its own rules file
# (mk/*.mk) and adds its test suite to SUITES.

TOP    := $(CURDIR)
BUILD  := $(TOP)/build
GEN    := $(BUILD)/gen
PYTHON ?= python3
SUITES :=

.DEFAULT_GOAL := help
.PHONY: help deps test demo bitstream flash clean

help:
	@echo "SynPCI-X make targets:"
	@echo "  make demo        main job: full-system simulation (installs deps first)"
	@echo "  make demo-stamp  the stamping co-simulation alone: calibration, raw and refined"
	@echo "                   card stamps vs truth at 100 kpps and line rate, PCI 66/33 MHz"
	@echo "  make stamp-rates highest packet rate stamped without loss, PCI 66 and 33 MHz"
	@echo "  make test        every test suite; last line 'N passed, M failed'"
	@echo "  make deps        install the Debian packages the project needs"
	@echo "  make regmap      regenerate register map outputs (VHDL, C, docs)"
	@echo "  make bitstream   iCE40 HX8K bitstream of the card + build/bitstream-hx8k-pci/report.json"
	@echo "  make flash       write the bitstream to the card's SPI flash"
	@echo "  make modules     synpcix.ko, msi_redirect.ko, patched e1000.ko (KDIR=... for another kernel)"
	@echo "  make tools       tsstat, tsprobe, clkjitter, irqlat into build/tools/"
	@echo "  make testptp     the kernel's testptp (from linux-source-6.1), static: build/testptp/testptp"
	@echo "  make bench-tools tsstat vs capinfos on a 10^7-packet capture"
	@echo "  make test-<s>    one suite, s in: $(SUITES)"
	@echo "  make clean       remove build/ (BUILD=dir on any target: build there instead)"

deps:
	@sh mk/deps.sh

include mk/regmap.mk
include mk/hdl.mk
-include mk/sim.mk
-include mk/pcibus.mk
-include mk/bitstream.mk
include mk/repo.mk
-include mk/tools.mk
-include mk/driver.mk
-include mk/kernel.mk
-include mk/e1000.mk
-include mk/testptp.mk
-include mk/e2e.mk

# Suites run one after another (each may use both cores inside); a suite
# that fails does not stop the others. tests/summary.sh prints the total.
test: deps
	@rm -rf $(BUILD)/test-results
	@for s in $(SUITES); do $(MAKE) --no-print-directory test-$$s || true; done; \
	 sh tests/summary.sh $(BUILD)/test-results $(SUITES)

clean:
	rm -rf $(BUILD)
