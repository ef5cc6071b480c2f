# SPDX-License-Identifier: GPL-2.0-or-later
# Shared test-suite helpers, sourced by every suite script.
#
# A suite calls suite_begin NAME, then t_pass / t_fail (or t_run) once per
# test, then suite_end. suite_end writes $BUILD/test-results/NAME.res as
# "PASSED FAILED" for tests/summary.sh and exits non-zero on any failure.
# A suite that dies before suite_end leaves no .res file; the summary
# counts that as a failure, so a crash is never silent.

: "${TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$TOP/tests/lib/build_dir.sh"
RESULTS_DIR="${RESULTS_DIR:-$BUILD/test-results}"

suite_begin() {
	SUITE_NAME=$1
	SUITE_PASSED=0
	SUITE_FAILED=0
	SUITE_LOG_DIR="$BUILD/test-logs/$SUITE_NAME"
	mkdir -p "$RESULTS_DIR" "$SUITE_LOG_DIR"
	rm -f "$RESULTS_DIR/$SUITE_NAME.res"
	echo "== suite $SUITE_NAME"
}

t_pass() {
	SUITE_PASSED=$((SUITE_PASSED + 1))
	echo "PASS $SUITE_NAME/$1"
}

t_fail() {
	SUITE_FAILED=$((SUITE_FAILED + 1))
	echo "FAIL $SUITE_NAME/$1${2:+: $2}"
}

# t_run NAME CMD...: run CMD with its output in the suite's log directory;
# pass on exit status 0. On failure the log's tail is shown.
t_run() {
	_name=$1
	shift
	_log="$SUITE_LOG_DIR/$(echo "$_name" | tr '/ ' '__').log"
	if "$@" >"$_log" 2>&1; then
		t_pass "$_name"
	else
		t_fail "$_name" "exit $? (log: ${_log#"$TOP"/})"
		tail -n 25 "$_log" | sed 's/^/    | /'
	fi
}

suite_end() {
	echo "$SUITE_PASSED $SUITE_FAILED" >"$RESULTS_DIR/$SUITE_NAME.res"
	echo "== suite $SUITE_NAME: $SUITE_PASSED passed, $SUITE_FAILED failed"
	[ "$SUITE_FAILED" -eq 0 ]
}
