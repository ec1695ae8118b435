#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host half of the DKMS test: "dkms add" and "dkms build" for the test
# kernel into private trees under WORK (so the host's /var/lib/dkms stays
# clean); the guest then runs "dkms install" and "modprobe". Also builds
# a copy of the module that claims another hook ABI, for the refusal test.
#
# Usage: tests/dkms-prepare.sh WORK KVER KBUILD
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib.sh"
work=$1 kver=$2 kbuild=$3
opts="--dkmstree $work/dkms --sourcetree $work/src"

mkdir -p "$work/dkms" "$work/src"
ver=$(sliceext_version "$top")

# What "dkms add" copies: the module's sources and build files only.
stage=$work/stage/sliceext-$ver
stage_module "$top" "$stage"

dkms add $opts "$stage"
dkms build $opts -m sliceext -v "$ver" -k "$kver" --kernelsourcedir "$kbuild"

mkdir -p "$work/badabi"
cp -r "$stage/." "$work/badabi/"
make -s -C "$kbuild" M="$work/badabi" KCFLAGS=-DSLICEEXT_MODULE_ABI=999 modules
