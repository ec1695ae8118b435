#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The 7.0 slice extension ABI with sliceext loaded: prctl, status bits,
# registration flags, on glibc's area and on a program's own areas.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

check "modprobe sliceext" modprobe sliceext
echo "# with glibc's rseq registration:"
"$SLICEEXT_BIN/ext_prctl" || tap_failed=$((tap_failed + 1))
echo "# with GLIBC_TUNABLES=glibc.pthread.rseq=0:"
run_bin ext_prctl
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
