# SPDX-License-Identifier: GPL-2.0-only
# results_read FILE: turn a test program's "ok NAME" / "not ok NAME: why"
# lines into t_pass / t_fail (tests/lib/suite.sh); "# text" lines are shown
# as notes, "    also: " lines as extra failure detail. Sets RESULTS_N to the
# number of tests read.
results_read() {
	RESULTS_N=0
	while IFS= read -r _line; do
		case $_line in
		"ok "*) t_pass "${_line#ok }"; RESULTS_N=$((RESULTS_N + 1)) ;;
		"not ok "*) t_fail "${_line#not ok }"; RESULTS_N=$((RESULTS_N + 1)) ;;
		"# "*) echo "note: ${_line#\# }" ;;
		"    also: "*) echo "$_line" ;;
		esac
	done <"$1"
}
