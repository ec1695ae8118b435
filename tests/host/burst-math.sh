#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# module/burst_math.c and .h, the burst-aware scheduling arithmetic, build
# on their own with no kernel or libc (so the module and this test share
# them) and give the hand-computed results of
# tests/host/burst_math_test.c, whose TAP lines pass through.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "${SLICEEXT_WORK:-}" ]; then
	d=$SLICEEXT_WORK/burst-math
	mkdir -p "$d"
else
	d=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$d'" EXIT
fi
# burst_math.c, and out-of-line copies of what burst_math.h defines
# inline, so that the checks below see the header's code too.
src=$d/burst_math_all.c
cat > "$src" <<EOF
#include "$top/module/burst_math.c"
u32 use_log2p1(u64 v);
u32 use_penalty(u64 burst_ns, u32 offset, u32 scale);
u32 use_smooth(u32 old, u32 new, u32 smoothness);
u32 use_log2p1(u64 v) { return burst_log2p1(v); }
u32 use_penalty(u64 burst_ns, u32 offset, u32 scale)
{ return burst_penalty(burst_ns, offset, scale); }
u32 use_smooth(u32 old, u32 new, u32 smoothness)
{ return burst_smooth(old, new, smoothness); }
EOF
cflags=(-std=gnu11 -ffreestanding -fno-pic -O2 -Wall -Wextra -Werror
	-Wmissing-prototypes -Wstrict-prototypes)

check "burst_math.c and .h compile alone, warning-free" \
	gcc "${cflags[@]}" -c -o "$d/burst_math.o" "$src"
# No undefined symbol: no libc, no kernel, no compiler helper.
check_eq "burst_math.o calls nothing outside itself" "" \
	"$(nm -u "$d/burst_math.o" 2>&1)"
# On 32-bit a 64-bit division becomes a call to __udivdi3, which the
# kernel does not provide: the object must still call nothing.
if echo 'int x;' | gcc -m32 -x c -c -o /dev/null - 2>/dev/null; then
	if out=$(gcc -m32 "${cflags[@]}" -c -o "$d/burst_math32.o" "$src" 2>&1); then
		check_eq "burst_math.o calls nothing outside itself on 32-bit" "" \
			"$(nm -u "$d/burst_math32.o" 2>&1)"
	else
		not_ok "burst_math.c and .h compile alone on 32-bit" "$out"
	fi
else
	skip "burst_math.o calls nothing outside itself on 32-bit" "no gcc -m32"
fi

if ! out=$(gcc -O2 -Wall -Wextra -Werror -o "$d/burst_math_test" \
	"$top/tests/host/burst_math_test.c" 2>&1); then
	not_ok "build burst_math host test" "$out"
	tap_done
	exit
fi
"$d/burst_math_test" 2>&1
rc=$?
check_eq "burst_math host test exits 0" 0 "$rc"
tap_done
