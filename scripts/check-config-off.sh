#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# With CONFIG_SCHED_SLICEEXT=n the patched tree must be stock 6.12. Build
# every object the patch series touches, with the test kernel's config
# minus the option, once from the patched source and once from the
# unpatched source, and compare their code: it must be identical.
#
# Usage: scripts/check-config-off.sh KERNEL_DIR WORKDIR
#   KERNEL_DIR   a directory printed by scripts/kernel.sh (src/ and build/)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kdir=$1 work=$2
objs="kernel/sched/core.o kernel/sched/fair.o kernel/sched/build_utility.o
      kernel/rseq.o kernel/sys.o kernel/fork.o fs/binfmt_elf.o
      kernel/entry/common.o arch/x86/entry/common.o
      kernel/futex/core.o kernel/futex/syscalls.o kernel/futex/pi.o
      kernel/futex/requeue.o kernel/futex/waitwake.o"
# Syscall 471 gets a table slot either way; with the option off it is
# COND_SYSCALL's -ENOSYS stub, which is what stock 6.12 answers too. These
# objects must build but cannot be byte-identical.
build_only="kernel/sys_ni.o arch/x86/entry/syscall_64.o
	    arch/x86/entry/syscall_32.o"

export CCACHE_DIR=${SLICEEXT_CACHE:-${HOME:-/root}/.cache/sliceext}/ccache

# The unpatched tree: the patched copy with the series reversed.
mkdir -p "$work"
rm -rf "$work/stock"
cp -a "$kdir/src" "$work/stock"
for p in $(ls -r "$top"/patches/6.12/*.patch); do
	patch -d "$work/stock" -p1 -R -s < "$p"
done

build() { # SRC OUT
	mkdir -p "$2"
	cp "$kdir/build/.config" "$2/.config"
	"$1/scripts/config" --file "$2/.config" -d SCHED_SLICEEXT
	make -s -C "$1" O="$2" CC="ccache gcc" olddefconfig
	if grep -q "^CONFIG_SCHED_SLICEEXT=y" "$2/.config"; then
		echo "check-config-off: option still on in $2" >&2
		return 1
	fi
	make -s -C "$1" O="$2" CC="ccache gcc" -j"$(nproc)" $objs $build_only
}

build "$kdir/src" "$work/off-patched"
build "$work/stock" "$work/off-stock"
echo "check-config-off: $build_only build"

# Code only: line numbers in debug and bug tables move with the patch.
disasm() {
	objdump -d --no-show-raw-insn -j .text -j .init.text "$1" |
		sed -e '1,/^Disassembly/d'
}

# The patch adds lines to some files, so __LINE__ constants (passed to
# __might_sleep() and friends) move. Accept a pair of instructions that
# differs only in an immediate, by no more than the most lines the series
# adds to one file stock has; anything else is a real difference.
line_bound=0
for f in $(sed -n 's|^+++ b/||p' "$top"/patches/6.12/*.patch | sort -u); do
	[ -f "$work/stock/$f" ] || continue
	n=$(diff "$work/stock/$f" "$kdir/src/$f" | grep -c '^>' || true)
	[ "$n" -le "$line_bound" ] || line_bound=$n
done

same_code() {
	python3 - "$1" "$2" "$line_bound" <<'PY'
import re, sys
a = open(sys.argv[1]).read().splitlines()
b = open(sys.argv[2]).read().splitlines()
bound = int(sys.argv[3])
if len(a) != len(b):
    sys.exit(1)
imm = re.compile(r'\$0x([0-9a-f]+)')
moved = 0
for x, y in zip(a, b):
    if x == y:
        continue
    if imm.sub('$I', x) != imm.sub('$I', y):
        sys.exit(1)
    dx = [int(v, 16) for v in imm.findall(x)]
    dy = [int(v, 16) for v in imm.findall(y)]
    if any(abs(p - q) > bound for p, q in zip(dx, dy)):
        sys.exit(1)
    moved += 1
print(moved)
PY
}

rc=0
for o in $objs; do
	if nm "$work/off-patched/$o" | grep -q sliceext; then
		echo "check-config-off: $o references sliceext" >&2
		rc=1
	fi
	disasm "$work/off-stock/$o" > "$work/a.s"
	disasm "$work/off-patched/$o" > "$work/b.s"
	if moved=$(same_code "$work/a.s" "$work/b.s"); then
		echo "check-config-off: $o same code as stock ($moved line-number constants moved)"
	else
		echo "check-config-off: $o differs from stock:" >&2
		diff "$work/a.s" "$work/b.s" | head -n 20 >&2 || true
		rc=1
	fi
done
exit $rc
