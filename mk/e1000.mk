# SPDX-License-Identifier: GPL-2.0-only
# The patched e1000 (driver/e1000/, docs/e1000.md): build/kmod/e1000/e1000.ko
# from the e1000 source of the kernel being built for plus our hooks.
#
#   E1000_KSRC (default Debian's linux-source-6.1 tarball, or a kernel
#   source tree directory)
#     --only drivers/net/ethernet/intel/e1000/--> build/kmod/e1000-orig/
#     + driver/e1000/patches/series (patch -p1; a patch that does not apply
#       stops the build with its name)
#     + driver/e1000/e1000_synpcix.[ch], driver/include/synpcix_slot.h,
#       msi-redirect/msi_redirect.h --> build/kmod/e1000/ --kbuild--> e1000.ko
#
# Cached: the extraction is redone when the source changes, the patched
# tree when the series or a patch changes; our files are copied in when
# they change and kbuild recompiles what changed. Same KDIR, W and C as
# synpcix.ko (mk/kernel.mk). make modules builds it too.

E1000_KSRC ?= /usr/src/linux-source-6.1.tar.xz
E1000_KPATH := drivers/net/ethernet/intel/e1000
E1000_ORIG := $(KMOD)/e1000-orig
E1000_DIR := $(KMOD)/e1000
E1000_PATCHDIR := driver/e1000/patches
E1000_PATCHES := $(addprefix $(E1000_PATCHDIR)/,$(shell sed -e 's/\#.*//' $(E1000_PATCHDIR)/series 2>/dev/null))
E1000_OURS := driver/e1000/e1000_synpcix.c driver/e1000/e1000_synpcix.h \
	driver/include/synpcix_slot.h msi-redirect/msi_redirect.h

.PHONY: e1000-module
modules: e1000-module

# Only the e1000 directory of the source (the tarball is 130 MB unpacked).
$(E1000_ORIG)/.extracted: $(wildcard $(E1000_KSRC))
	@test -e "$(E1000_KSRC)" || { echo "e1000: no kernel source $(E1000_KSRC) (make deps installs linux-source-6.1; or E1000_KSRC=<tarball or tree>)"; exit 1; }
	@rm -rf $(E1000_ORIG) && mkdir -p $(E1000_ORIG)
	@if [ -d "$(E1000_KSRC)" ]; then \
		cp -p "$(E1000_KSRC)"/$(E1000_KPATH)/* $(E1000_ORIG)/; \
	else \
		top=$$(tar -tJf "$(E1000_KSRC)" | head -n 1 | cut -d/ -f1); \
		tar -xJf "$(E1000_KSRC)" -C $(E1000_ORIG) --strip-components=6 "$$top/$(E1000_KPATH)/"; \
	fi
	@test -f $(E1000_ORIG)/e1000_main.c || { echo "e1000: no $(E1000_KPATH)/e1000_main.c in $(E1000_KSRC)"; exit 1; }
	@touch $@

$(E1000_DIR)/.patched: $(E1000_ORIG)/.extracted $(E1000_PATCHDIR)/series $(E1000_PATCHES)
	@rm -rf $(E1000_DIR) && mkdir -p $(E1000_DIR)
	@cp -p $(E1000_ORIG)/* $(E1000_DIR)/
	@set -e; for p in $(E1000_PATCHES); do \
		echo "  PATCH $$p"; \
		if ! patch -p1 -s -N -F 0 --batch -r - --no-backup-if-mismatch -d $(E1000_DIR) <$$p >$(E1000_DIR)/.patch.log 2>&1; then \
			echo "e1000: $$p does not apply to the e1000 of $(E1000_KSRC):"; \
			sed 's/^/    /' $(E1000_DIR)/.patch.log; \
			rm -f $(E1000_DIR)/.patched; exit 1; \
		fi; \
	done
	@touch $@

e1000-module: $(E1000_DIR)/.patched
	@test -f $(KDIR)/Makefile || { echo "e1000: no kernel headers in KDIR=$(KDIR)"; exit 1; }
	@for f in $(E1000_OURS); do cmp -s $$f $(E1000_DIR)/$$(basename $$f) || cp $$f $(E1000_DIR)/; done
	@{ $(MAKE) $(KBUILD_ARGS) M=$(E1000_DIR) CONFIG_E1000=m modules; \
	   echo $$? >$(KMOD)/e1000.rc; } 2>&1 | tee $(KMOD)/e1000.log; \
	 w=$$(grep -c -E 'warning:|error:' $(KMOD)/e1000.log); \
	 echo "e1000: kernel $(KREL), W=$(KW) C=$(KC): $$w warning/error line(s)"; \
	 test "$$(cat $(KMOD)/e1000.rc)" = 0 && test -f $(E1000_DIR)/e1000.ko
