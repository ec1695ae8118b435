#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where a program can tell sliceext from mainline 7.x, it behaves as
# mainline: slice_semantics.c asserts each case on 32- and 64-byte areas.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

check "modprobe sliceext" modprobe sliceext
run_bin slice_semantics
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
