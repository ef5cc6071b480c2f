# SPDX-License-Identifier: GPL-2.0-only
# Kernel modules synpcix.ko and msi_redirect.ko, and their QEMU boot test.
#
# KDIR defaults to the headers of Debian's linux-headers-amd64 package (the
# 6.1 kernel that linux-image-amd64 installs in /boot and the QEMU test
# boots), not to the running kernel: the host may run anything. Override:
#   make modules KDIR=/lib/modules/$(uname -r)/build
# Kbuild writes objects next to the sources it is given, so the sources are
# copied to build/kmod/<module>/ first: every output stays under build/.
# W=1 and sparse (C=1) are on by default; the log is build/kmod/build.log.

KDEB_HEADERS := $(shell dpkg-query -W -f='$${Depends}' linux-headers-amd64 2>/dev/null | \
		  sed -n 's/^\(linux-headers-[^ ,]*\).*/\1/p')
KDIR ?= $(if $(KDEB_HEADERS),/usr/src/$(KDEB_HEADERS),/lib/modules/$(shell uname -r)/build)
KREL = $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
KMOD := $(BUILD)/kmod
KW ?= 1
KC ?= $(if $(shell command -v sparse),1,0)
KBUILD_ARGS = -C $(KDIR) W=$(KW) C=$(KC) SYNPCIX_GEN=$(GEN)

.PHONY: modules modules_install test-kernel kernel-release
SUITES += kernel

modules: $(REGS_H)
	@test -f $(KDIR)/Makefile || { echo "modules: no kernel headers in KDIR=$(KDIR) (make deps installs linux-headers-amd64)"; exit 1; }
	@mkdir -p $(KMOD)/synpcix $(KMOD)/msi_redirect
	@cp -pR driver/. $(KMOD)/synpcix/
	@cp -pR msi-redirect/. $(KMOD)/msi_redirect/
	@{ $(MAKE) $(KBUILD_ARGS) M=$(KMOD)/synpcix modules && \
	   $(MAKE) $(KBUILD_ARGS) M=$(KMOD)/msi_redirect \
		SYNPCIX_INC=$(KMOD)/synpcix/core SYNPCIX_API=$(KMOD)/synpcix/include \
		KBUILD_EXTRA_SYMBOLS=$(KMOD)/synpcix/Module.symvers modules; \
	   echo $$? >$(KMOD)/build.rc; } 2>&1 | tee $(KMOD)/build.log; \
	 w=$$(grep -c -E 'warning:|error:' $(KMOD)/build.log); \
	 echo "modules: kernel $(KREL), W=$(KW) C=$(KC): $$w warning/error line(s)"; \
	 test "$$(cat $(KMOD)/build.rc)" = 0 && test -f $(KMOD)/synpcix/synpcix.ko && \
	 test -f $(KMOD)/msi_redirect/msi_redirect.ko

# The release the modules are built for (the guest kernel of test-kernel).
kernel-release:
	@echo $(KREL)

# INSTALL_MOD_PATH=<dir> installs into a staging tree instead of /. The
# modules land in lib/modules/<release>/extra/. They are not signed (Debian's
# key is Debian's): a kernel with module signature enforcement (Secure Boot)
# needs them signed with an enrolled key (scripts/sign-file).
modules_install: modules
	$(MAKE) -C $(KDIR) M=$(KMOD)/synpcix CONFIG_MODULE_SIG_ALL= modules_install
	$(MAKE) -C $(KDIR) M=$(KMOD)/msi_redirect CONFIG_MODULE_SIG_ALL= modules_install
	depmod -b $(or $(INSTALL_MOD_PATH),/) $(KREL)

test-kernel: $(REGS_H)
	@BUILD=$(BUILD) sh tests/kernel/run.sh
