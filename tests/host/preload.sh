#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# libsliceext-preload.so (tools/preload, docs/preload.md) on the build
# host, which has no slice extension: it builds without a warning,
# exports exactly the wrapped functions, and programs run under it as
# without it (same output, exit 0, nothing on stderr), whatever
# SLICEEXT_PRELOAD_LOCKS says; a bad value costs one line on stderr.
# Also bench_locks' options and make install. What the library does
# where the kernel serves the extension: tests/guest/84-preload.sh.
. "$(dirname "$0")/../lib/tap.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

if [ -n "${SLICEEXT_WORK:-}" ]; then
	b=$SLICEEXT_WORK/preload
	mkdir -p "$b"
else
	b=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$b'" EXIT
fi
lib=$b/libsliceext-preload.so

# An inherited CFLAGS must not drop -Werror.
if ! out=$(make -s -C "$top/tools/preload" O="$b" \
	CFLAGS="-O2 -Wall -Wextra -Werror" 2>&1); then
	not_ok "tools/preload builds with -O2 -Wall -Wextra -Werror" "$out"
	tap_done
	exit
fi
check_eq "tools/preload builds with -O2 -Wall -Wextra -Werror" "" "$out"

wrapped="pthread_cond_clockwait pthread_cond_timedwait pthread_cond_wait
pthread_mutex_clocklock pthread_mutex_lock pthread_mutex_timedlock
pthread_mutex_trylock pthread_mutex_unlock pthread_rwlock_clockrdlock
pthread_rwlock_clockwrlock pthread_rwlock_rdlock pthread_rwlock_timedrdlock
pthread_rwlock_timedwrlock pthread_rwlock_tryrdlock pthread_rwlock_trywrlock
pthread_rwlock_unlock pthread_rwlock_wrlock pthread_spin_lock
pthread_spin_trylock pthread_spin_unlock"
check_eq "exports exactly the wrapped functions" \
	"$(tr -s ' \n' '\n' <<<"$wrapped" | sort)" \
	"$(nm -D --defined-only "$lib" | awk '{ print $3 }' | sort)"
check_eq "no executable stack, no text relocations" "" \
	"$(readelf -d -l "$lib" | grep -E 'TEXTREL|GNU_STACK.*RWE')"

prog=$b/preload_host
if ! out=$(gcc -O2 -Wall -Wextra -Werror -pthread -o "$prog" \
	"$top/tests/host/preload_host.c" 2>&1) ||
   ! out=$(gcc -O2 -Wall -Wextra -Werror -pthread -shared -fPIC \
	-DPRELOAD_EARLY -o "$b/early.so" "$top/tests/host/preload_host.c" 2>&1); then
	not_ok "build the lock workout" "$out"
	tap_done
	exit
fi

ref=$("$prog" 2>&1)
check_eq "lock workout passes without the library" 0 "$?"
check_eq "the workout's pthread_mutex_lock is the library's" \
	libsliceext-preload.so "$(LD_PRELOAD=$lib "$prog" which)"

# init_order FIRST SECOND: the dynamic linker calls FIRST's constructor
# before SECOND's when both are preloaded, SECOND first in the list.
init_order() {
	LD_DEBUG=files LD_PRELOAD="$2 $1" "$prog" which 2>&1 >/dev/null |
		awk -v a="$1" -v b="$2" '
			/calling init:/ && index($0, a) { ia = NR }
			/calling init:/ && index($0, b) { ib = NR }
			END { exit !(ia && ib && ia < ib) }'
}

# run NAME [ENV=VALUE...]: the workout under the library behaves as
# without it and says nothing on stderr.
run() {
	local name=$1 rc
	shift
	env LD_PRELOAD="$lib" "$@" "$prog" >"$b/out" 2>"$b/err"
	rc=$?
	check_eq "$name: exit 0" 0 "$rc"
	check_eq "$name: same output as without the library" "$ref" "$(cat "$b/out")"
	check_eq "$name: nothing on stderr" "" "$(cat "$b/err")"
}

run "default (all)"
for v in all none mutex spin rwlock cond mutex,cond spin,rwlock all,mutex ""; do
	run "SLICEEXT_PRELOAD_LOCKS=\"$v\"" SLICEEXT_PRELOAD_LOCKS="$v"
