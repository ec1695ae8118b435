#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Slice extension for compat tasks, as a distribution kernel runs them:
# slice_grant.c built as an i386 and as an x32 program registers, is
# granted, and ends its grants by yield (rseq_slice_yield(), 471 in the
# i386 table, 471 with __X32_SYSCALL_BIT for x32) and by any other
# syscall, each counted as such in ext/stats.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

check "modprobe sliceext" modprobe sliceext
for abi in m32 mx32; do
	bin=$SLICEEXT_BIN/slice_grant-$abi
	if [ ! -x "$bin" ]; then
		skip "slice_grant-$abi" "not built ($(head -n 1 "$bin.log" 2>/dev/null))"
		continue
	fi
	echo "# slice_grant built with -$abi"
	GLIBC_TUNABLES=glibc.pthread.rseq=0 "$bin" \
		-r grant.yield.every_end_is_counted \
		-r grant.abort.every_end_is_counted ||
		tap_failed=$((tap_failed + 1))
done
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
