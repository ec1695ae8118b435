#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make deb (scripts/deb.sh): the packages build with Debian's tooling,
# lintian finds nothing, and they hold what they should, at the version
# dkms.conf gives. Installing them is 82-deb.sh's job, in the guest.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$SLICEEXT_WORK/deb-host
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")
arch=$(dpkg --print-architecture)
dkms_deb=$out/sliceext-dkms_${ver}_all.deb
tool_deb=$out/sliceext_${ver}_$arch.deb

check_eq "debian/changelog has dkms.conf's version" "$ver" \
	"$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)"

# deb.sh runs lintian --fail-on error,warning on both packages.
rc=0
list=$("$top/scripts/deb.sh" --out "$out" 2>"$SLICEEXT_WORK/deb-host.log") || rc=$?
if [ $rc = 0 ]; then
	ok "scripts/deb.sh builds, lintian clean"
else
	not_ok "scripts/deb.sh builds, lintian clean" "$(tail -n 30 "$SLICEEXT_WORK/deb-host.log")"
fi
grep -E '^[EWI]: ' "$SLICEEXT_WORK/deb-host.log" | sed 's/^/# lintian: /'
check_eq "lintian reports nothing, not even info" "" \
	"$(grep -E '^[EWIPX]: ' "$SLICEEXT_WORK/deb-host.log")"
check_eq "deb.sh prints the two packages" "$(printf '%s\n' "$dkms_deb" "$tool_deb")" "$list"
check_eq "the checkout's debian/ is left clean" "" \
	"$(cd "$top/debian" && ls -d sliceext-dkms sliceext tmp files .debhelper ./*.substvars 2>/dev/null)"

field() { dpkg-deb -f "$1" "$2"; }
check_eq "sliceext-dkms is Architecture: all" all "$(field "$dkms_deb" Architecture)"
check "sliceext-dkms depends on a DKMS with BUILD_EXCLUSIVE_CONFIG" \
	grep -q 'dkms (>= 3.0.3-4~)' <<<"$(field "$dkms_deb" Depends)"
check "sliceext depends on its libraries" \
	grep -q 'libc6' <<<"$(field "$tool_deb" Depends)"

src=usr/src/sliceext-$ver
check_eq "sliceext-dkms: DKMS tree and headers" \
	"$( (echo "./$src/dkms.conf"; echo "./$src/Kbuild"; echo "./$src/Makefile"
	     cd "$top" && ls module/*.[ch] | sed "s|^|./$src/|"
	     echo ./usr/include/sliceext/rseq_slice.h
	     ls uapi/linux/*.h | sed 's|^uapi|./usr/include/sliceext|'
	     echo ./usr/share/doc/sliceext-dkms/changelog.gz
	     echo ./usr/share/doc/sliceext-dkms/copyright) | sort)" \
	"$(dpkg-deb -c "$dkms_deb" | awk '$1 !~ /^d/ { print $6 }' | sort)"
check_eq "sliceext: the tool and its man page" \
	"$(printf '%s\n' ./usr/sbin/sliceext ./usr/share/doc/sliceext/changelog.gz \
		./usr/share/doc/sliceext/copyright ./usr/share/man/man8/sliceext.8.gz)" \
	"$(dpkg-deb -c "$tool_deb" | awk '$1 !~ /^d/ { print $6 }' | sort)"

x=$SLICEEXT_WORK/deb-x
dpkg-deb -x "$dkms_deb" "$x"
dpkg-deb -x "$tool_deb" "$x"
check "the packaged dkms.conf is the tree's" cmp "$top/dkms.conf" "$x/$src/dkms.conf"
check_eq "the packaged tool has the version" "sliceext $ver" "$("$x/usr/sbin/sliceext" --version)"
check "the example builds against the packaged headers alone" \
	gcc -O2 -Wall -Werror -pthread -I "$x/usr/include/sliceext" \
	-o "$SLICEEXT_WORK/deb-example" "$top/tools/examples/slice_ext_example.c"
check "maintainer scripts register and remove the module with DKMS" \
	bash -c "dpkg-deb -I '$dkms_deb' postinst | grep -q 'common.postinst' &&
		 dpkg-deb -I '$dkms_deb' prerm | grep -q 'dkms remove -m \$DKMS_NAME'"

rm -rf "$out" "$x" "$SLICEEXT_WORK/deb-example"
tap_done
