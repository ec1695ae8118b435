#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The sliceext tool on the build host, where no sliceext kernel runs: it
# builds without warnings, its usage, its refusals of bad command lines
# (exit 2, a message, nothing on stdout) before it looks at the system,
# its man page, and what "make install" puts where.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$SLICEEXT_WORK/cli
mkdir -p "$work"
s=$work/sliceext

if ! out=$(make -s -C "$top/tools/sliceext" O="$work" \
	CFLAGS="-O2 -g -Wall -Wextra -Werror" 2>&1); then
	not_ok "builds with -Wall -Wextra -Werror" "$out"
	tap_done
	exit
fi
ok "builds with -Wall -Wextra -Werror"

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")
check_eq "--version is dkms.conf's" "sliceext $ver" "$("$s" --version)"
check_eq "-V" "sliceext $ver" "$("$s" -V)"
help=$("$s" --help)
check_eq "--help exits 0" 0 $?
for w in status "stat \[-i SECONDS\] \[-n COUNT\] \[--hist\] \[--json\]" \
	 "top \[-p PID\] \[-n COUNT\] \[-d SECONDS\]" "set KNOB VALUE" "Exit status"; do
	check "--help shows '$w'" grep -q -- "$w" <<<"$help"
done
check_eq "stat --help is the same help" "$help" "$("$s" stat --help)"
check_eq "set --help is the same help" "$help" "$("$s" set --help)"

# usage_error ARGS...: exit 2, a message naming the tool, nothing on stdout.
usage_error() {
	local rc=0 out
	out=$("$s" "$@" 2>"$work/err") || rc=$?
	if [ "$rc" = 2 ] && [ -z "$out" ] && grep -q '^sliceext' "$work/err"; then
		ok "sliceext $* exits 2"
	else
		not_ok "sliceext $* exits 2" "exit $rc" "stdout: $out" "stderr: $(cat "$work/err")"
	fi
}
usage_error
usage_error bogus
usage_error --bogus
usage_error -x
usage_error stat -x
usage_error stat --bogus
usage_error stat -i
usage_error stat -i 0
usage_error stat -i -1
usage_error stat -i abc
usage_error stat -i 1x
usage_error stat -i 86401
usage_error stat -i nan
usage_error stat -n 0
usage_error stat -n -1
usage_error stat -n 1.5
usage_error stat extra
usage_error top -p
usage_error top -p 0
usage_error top -p abc
usage_error top -p 99999999999
usage_error top -d 0
usage_error top -n x
usage_error top extra
usage_error status extra
usage_error status --json
usage_error set
usage_error set ext/enabled
usage_error set ext/enabled 1 2
usage_error set nosuch 1
usage_error set ext/slice_ext_nsec 4999
usage_error set ext/slice_ext_nsec 50001
usage_error set ext/slice_ext_nsec abc
usage_error set ext/slice_ext_nsec -1
usage_error set ext/slice_ext_nsec ""
usage_error set burst/penalty_offset 64

"$s" set ext/slice_ext_nsec 4999 2>"$work/err"
check "out of range names the range and default" \
	grep -qx "sliceext set: ext/slice_ext_nsec: 4999 is out of range 5000-50000 (default 5000)" "$work/err"
"$s" set ext/slice_ext_nsec 5us 2>"$work/err"
check "malformed names the range" \
	grep -q "'5us' is not a decimal number; the range is 5000-50000" "$work/err"
# The tool's table is made from the module's knob list: it must list
# every knob of it.
"$s" set nosuch 1 2>"$work/err"
check_eq "unknown knob lists as many knobs as module/knob_list.h has" \
	"$(grep -c '^SLICEEXT_KNOB(' "$top/module/knob_list.h")" \
	"$(grep -c '^  [a-z]*/[a-z_]* ' "$work/err")"

# This host runs no sliceext module: a valid command gets that far.
rc=0
"$s" set ext/enabled 1 >/dev/null 2>"$work/err" || rc=$?
if [ "$(id -u)" = 0 ]; then
	check_eq "set without the module exits 3" 3 "$rc"
	check "... and says to load it" grep -q "modprobe sliceext" "$work/err"
else
	check_eq "set as non-root exits 3" 3 "$rc"
fi
rc=0
st=$("$s" status 2>"$work/err") || rc=$?
check_eq "status without the module exits 3" 3 "$rc"
check "status without the module says so on stderr" grep -q "not loaded" "$work/err"
check "status still prints the knob table" \
	grep -qE '^burst/cache_lifetime_ns +- +0-1000000000 +75000000$' <<<"$st"

# The man page: no groff warnings (what lintian runs).
check_eq "sliceext.8 renders without warnings" "" \
	"$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z \
		"$top/tools/sliceext/sliceext.8" 2>&1 >/dev/null)"

# make install: PREFIX and DESTDIR, the tool, the man page, the headers;
# the headers are enough to build the example.
root=$work/root
if out=$(make -s -C "$top" install DESTDIR="$root" PREFIX=/usr 2>&1); then
	ok "make install DESTDIR=... PREFIX=/usr"
else
	not_ok "make install DESTDIR=... PREFIX=/usr" "$out"
fi
check_eq "make install: files" \
	"$(printf '%s\n' /usr/include/sliceext/linux/prctl.h /usr/include/sliceext/linux/rseq.h \
		/usr/include/sliceext/rseq_slice.h /usr/sbin/sliceext /usr/share/man/man8/sliceext.8)" \
	"$(cd "$root" && find . -type f | sed 's/^\.//' | sort)"
check "make install: the tool is executable" test -x "$root/usr/sbin/sliceext"
check "the example builds against the installed headers" \
	gcc -O2 -Wall -Werror -pthread -I "$root/usr/include/sliceext" \
	-o "$work/example" "$top/tools/examples/slice_ext_example.c"

rm -rf "$work"
tap_done
