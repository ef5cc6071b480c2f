# SPDX-License-Identifier: GPL-2.0-or-later
# The card inside QEMU (sim/qemu/, docs/simulation.md "The card inside QEMU")
# and the end-to-end suite tests/e2e/.
#
#   Debian bookworm source package qemu (7.2), fetched with apt-get source
#   through a private apt configuration under build/qemu/apt/ (the machine's
#   apt sources are not touched; no root needed for the fetch)
#     --dpkg-source -x (Debian's patches)--> build/qemu/src/
#     + sim/qemu/patches/series (patch -p1)
#     + sim/qemu/*.c, the headers they include and the Verilated gateware
#       as one static library --> build/qemu/src/hw/misc/synpcix/
#     --configure + ninja (build/qemu/obj/)--> build/qemu/qemu-system-x86_64
#
# Cached by stamp files: the source is unpacked and configured again only
# when the series or a patch changes; a changed device source or gateware
# only recompiles and relinks. build/qemu/build-time.txt holds the time of
# the last full build.

QEMU_DIR     := $(BUILD)/qemu
QEMU_APT     := $(QEMU_DIR)/apt
QEMU_DL      := $(QEMU_DIR)/dl
QEMU_SRC     := $(QEMU_DIR)/src
QEMU_OBJ     := $(QEMU_DIR)/obj
QEMU_BIN     := $(QEMU_DIR)/qemu-system-x86_64
QEMU_SUITE   := bookworm
QEMU_PATCHDIR := sim/qemu/patches
QEMU_PATCHES := $(addprefix $(QEMU_PATCHDIR)/,$(shell sed -e 's/\#.*//' $(QEMU_PATCHDIR)/series 2>/dev/null))
QEMU_DEV_DIR := $(QEMU_SRC)/hw/misc/synpcix
QEMU_DEV_SRCS := $(wildcard sim/qemu/*.c)
# what the device source includes, copied next to it
QEMU_DEV_HDRS := driver/core/synpcix_pci_ids.h sim/verilator/card_sim.h $(REGS_H)
QEMU_CARD_LIB := $(QEMU_DIR)/libsynpcix_card.a
QEMU_CONFIGURE := --target-list=x86_64-softmmu --without-default-features \
	--enable-tcg --enable-slirp --enable-fdt=system --disable-docs \
	--disable-werror --disable-install-blobs
QEMU_APT_OPTS = -o Dir::Etc::SourceList=$(QEMU_APT)/sources.list \
	-o Dir::Etc::SourceParts=/nonexistent -o Dir::State::Lists=$(QEMU_APT)/lists \
	-o Dir::Cache=$(QEMU_APT)/cache -o Debug::NoLocking=1

.PHONY: qemu test-e2e
SUITES += e2e

qemu: $(QEMU_BIN)

# Fetch once: a deb-src line for bookworm in a private sources.list.
$(QEMU_DL)/.fetched:
	@rm -rf $(QEMU_APT) $(QEMU_DL)
	@mkdir -p $(QEMU_APT)/lists/partial $(QEMU_APT)/cache/archives/partial $(QEMU_DL)
	@echo "deb-src http://deb.debian.org/debian $(QEMU_SUITE) main" >$(QEMU_APT)/sources.list
	apt-get -q $(QEMU_APT_OPTS) update >$(QEMU_DIR)/apt.log 2>&1 || { cat $(QEMU_DIR)/apt.log; exit 1; }
	cd $(QEMU_DL) && apt-get -q $(QEMU_APT_OPTS) source --download-only qemu/$(QEMU_SUITE) >>$(QEMU_DIR)/apt.log 2>&1 || { cat $(QEMU_DIR)/apt.log; exit 1; }
	@ls $(QEMU_DL)/qemu_*.dsc
	@touch $@

# Unpack with Debian's patches, then ours; configure out of tree.
# The device's headers (the generated register header among them) are
# copied in here, so they must exist first (order-only: a changed header
# is copied by the link rule below, without a new configure).
$(QEMU_OBJ)/.configured: $(QEMU_DL)/.fetched $(QEMU_PATCHDIR)/series $(QEMU_PATCHES) | $(QEMU_DEV_HDRS)
	@rm -rf $(QEMU_SRC) $(QEMU_OBJ)
	@date +%s >$(QEMU_DIR)/.build-start
	dpkg-source --no-check -x $$(ls $(QEMU_DL)/qemu_*.dsc | tail -n 1) $(QEMU_SRC) >$(QEMU_DIR)/unpack.log 2>&1 || { tail -n 20 $(QEMU_DIR)/unpack.log; exit 1; }
	@set -e; for p in $(QEMU_PATCHES); do echo "  PATCH $$p"; patch -s -p1 -d $(QEMU_SRC) <$$p; done
	@mkdir -p $(QEMU_OBJ) $(QEMU_DEV_DIR)
	@cp $(QEMU_DEV_SRCS) $(QEMU_DEV_HDRS) $(QEMU_DEV_DIR)/
	cd $(QEMU_OBJ) && ../src/configure $(QEMU_CONFIGURE) >$(QEMU_DIR)/configure.log 2>&1 || { tail -n 30 $(QEMU_DIR)/configure.log; exit 1; }
	@touch $@

# The Verilated gateware, its C API (card_sim.cpp) and Verilator's runtime
# as one archive for QEMU's link.
$(QEMU_CARD_LIB): $(SIM_DIR)/card_sim.o $(SIM_VRT) $(SIM_VLIBS)
	@mkdir -p $(QEMU_DIR)
	@rm -f $@
	{ echo "create $@"; echo "addlib $(SIM_VLIBS)"; \
	  for o in $(SIM_DIR)/card_sim.o $(SIM_VRT); do echo "addmod $$o"; done; \
	  echo save; echo end; } | ar -M
	ranlib $@

# Copy in only what changed (ninja then recompiles only that); force the
# relink, which does not see the library as an input.
$(QEMU_BIN): $(QEMU_OBJ)/.configured $(QEMU_DEV_SRCS) $(QEMU_DEV_HDRS) $(QEMU_CARD_LIB)
	@mkdir -p $(QEMU_DEV_DIR)
	@set -e; for f in $(QEMU_DEV_SRCS) $(QEMU_DEV_HDRS) $(QEMU_CARD_LIB); do \
		cmp -s $$f $(QEMU_DEV_DIR)/$$(basename $$f) || cp $$f $(QEMU_DEV_DIR)/; done
	@rm -f $(QEMU_OBJ)/qemu-system-x86_64
	ninja -C $(QEMU_OBJ) qemu-system-x86_64 >$(QEMU_DIR)/ninja.log 2>&1 || { grep -E -B2 -A8 'error|FAILED' $(QEMU_DIR)/ninja.log | head -n 60; exit 1; }
	cp $(QEMU_OBJ)/qemu-system-x86_64 $@
	@if [ -f $(QEMU_DIR)/.build-start ]; then \
		echo "qemu: full build (unpack, patch, configure, ninja) in $$(( $$(date +%s) - $$(cat $(QEMU_DIR)/.build-start) )) s on $$(nproc) core(s)" | tee $(QEMU_DIR)/build-time.txt; \
		rm -f $(QEMU_DIR)/.build-start; fi

test-e2e: $(REGS_H)
	@BUILD=$(BUILD) sh tests/e2e/run.sh
