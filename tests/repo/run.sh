#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every tracked source file names its licence; nothing built is tracked.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/suite.sh"
suite_begin repo
cd "$TOP" || exit 1
missing=$(git ls-files --cached --others --exclude-standard |
	grep -E '\.(vhd|c|h|cc|cpp|py|sh|mk|toml|pcf|ys|tcl|patch|bpf\.c)$|(^|/)Makefile$|(^|/)Kbuild$|^\.ci/run$' |
	while read -r f; do
		[ -f "$f" ] || continue
		head -n 5 "$f" | grep -q 'SPDX-License-Identifier:' || echo "$f"
	done)
if [ -z "$missing" ]; then
	t_pass spdx-identifiers
else
	t_fail spdx-identifiers "no SPDX line in: $(echo $missing)"
fi
built=$(git ls-files | grep -E '(^|/)build/|\.(o|ko|a|so|bin|asc|vcd|ghw|fst|cf)$' | head -5)
if [ -z "$built" ]; then
	t_pass no-built-files-tracked
else
	t_fail no-built-files-tracked "$(echo $built)"
fi
suite_end
