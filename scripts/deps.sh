#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages sliceext's build, demo and tests need.
# Debian 12 needs bookworm-backports for linux-source-6.12 and a QEMU
# that runs multi-threaded TCG guests; the suite is added from the mirror
# already configured in the system's apt sources, never a hard-coded host.
#
# Usage: scripts/deps.sh [kernel|build|demo|test|package|all]   (default: all)
#   kernel: what building a kernel and the module takes (scripts/kernel.sh)
#   build: that and the checks' tools (sparse, checkpatch's, git, dkms)
#   demo: what "make demo" needs (a kernel build, QEMU, trace-cmd, the
#         tool's zlib), nothing more
#   package: what "make deb" needs (Debian's packaging tools, lintian)
set -euo pipefail

. "$(dirname "$0")/lib.sh"
what=${1:-all}

# The guest kernels come from allnoconfig and scripts/kconfig/: no BTF,
# module signing or in-kernel headers, so no dwarves, libssl-dev or cpio.
kernel_pkgs="build-essential flex bison bc libelf-dev xz-utils ccache kmod
	     python3"
# sparse for the module's C=1 build, python3-git and -ply for checkpatch's
# SPDX check, git for series-tree.sh and the bench records, rsync for a
# KSRC tree, dkms for the tests' DKMS round.
build_pkgs="$kernel_pkgs libssl-dev cpio dwarves python3-ply python3-git
	    rsync dkms sparse git"
vm_pkgs="qemu-system-x86 busybox-static trace-cmd"
test_pkgs="$vm_pkgs udev procps util-linux rt-tests stress-ng gcc-multilib"
# make bench's pictures and rank tests (scripts/bench-report.py)
bench_pkgs="python3-matplotlib python3-scipy"
src_pkg=linux-source-6.12
package_pkgs="build-essential debhelper dh-dkms dpkg-dev fakeroot lintian
	      zlib1g-dev dkms"

case $what in
kernel) pkgs="$kernel_pkgs $src_pkg" ;;
build) pkgs="$build_pkgs $src_pkg" ;;
demo) pkgs="$kernel_pkgs zlib1g-dev $vm_pkgs $src_pkg" ;;
test|all) pkgs="$build_pkgs $test_pkgs $bench_pkgs $package_pkgs $src_pkg" ;;
package) pkgs=$package_pkgs ;;
*) echo "usage: $0 [kernel|build|demo|test|package|all]" >&2; exit 2 ;;
esac

. /etc/os-release
codename=${VERSION_CODENAME:-}

# Packages that are missing (dpkg-query prints nothing useful for them).
missing() {
	local p
	for p in $pkgs; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed' || echo "$p"
	done
}

# QEMU must come from backports on bookworm: 7.2 oopses SMP TCG guests.
qemu_ok() {
	local v
	v=$(dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null) || return 1
	dpkg --compare-versions "$v" ge 1:8.0
}

# Sets without QEMU need no backports' QEMU.
case " $pkgs " in *" qemu-system-x86 "*) vm=1 ;; *) vm=0 ;; esac

need=$(missing | xargs)
if [ -z "$need" ] && { [ $vm = 0 ] || qemu_ok; }; then
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "sliceext: missing packages: $need" >&2
	echo "sliceext: run as root: apt-get install -t ${codename}-backports $need" >&2
	exit 1
fi

backports=
if [ "$codename" = bookworm ]; then
	backports=bookworm-backports
	if ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
		uri=$(debian_main_uri)
		if [ -z "$uri" ]; then
			echo "sliceext: no Debian archive found in apt sources" >&2
			exit 1
		fi
		printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
			"$uri" > /etc/apt/sources.list.d/sliceext-backports.sources
	fi
fi

export DEBIAN_FRONTEND=noninteractive
apt_install() {
	apt-get install -y -qq -o Acquire::Retries=3 --no-install-recommends "$@"
}
apt-get update -qq -o Acquire::Retries=3
if [ -n "$backports" ] && [ $vm = 1 ]; then
	# QEMU on its own from backports, with its dependencies from there:
	# not first bookworm's 7.2 to replace. The rest stays on the release
	# suites (backports' linux-source-6.12 may be older than security's).
	apt_install ${pkgs/qemu-system-x86/}
	qemu_ok || apt_install -t "$backports" qemu-system-x86
else
	apt_install $pkgs
fi
