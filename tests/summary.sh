#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sum the results of the named suites; the last line is "N passed, M failed".
# A suite without a result file crashed or was not run: one failure.
set -u
dir=$1
shift
passed=0
failed=0
for s in "$@"; do
	if [ -r "$dir/$s.res" ]; then
		read -r p f <"$dir/$s.res"
		passed=$((passed + p))
		failed=$((failed + f))
	else
		echo "suite $s left no results (crashed or not run)"
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
