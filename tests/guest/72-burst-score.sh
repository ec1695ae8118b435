#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Burst scores as applied: a hog's score follows the formula, a sleeper
# stays at 0, nice and score compose in the load weight, children and
# threads of a hog inherit its penalty (burst_score.c).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

check "modprobe sliceext" modprobe sliceext
run_bin burst_score
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
