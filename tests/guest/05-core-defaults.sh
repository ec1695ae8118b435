#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Before the module was ever loaded, and again after load and unload: the
# core patch alone answers "not supported" and leaves rseq as in 6.12.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

run_bin core_defaults
check "modprobe sliceext" modprobe sliceext
check "modprobe -r sliceext" modprobe -r sliceext
echo "# after a load and unload:"
run_bin core_defaults
tap_done
