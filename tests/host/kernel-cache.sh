#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A second kernel build with nothing changed does no work; --cached
# prints a built kernel's directory, and refuses a flavour not built
# (exit 3) or an unknown option (exit 2) without building.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$KBUILD")/env"
before=$(stat -c %Y "$BZIMAGE")
out=$("$top/scripts/kernel.sh" test 2>&1)
check "kernel.sh reports the cached kernel" grep -q "up to date" <<<"$out"
check_eq "bzImage untouched" "$before" "$(stat -c %Y "$BZIMAGE")"
check_eq "--cached prints the built kernel's directory" \
	"$(dirname "$KBUILD")" "$("$top/scripts/kernel.sh" test --cached 2>/dev/null)"
empty=$(mktemp -d)
SLICEEXT_CACHE=$empty "$top/scripts/kernel.sh" test --cached > /dev/null 2>&1
check_eq "--cached on an empty cache: exit 3, nothing built" 3 $?
rm -rf "$empty"
"$top/scripts/kernel.sh" test --cahced > /dev/null 2>&1
check_eq "an unknown option: exit 2" 2 $?
tap_done
