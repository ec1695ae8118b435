# SPDX-License-Identifier: GPL-2.0
#
# Minimal TAP for sliceext's shell tests. Each check prints one line,
# "ok - NAME" or "not ok - NAME", with diagnostics as "# " lines; the
# runner numbers them and prints the summary.
#
#   check NAME COMMAND...     ok when COMMAND exits 0
#   check_fails NAME COMMAND... ok when COMMAND exits non-zero
#   check_eq NAME EXPECTED ACTUAL
#   skip NAME REASON

tap_failed=0

# Host tests keep their files under SLICEEXT_WORK, which tests/run sets;
# run on their own, they get a temporary directory, never "/".
if [ -z "${SLICEEXT_WORK:-}" ]; then
	SLICEEXT_WORK=$(mktemp -d "${TMPDIR:-/tmp}/sliceext-test.XXXXXX")
	# shellcheck disable=SC2064 # expand now: the path is fixed
	trap "rm -rf '$SLICEEXT_WORK'" EXIT
	export SLICEEXT_WORK
fi

ok() { echo "ok - $1"; }

not_ok() {
	local name=$1
	shift
	echo "not ok - $name"
	[ $# -gt 0 ] && printf '%s\n' "$@" | sed 's/^/# /'
	tap_failed=$((tap_failed + 1))
	return 0
}

check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$name"
	else
		not_ok "$name" "command: $*" "$out"
	fi
}

check_fails() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		not_ok "$name" "unexpectedly succeeded: $*" "$out"
	else
		ok "$name"
	fi
}

check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "expected: $2" "actual:   $3"
	fi
}

skip() { echo "ok - $1 # SKIP $2"; }

# Exit status for the end of a test script.
tap_done() { [ "$tap_failed" = 0 ]; }