done
run "glibc's rseq registration off" GLIBC_TUNABLES=glibc.pthread.rseq=0
run "a library that locks before ours is set up" \
	LD_PRELOAD="$lib $b/early.so"
# Its constructor ran first, and its locks were the library's.
check "the early library's constructor runs before the library's" \
	init_order "$b/early.so" "$lib"

# Bad values: one line on stderr (the workout forks and starts threads),
# the default used, the program unharmed.
for v in mutexx MUTEX "mutex,,spin" "mutex," ",spin" "none,mutex" " mutex" \
	 "all none"; do
	SLICEEXT_PRELOAD_LOCKS=$v LD_PRELOAD=$lib "$prog" >"$b/out" 2>"$b/err"
	check_eq "SLICEEXT_PRELOAD_LOCKS=\"$v\": exit 0" 0 "$?"
	check_eq "SLICEEXT_PRELOAD_LOCKS=\"$v\": same output" "$ref" "$(cat "$b/out")"
	check_eq "SLICEEXT_PRELOAD_LOCKS=\"$v\": one line on stderr" 1 \
		"$(wc -l < "$b/err")"
	check "SLICEEXT_PRELOAD_LOCKS=\"$v\": the message names the variable and the fallback" \
		grep -qE '^libsliceext-preload: SLICEEXT_PRELOAD_LOCKS=".*": .*; using the default, all$' \
		"$b/err"
done

# An unmodified program with threads, mutexes and condition variables.
seq 200000 | sort -R --random-source=/dev/zero > "$b/unsorted"
want=$(sort -n "$b/unsorted" | md5sum)
got=$(LD_PRELOAD=$lib sort -n --parallel=4 -S 1M "$b/unsorted" 2>"$b/err" | md5sum)
check_eq "sort --parallel=4 under the library: same result" "$want" "$got"
check_eq "sort --parallel=4 under the library: nothing on stderr" "" \
	"$(cat "$b/err")"

# bench_locks: its options, and it measures with and without the library.
bl=$b/bench_locks
help=$("$bl" --help)
check_eq "bench_locks --help exits 0" 0 "$?"
missing=
for f in --lock --pairs --repeat --json --help; do
	grep -q -- "$f" <<<"$help" || missing="$missing $f"
done
check_eq "bench_locks --help names every option" "" "$missing"
for args in "--lock futex" "--pairs 0" "--pairs 1x" "--repeat 0" \
	    "--repeat 10001" "--bogus" "stray" "--lock"; do
	# shellcheck disable=SC2086 # split the arguments
	out=$("$bl" $args 2>"$b/err")
	check_eq "bench_locks $args: exit 2" 2 "$?"
	check_eq "bench_locks $args: nothing on stdout" "" "$out"
	check "bench_locks $args: a message on stderr" test -s "$b/err"
done
for l in mutex spin rwlock-rd rwlock-wr; do
	out=$(LD_PRELOAD=$lib "$bl" --lock "$l" --pairs 1000 --repeat 3 --json)
	check_eq "bench_locks --lock $l under the library: exit 0" 0 "$?"
	check "bench_locks --lock $l: JSON names the library and a median" \
		grep -qE "^\{\"tool\":\"bench_locks\",\"lock\":\"$l\",.*\"library\":\"libsliceext-preload.so\",.*\"ns_per_pair_median\":[0-9.]+," <<<"$out"
done
check "bench_locks without the library: lock functions from libc" \
	grep -q '"library":"libc.so.6"' <<<"$("$bl" --pairs 1000 --repeat 3 --json)"

# make install: the library, 0644, where LIBDIR says.
rm -rf "$b/root"
make -s -C "$top/tools/preload" O="$b" DESTDIR="$b/root" install >/dev/null 2>&1
check_eq "make install puts it in /usr/local/lib, mode 644" 644 \
	"$(stat -c %a "$b/root/usr/local/lib/libsliceext-preload.so" 2>&1)"
make -s -C "$top/tools/preload" O="$b" DESTDIR="$b/root" PREFIX=/usr \
	LIBDIR=/usr/lib/x86_64-linux-gnu install >/dev/null 2>&1
check "make install honours PREFIX and LIBDIR" \
	test -f "$b/root/usr/lib/x86_64-linux-gnu/libsliceext-preload.so"
tap_done
