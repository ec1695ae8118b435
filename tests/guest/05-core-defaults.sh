#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Before the module was ever loaded, and again after load and unload: the
# core patch alone answers "not supported", leaves rseq as in 6.12 and
# gives every task the stock load weight of its nice level and policy.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

run_bin core_defaults
check_eq "every task has its stock load weight" "" "$(weight_mismatches)"
check "modprobe sliceext" modprobe sliceext
check "modprobe -r sliceext" modprobe -r sliceext
echo "# after a load and unload:"
run_bin core_defaults
check_eq "every task has its stock load weight (after unload)" "" \
	"$(weight_mismatches)"
tap_done
