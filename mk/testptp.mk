# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's own PHC test tool, testptp (tools/testing/selftests/ptp/
# testptp.c), built static for the e2e guests (tests/e2e/guest-testptp.sh)
# and for use on a host (docs/driver.md "Load and check").
#
#   TESTPTP_KSRC (default Debian's linux-source-6.1 tarball, or a kernel
#   source tree directory)
#     --only tools/testing/selftests/ptp/testptp.c--> build/testptp/src/
#     --cc -static (-lrt)--> build/testptp/testptp
#
# testptp.c includes only libc headers and <linux/ptp_clock.h>, which the
# build host's linux-libc-dev provides (Debian 12: the same 6.1 UAPI).
# Kernel source is never committed: the file is extracted into build/.

TESTPTP_KSRC ?= /usr/src/linux-source-6.1.tar.xz
TESTPTP_KPATH := tools/testing/selftests/ptp/testptp.c
TESTPTP_DIR := $(BUILD)/testptp
TESTPTP_SRC := $(TESTPTP_DIR)/src/testptp.c
TESTPTP_BIN := $(TESTPTP_DIR)/testptp

.PHONY: testptp
testptp: $(TESTPTP_BIN)

$(TESTPTP_SRC): $(wildcard $(TESTPTP_KSRC))
	@test -e "$(TESTPTP_KSRC)" || { echo "testptp: no kernel source $(TESTPTP_KSRC) (make deps installs linux-source-6.1; or TESTPTP_KSRC=<tarball or tree>)"; exit 1; }
	@rm -rf $(TESTPTP_DIR)/src && mkdir -p $(TESTPTP_DIR)/src
	@if [ -d "$(TESTPTP_KSRC)" ]; then \
		cp -p "$(TESTPTP_KSRC)/$(TESTPTP_KPATH)" $(TESTPTP_DIR)/src/ || exit 1; \
	else \
		top=$$(tar -tJf "$(TESTPTP_KSRC)" | head -n 1 | cut -d/ -f1); \
		tar -xJf "$(TESTPTP_KSRC)" -C $(TESTPTP_DIR)/src --strip-components=5 "$$top/$(TESTPTP_KPATH)" || exit 1; \
	fi
	@test -f $@ || { echo "testptp: no $(TESTPTP_KPATH) in $(TESTPTP_KSRC)"; exit 1; }
	@touch $@

# The kernel's tool as it is: its own warnings are not ours to fix, so no
# -Werror here (it builds warning-free with -Wall on gcc 12 all the same).
$(TESTPTP_BIN): $(TESTPTP_SRC)
	$(CC) -O2 -Wall -static $< -o $@ -lrt -lm
