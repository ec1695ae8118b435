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
objs="kernel/sched/core.o kernel/sched/build_utility.o kernel/rseq.o
      kernel/sys.o fs/binfmt_elf.o"
# Syscall 471 gets a table slot either way; with the option off it is
# COND_SYSCALL's -ENOSYS stub, which is what stock 6.12 answers too. These
# objects must build but cannot be byte-identical.
build_only="kernel/sys_ni.o arch/x86/entry/syscall_64.o"

export CCACHE_DIR=${SLICEEXT_CACHE:-$HOME/.cache/sliceext}/ccache

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

rc=0
for o in $objs; do
	if nm "$work/off-patched/$o" | grep -q sliceext; then
		echo "check-config-off: $o references sliceext" >&2
		rc=1
	fi
	if ! cmp -s <(disasm "$work/off-patched/$o") <(disasm "$work/off-stock/$o"); then
		echo "check-config-off: $o differs from stock:" >&2
		diff <(disasm "$work/off-stock/$o") <(disasm "$work/off-patched/$o") |
			head -n 20 >&2
		rc=1
	else
		echo "check-config-off: $o identical to stock"
	fi
done
exit $rc
