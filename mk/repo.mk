# SPDX-License-Identifier: GPL-2.0-or-later
# Repository hygiene: licence identifiers, nothing built committed.
.PHONY: test-repo
SUITES += repo
test-repo:
	@BUILD=$(BUILD) sh tests/repo/run.sh
