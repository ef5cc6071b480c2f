# SPDX-License-Identifier: GPL-2.0-only
# Driver core (driver/core/) unit tests in user space.
.PHONY: test-driver
SUITES += driver

test-driver: $(REGS_H)
	@sh tests/driver/run.sh
