#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A second kernel build with nothing changed does no work.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$KBUILD")/env"
before=$(stat -c %Y "$BZIMAGE")
out=$("$top/scripts/kernel.sh" test 2>&1)
check "kernel.sh reports the cached kernel" grep -q "up to date" <<<"$out"
check_eq "bzImage untouched" "$before" "$(stat -c %Y "$BZIMAGE")"
tap_done
