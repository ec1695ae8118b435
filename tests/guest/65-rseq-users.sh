#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Existing rseq users keep working with sliceext loaded: the kernel's own
# rseq selftests (built on the host from the patched tree), whose areas
# now carry the AVAILABLE status bit that 6.12's restart path must accept.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

r=$SLICEEXT_RSEQ_SELFTESTS
export LD_LIBRARY_PATH=$r
check "modprobe sliceext" modprobe sliceext
check "basic_test" timeout 300 "$r/basic_test"
# basic_percpu_ops_test is left out: it needs minutes under TCG even
# without sliceext; param_test covers the same per-CPU operations.
for t in s l b i m; do
	check "param_test -T $t with preemption injected" \
		timeout 300 "$r/param_test" -T "$t" -r 200 -t 4 -1 20 -2 20
done
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
