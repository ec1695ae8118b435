#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Conformance: mainline's own rseq selftests, built on the host from
# Debian's linux-source-7.3 at test time (never copied into this tree),
# pass with sliceext loaded and with it unloaded. That includes
# slice_test, mainline's slice extension test, which needs the module
# (unloaded it skips itself, as on a kernel without the feature).
#
# run_param_test.sh's full injection matrix takes hours under TCG; the
# param tests run here with every test type, preemption injected, on the
# plain and the mm_cid builds.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

r=${SLICEEXT_MAINLINE_SELFTESTS:-}
if [ -z "$r" ] || [ ! -x "$r/slice_test" ]; then
	skip "mainline rseq selftests" "not built on the host (${r:-no directory})"
	tap_done
	exit
fi
cd "$r" || exit 1
export LD_LIBRARY_PATH=$r
# As their run_*.sh scripts: glibc must leave rseq to the tests.
export GLIBC_TUNABLES=glibc.pthread.rseq=0

selftests() { # WHEN
	local when=$1 t out
	for t in basic_test syscall_errors_test legacy_check; do
		check "$t ($when)" timeout 300 "./$t"
	done
	for t in s l b i m; do
		check "param_test -T $t, preemption injected ($when)" \
			timeout 300 ./param_test -T "$t" -r 200 -t 4 -1 20 -2 20
		check "param_test_mm_cid -T $t ($when)" \
			timeout 300 ./param_test_mm_cid -T "$t" -r 200 -t 4
	done
	check "check_optimized ($when)" ./check_optimized
	out=$(timeout 300 ./slice_test 2>&1)
	check "slice_test exits 0 ($when)" test $? = 0
	sed 's/^/# slice_test: /' <<<"$out" | grep -E "ok|Total|Success|Yielded|Scheduled|SKIP" | head -n 24
	check "slice_test: every variant passed or skipped ($when)" \
		test "$(grep -c '^ok ' <<<"$out")" -ge 3
	if [ "$when" = loaded ]; then
		check "slice_test ran, not skipped, with the module" \
			test "$(grep -c '^ok .*# SKIP' <<<"$out")" = 0
	fi
}

check "modprobe sliceext" modprobe sliceext
selftests loaded
check "modprobe -r sliceext" modprobe -r sliceext
selftests unloaded
tap_done
