#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build linux-image and linux-headers packages of Debian's 6.12 with the
# sliceext core patch (make kernel-deb), so that a Debian user installs the
# patched kernel like any other and DKMS finds its headers.
#
# From /usr/src/linux-source-6.12.tar.xz, with patches/6.12/*.patch
# applied, the configuration CONFIG (default: the running kernel's) plus
# CONFIG_SCHED_SLICEEXT=y, "make olddefconfig", then "make bindeb-pkg".
# Takes about an hour on two cores with a distribution configuration.
#
# Usage: scripts/kernel-deb.sh [options]
#   --config FILE    configuration to start from
#                    (default: /boot/config-$(uname -r))
#   --out DIR        where the source tree is unpacked and the packages
#                    are written (default: build/kernel-deb)
#   --localversion S appended to the kernel release (default: -sliceext),
#                    so that the packages never replace Debian's kernel
#   --config-only    stop after the configuration step; print the
#                    resulting .config
#   -j N             parallel jobs (default: the number of CPUs)
#
# The unpacked and patched tree is kept in OUT and reused while the
# source package and the patches stay the same.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tarball=/usr/src/linux-source-6.12.tar.xz
config=/boot/config-$(uname -r)
out=$top/build/kernel-deb
localversion=-sliceext
config_only=0
jobs=$(nproc)

log() { echo "kernel-deb.sh: $*" >&2; }
usage_error() { log "$*"; log "see --help"; exit 2; }

while [ $# -gt 0 ]; do
	case $1 in
	--config|--out|--localversion|-j)
		[ $# -ge 2 ] && [ -n "$2" ] || usage_error "$1 needs a value"
		case $1 in
		--config) config=$2 ;;
		--out) out=$2 ;;
		--localversion) localversion=$2 ;;
		-j) jobs=$2 ;;
		esac
		shift 2 ;;
	--config-only) config_only=1; shift ;;
	-h|--help) sed -n 's/^# \{0,1\}//; 3,25p' "$0"; exit 0 ;;
	*) usage_error "unknown argument '$1'" ;;
	esac
done

[[ $jobs =~ ^[1-9][0-9]*$ ]] || usage_error "-j: '$jobs' is not a number of jobs"
[[ $localversion =~ ^[-+.~a-z0-9]*$ ]] ||
	usage_error "--localversion: '$localversion' has characters a Debian package version cannot hold"
[ -f "$config" ] && [ -r "$config" ] ||
	usage_error "no configuration file $config (name one with CONFIG=/boot/config-...)"
grep -q '^CONFIG_[A-Z0-9_]*=' "$config" ||
	usage_error "$config is not a kernel configuration"

"$top/scripts/deps.sh" build >&2
"$top/scripts/deps.sh" package >&2

mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$out/linux-6.12
config=$(realpath "$config")

# Unpack and patch once per source package version and patch series.
stamp="$(dpkg-query -W -f='${Version}' linux-source-6.12) $(cat "$top"/patches/6.12/*.patch | sha256sum | cut -c1-16)"
if [ "$(cat "$src/.sliceext-source" 2>/dev/null)" != "$stamp" ]; then
	log "unpacking $tarball into $src"
	rm -rf "$src"
	mkdir -p "$src"
	tar -xf "$tarball" -C "$src" --strip-components=1
	for p in "$top"/patches/6.12/*.patch; do
		patch -d "$src" -p1 -s --forward < "$p"
	done
	echo "$stamp" > "$src/.sliceext-source"
fi

cp "$config" "$src/.config"
cfg() { "$src/scripts/config" --file "$src/.config" "$@"; }
cfg --enable SCHED_SLICEEXT \
	--set-str LOCALVERSION "$localversion" --disable LOCALVERSION_AUTO
# Debian's configurations name its own signing certificates, which only
# its build tree has; the kernel then trusts its built-in keys only.
for key in SYSTEM_TRUSTED_KEYS SYSTEM_REVOCATION_KEYS; do
	f=$(cfg --state "$key")
	if [ -n "$f" ] && [ "$f" != undef ] && [ "$f" != n ] && [ ! -e "$src/$f" ] && [ ! -e "$f" ]; then
		log "$key: $f does not exist here, cleared"
		cfg --set-str "$key" ""
	fi
done
make -s -C "$src" olddefconfig

if ! grep -qx 'CONFIG_SCHED_SLICEEXT=y' "$src/.config"; then
	log "CONFIG_SCHED_SLICEEXT did not stick: it needs CONFIG_RSEQ=y and"
	log "an architecture with GENERIC_ENTRY (x86_64); fix $config"
	exit 1
fi
release=$(make -s -C "$src" kernelrelease)
log "configured $release from $config"
if [ "$config_only" = 1 ]; then
	echo "$src/.config"
	exit 0
fi

rm -f "$out"/linux-*.deb "$out"/linux-upstream_*
make -C "$src" -j"$jobs" bindeb-pkg >&2
ls "$out"/linux-image-"$release"_*.deb "$out"/linux-headers-"$release"_*.deb
