#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict is clean on the patch series and the module.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
check "checkpatch --strict clean" env KSRC="$KSRC_TREE" "$top/scripts/checkpatch.sh"
tap_done
