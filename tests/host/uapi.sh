#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The user ABI headers (uapi/) match Linux 7.0 and tools/rseq_slice.h
# finds the rseq area and follows the protocol: a kselftest-harness
# program that needs no sliceext kernel. Its TAP lines pass through.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$SLICEEXT_WORK/uapi-host-test
mkdir -p "$SLICEEXT_WORK"

if ! out=$(gcc -O2 -Wall -Werror -pthread -I "$top/uapi" -I "$top/tools" \
	-I "$KSRC_TREE/tools/testing/selftests" \
	-o "$bin" "$top/tests/host/uapi.c" 2>&1); then
	not_ok "build uapi host test" "$out"
	tap_done
	exit
fi
# The program re-executes itself with GLIBC_TUNABLES=glibc.pthread.rseq=0
# to check the no-area case, so one run covers both.
"$bin" 2>&1
rc=$?
check_eq "uapi host test exits 0" 0 "$rc"

# The examples build as a user would build them, against uapi/ and tools/.
for c in "$top"/tools/examples/*.c; do
	check "example $(basename "$c") builds with -Wall -Wextra -Werror" \
		gcc -O2 -Wall -Wextra -Werror -pthread -I "$top/uapi" -I "$top/tools" \
		-o "$SLICEEXT_WORK/$(basename "$c" .c)" "$c"
done
tap_done
