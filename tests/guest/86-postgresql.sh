#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/examples/postgresql's patched PostgreSQL on sliceext: the server
# starts, each session enables the extension on glibc's rseq area, and
# pgbench beside CPU hogs is served while the backends' lock holds reach
# the module as requests that it grants; with slice_extension = off no
# request comes; with glibc's registration off (what mainline 7.3 needs)
# the sessions ask on an area of their own. SLICEEXT_POSTGRES is the
# build's install directory (tests/run builds it).
# timeout: 600
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

pg=${SLICEEXT_POSTGRES:-}
if [ -z "$pg" ] || [ ! -x "$pg/bin/postgres" ]; then
	skip "PostgreSQL under pgbench" \
		"no PostgreSQL build (SLICEEXT_POSTGRES: tools/examples/postgresql/fetch-build.sh)"
	exit 0
fi
d=/sys/kernel/debug/sliceext/ext
hogs=()
stop_hogs() {
	# Not a bare "wait": it would wait for the server too.
	[ ${#hogs[@]} -gt 0 ] || return 0
	kill "${hogs[@]}" 2>/dev/null
	wait "${hogs[@]}" 2>/dev/null
	hogs=()
}
trap 'stop_hogs; pg_cleanup' EXIT

# bench SECONDS: pgbench's select-only script, 4 clients on 2 threads;
# its output in $res, its status in $rc.
bench() {
	res=$(pg_as pgbench -h "$PG_DIR/run" -S -c 4 -j 2 -T "$1" postgres 2>&1)
	rc=$?
	echo "$res" | grep -E '^(tps|number of (transactions|failed))' | sed 's/^/# /'
}
tps_above_0() {
	awk -v t="$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' <<<"$res")" \
		'BEGIN { exit !(t > 0) }'
}
# logged TEXT: whether the server's log has a line with TEXT since the
# server started last.
log_from=0
logged() {
	tail -c +$((log_from + 1)) "$PG_DIR/run/server.log" | grep -qF -- "$1"
}
# restart [NAME=VALUE...] [SERVER-ARG...]: the server anew, its log read
# from here on; every process logs whether it enabled the extension.
restart() {
	pg_stop
	log_from=$(stat -c %s "$PG_DIR/run/server.log" 2>/dev/null || echo 0)
	pg_start "$@" -c log_min_messages=debug1
}
show() {
	pg_as psql -h "$PG_DIR/run" -X -At -c "SHOW $1" postgres
}

check "modprobe sliceext" modprobe sliceext

pg_setup "$pg" "$(mktemp -d)"
rc=$?
check_eq "initdb on tmpfs, as nobody" 0 $rc
[ $rc = 0 ] || tail -n 20 "$PG_DIR/run/initdb.log" | sed 's/^/# /'
restart
check_eq "the server starts" 0 $?
pg_as pgbench -h "$PG_DIR/run" -i -s 2 -q postgres > "$PG_DIR/run/init.log" 2>&1
check_eq "pgbench -i -s 2" 0 $?
check_eq "slice_extension is on by default" on "$(show slice_extension)"
check "the sessions enabled the extension on glibc's area" \
	logged "time slice extension enabled, on glibc's rseq area"
pid=$(pg_as psql -h "$PG_DIR/run" -X -At -c \
	"SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'" postgres)
check "so did the checkpointer, with the server's setting" \
	logged "[$pid] DEBUG:  time slice extension enabled"

# Two busy loops per vCPU in the server's own session: backends are
# preempted, some of them holding a lock.
for _ in 1 2 3 4; do
	(while :; do :; done) &
	hogs+=($!)
done
echo 0 > $d/stats
bench 10
check_eq "pgbench -S beside 4 hogs: exit 0" 0 "$rc"
check "it served transactions (tps > 0)" tps_above_0
sed 's/^/#   /' $d/stats
check "requested moved" test "$(ext_stat requested)" -gt 0
check "granted moved" test "$(ext_stat granted)" -gt 0

restart -c slice_extension=off
check_eq "the server restarts with slice_extension = off" 0 $?
check_eq "SHOW slice_extension: off" off "$(show slice_extension)"
echo 0 > $d/stats
bench 5
check_eq "slice_extension = off: pgbench exits 0" 0 "$rc"
check "slice_extension = off: it served transactions" tps_above_0
check_eq "slice_extension = off: requested did not move" 0 "$(ext_stat requested)"
check_fails "slice_extension = off: no process enabled the extension" \
	logged "time slice extension"

# Mainline 7.2 and later serve the extension only on areas larger than
# glibc's: with glibc's off, the patch registers one of its own.
restart GLIBC_TUNABLES=glibc.pthread.rseq=0
check_eq "the server restarts with glibc's rseq registration off" 0 $?
echo 0 > $d/stats
bench 5
check_eq "own rseq area: pgbench exits 0" 0 "$rc"
check "own rseq area: the sessions enabled the extension there" \
	logged "time slice extension enabled, on our own rseq area"
check_fails "own rseq area: nothing on glibc's" logged "on glibc's rseq area"
check "own rseq area: requested moved" test "$(ext_stat requested)" -gt 0

stop_hogs
pg_stop
check_eq "the server stops (fast shutdown)" 0 $?
# pg_isready, polling while the server starts, gets it to log a FATAL
# "the database system is starting up": no trouble.
check_eq "the server logged no error, warning or crash" "" \
	"$(grep -E '(ERROR|WARNING|FATAL|PANIC):|terminated by signal' \
		"$PG_DIR/run/server.log" | grep -v 'the database system is starting up')"
[ "$tap_failed" = 0 ] || tail -n 40 "$PG_DIR/run/server.log" | sed 's/^/# /'
check "modprobe -r sliceext" modprobe -r sliceext
tap_done
