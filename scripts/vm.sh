#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a cached sliceext kernel under QEMU over the host's root file system
# and run one command inside. The command's output is printed, the guest's
# kernel log is checked for splats, and a guest that does not finish in time
# is killed and reported, never waited on forever.
#
# Usage: scripts/vm.sh [options] KERNEL_DIR -- COMMAND [ARG...]
#   KERNEL_DIR     a directory printed by scripts/kernel.sh
#   --cpus N[,TOPOLOGY]  vCPUs (default 2), with QEMU's -smp topology if
#                  given (4,sockets=2,cores=2: two levels of balancing)
#   --mem SIZE     guest memory (default 2G)
#   --timeout S    kill the guest after S seconds (default 1200)
#   --append ARGS  extra kernel command line (e.g. preempt=full)
#   --out DIR      keep console.log, dmesg and output here (default: temp)
#   --tcg-single   one TCG thread for all vCPUs: slower, but immune to
#                  the rare guest crash of multi-threaded TCG when the
#                  kernel patches code another vCPU runs (static calls
#                  switched at module load and unload)
#   --icount       deterministic timing: single-threaded TCG with
#                  "-icount shift=0,sleep=off", so guest time advances by
#                  1 ns per instruction executed, whatever the host does
#                  (docs/development.md: what it shows and what it cannot)
#
# Exit status: the command's, or 1 if the guest's log holds a splat, or
# 124 if the guest timed out, or 125 if it died without a result.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cpus=2 mem=2G timeout=1200 append='' out='' icount=0 single=0

while [ $# -gt 0 ]; do
	case $1 in
	--cpus) cpus=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--icount) icount=1; shift ;;
	--tcg-single) single=1; shift ;;
	--) shift; break ;;
	-*) echo "vm.sh: unknown option $1" >&2; exit 2 ;;
	*) kdir=$1; shift ;;
	esac
done
[ -n "${kdir:-}" ] && [ -f "$kdir/env" ] && [ $# -gt 0 ] || {
	echo "usage: $0 [options] KERNEL_DIR -- COMMAND [ARG...]" >&2
	exit 2
}
. "$kdir/env"

if [ -z "$out" ]; then
	out=$(mktemp -d /tmp/sliceext-vm.XXXXXX)
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
rm -f "$out/rc" "$out/output" "$out/dmesg" "$out/console.log"
printf '%q ' "$@" > "$out/cmd"
echo >> "$out/cmd"

# TCG: this machine's /dev/kvm cannot run a standard kernel. Multi-threaded
# TCG needs QEMU >= 8 (7.2 oopses SMP guests during text patching); older
# QEMUs get the single-threaded fallback.
accel=tcg
qver=$(qemu-system-x86_64 --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
[ "${qver:-0}" -ge 8 ] || accel=tcg,thread=single
# Instruction counting needs one TCG thread for all vCPUs; sleep=off lets
# an idle guest jump to its next timer instead of waiting in real time.
icount_args=()
[ $single = 1 ] && accel=tcg,thread=single
if [ $icount = 1 ]; then
	accel=tcg,thread=single
	# shellcheck disable=SC2054 # one option's value, not two
	icount_args=(-icount shift=0,sleep=off)
fi

cmdline="console=ttyS0 root=sliceextroot rootfstype=9p"
cmdline+=" rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose"
cmdline+=" ro init=$top/tests/vm/init panic=-1 oops=panic panic_on_warn=0"
cmdline+=" printk.devkmsg=on loglevel=6 tsc=reliable"
cmdline+=" SLICEEXT_OUT=sliceextout SLICEEXT_CMD=cmd SLICEEXT_CWD=$PWD"
cmdline+=" SLICEEXT_MODROOT=$MODROOT $append"

start=$(date +%s)
set +e
timeout --signal=KILL "$timeout" qemu-system-x86_64 \
	-accel "$accel" "${icount_args[@]}" -cpu max -smp "$cpus" -m "$mem" \
	-nodefaults -no-reboot -display none -monitor none \
	-serial "file:$out/console.log" \
	-kernel "$BZIMAGE" -append "$cmdline" \
	-fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap \
	-device virtio-9p-pci,fsdev=root,mount_tag=sliceextroot \
	-fsdev local,id=out,path="$out",security_model=none,multidevs=remap \
	-device virtio-9p-pci,fsdev=out,mount_tag=sliceextout
qrc=$?
set -e
elapsed=$(( $(date +%s) - start ))

[ -f "$out/output" ] && cat "$out/output"

if [ $qrc = 137 ]; then
	echo "vm.sh: guest timed out after ${timeout}s; last console lines:" >&2
	tail -n 30 "$out/console.log" >&2
	exit 124
fi
if [ ! -f "$out/rc" ]; then
	echo "vm.sh: guest ended without a result (qemu exit $qrc); console:" >&2
	tail -n 50 "$out/console.log" >&2
	exit 125
fi

# The console holds what dmesg may not (a panic); dmesg what the console
# may have dropped. Check both.
if ! "$top/scripts/splat-scan.sh" "$out/console.log" "$out/dmesg" >&2; then
	exit 1
fi
echo "vm.sh: guest ran ${elapsed}s" >&2
exit "$(cat "$out/rc")"
