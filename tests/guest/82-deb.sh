#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages as a user installs them (docs/user-guide.md,
# "Install"): dpkg installs them from the files, offline; DKMS builds and
# installs the module for the running kernel and skips, with its message,
# a kernel without CONFIG_SCHED_SLICEEXT; the module loads, a requester
# gets extensions; purging removes it all. (tests/host/deb.sh builds a
# program against the packaged headers.) Leaves the module as 00-dkms.sh
# installed it, for the tests after this.
#
# DKMS compiles the module in the guest: minutes under TCG.
# timeout: 1500
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

kver=$(uname -r)
ver=$SLICEEXT_VERSION
dkms_deb=$SLICEEXT_DEB/sliceext-dkms_${ver}_all.deb
tool_deb=$SLICEEXT_DEB/sliceext_${ver}_$(dpkg --print-architecture).deb
# A second kernel whose configuration lacks the core patch; "newest" for
# the package's postinst, which builds for the running and the newest one.
nopatch=6.99.0-nopatch

cleanup() {
	rm -rf "/lib/modules/$nopatch" "/boot/config-$nopatch"
}
trap cleanup EXIT
export DEBIAN_FRONTEND=noninteractive
# udev gives a real system's /dev this link; the VM's bare devtmpfs lacks
# it, and dkms's <(...) needs it.
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
# Indexing every man page again takes minutes under TCG and tests nothing
# of ours (the guest's root is an overlay: the host keeps its setting).
rm -f /var/lib/man-db/auto-update

check "the packages were built" test -f "$dkms_deb" -a -f "$tool_deb"

# 00-dkms.sh installed the module from the runner's DKMS tree; a second
# copy would make the package's "dkms install" refuse.
modprobe -r sliceext 2>/dev/null
check "dkms uninstall 00-dkms.sh's module" \
	dkms uninstall -m sliceext -v "$ver" -k "$kver" $DKMS_OPTS
check_fails "no sliceext module installed" modinfo -n sliceext

mkdir -p "/lib/modules/$nopatch/build/include"
grep -v 'SCHED_SLICEEXT' "/lib/modules/$kver/build/.config" \
	> "/lib/modules/$nopatch/build/.config"
grep -v 'SCHED_SLICEEXT' "/lib/modules/$kver/build/.config" > "/boot/config-$nopatch"

# docs/user-guide.md says "apt install ./sliceext-dkms_*.deb
# ./sliceext_*.deb": the same maintainer scripts run under dpkg -i, without apt's solver going
# over every package list (minutes under TCG). dpkg refuses packages whose
# dependencies are not installed, so this also shows that the guest, which
# has no network, needs nothing more.
out=$(dpkg -i "$dkms_deb" "$tool_deb" 2>&1)
rc=$?
grep -v '^(Reading database' <<<"$out" | sed 's/^/# /'
check_eq "dpkg -i sliceext-dkms_*.deb sliceext_*.deb" 0 $rc
[ $rc = 0 ] || sed 's/^/# make.log: /' "/var/lib/dkms/sliceext/$ver/build/make.log" 2>/dev/null
for p in sliceext-dkms sliceext; do
	check_eq "$p installed" "install ok installed" \
		"$(dpkg-query -W -f='${Status}' $p 2>/dev/null)"
done
check_eq "dpkg --audit finds nothing" "" "$(dpkg --audit)"
check "DKMS built for the running kernel" \
	grep -q "Building initial module for $kver" <<<"$out"
check "DKMS skipped the kernel without the core patch, saying why" \
	grep -q "for module sliceext includes a BUILD_EXCLUSIVE directive which does not match this kernel" <<<"$out"
check_eq "dkms status: installed for $kver only" \
	"sliceext/$ver, $kver, $(uname -m): installed" \
	"$(dkms status -m sliceext -v "$ver" | grep "$kver\|$nopatch")"
check "the module source is under /usr/src" test -f "/usr/src/sliceext-$ver/dkms.conf"
check_eq "installed module's version" "$ver" "$(modinfo -F version sliceext 2>/dev/null)"
check "installed where DKMS puts it" \
	grep -q "^/lib/modules/$kver/updates/dkms/sliceext.ko" <<<"$(modinfo -n sliceext 2>/dev/null)"

check "modprobe sliceext" modprobe sliceext
check "the packaged tool works" /usr/sbin/sliceext status
check "its man page is installed" test -f /usr/share/man/man8/sliceext.8.gz

check "the headers are installed" test -f /usr/include/sliceext/rseq_slice.h
echo 0 > /sys/kernel/debug/sliceext/ext/stats
res=$("$SLICEEXT_BIN/ext_grant" yield 2)
echo "$res" | sed 's/^/# /'
check "a requester is granted extensions" test "$(ext_stat granted)" -gt 0
check "modprobe -r sliceext" modprobe -r sliceext

out=$(dpkg --purge sliceext-dkms sliceext 2>&1)
rc=$?
grep -v '^(Reading database' <<<"$out" | sed 's/^/# /'
check_eq "dpkg --purge sliceext-dkms sliceext" 0 $rc
for p in sliceext-dkms sliceext; do
	check_fails "$p is gone" dpkg-query -W -f='${Status}' $p
done
check_fails "the module is gone" modinfo -n sliceext
check_fails "modprobe sliceext fails" modprobe sliceext
check_eq "DKMS knows no sliceext" "" "$(dkms status -m sliceext)"
check_fails "/usr/src/sliceext-$ver is gone" test -e "/usr/src/sliceext-$ver"
check_fails "the tool is gone" test -e /usr/sbin/sliceext
check_fails "the headers are gone" test -e /usr/include/sliceext
check_fails "a requester now finds no extension" "$SLICEEXT_BIN/ext_grant" yield 0.1

check "dkms install 00-dkms.sh's module again" \
	dkms install -m sliceext -v "$ver" -k "$kver" $DKMS_OPTS
check_eq "the module is back" "$ver" "$(modinfo -F version sliceext 2>/dev/null)"
tap_done
