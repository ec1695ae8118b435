# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # bench-guest.sh's globals
#
# Sourced by scripts/bench-guest.sh: g) PostgreSQL under pgbench, the
# server restarted only where slice_extension changes.

# pg_switch off|on: the server running with slice_extension so, restarted
# if it ran with the other; false if it does not start. The setting is
# the whole server's, auxiliary processes included.
pg_on=
pg_switch() {
	[ "$pg_on" = "$1" ] && return 0
	pg_stop
	pg_on=
	pg_start "${pg_env[@]}" "${pg_conf[@]}" -c "slice_extension=$1" || return 1
	pg_on=$1
}

pg_rows() {	# off|on: the rows of that switch, in the points file's order
	local id
	for id in $(points postgres); do
		[ "${config[postgres/$id]%%+*}" != "$1" ] || echo "$id"
	done
}

# pg_why: the last line of the setup's logs that says something.
pg_why() {
	cat "$PG_DIR/run/initdb.log" "$PG_DIR/run/server.log" \
		"$PG_DIR/run/init.log" 2>/dev/null |
		grep -vE '^$|DEBUG:' | tail -n 1
}

pgbench_run() {	# ID REPEAT
	local id=$1 r=$2 script=() stats=()
	case $id in *ro_*) script=(-S) ;; esac
	[ "$kind" != sliceext ] || stats=(--ext-stats "$d/ext/stats")
	# Each run starts from a checkpoint, so that the full-page writes
	# after one fall alike in every run.
	pg_as psql -h "$PG_DIR/run" -X -q -c CHECKPOINT postgres >/dev/null 2>&1
	if [ "${place[postgres/$id]}" != - ] &&
		! start_load "${place[postgres/$id]}" -- --hogs "$lock_hogs"; then
		fail_run postgres "$id" "$r" "could not place the hogs (${place[postgres/$id]})"
		return
	fi
	pg_argv pgbench -h "$PG_DIR/run" -c "$pg_clients" -j "$pg_threads" \
		-T "$duration" --log --log-prefix="$PG_DIR/run/pgbench" \
		"${script[@]}" postgres
	tags postgres "$id"
	rec run "$results" "${T[@]}" --repeat "$r" --format pgbench \
		--pgbench-log "$PG_DIR/run/pgbench" \
		--server-log "$PG_DIR/run/server.log" "${stats[@]}" \
		--timeout $((4 * duration + 120)) -- "${PG_ARGV[@]}" || failed=1
	stop_load
}

part_postgres() {
	local why r sw id switches
	echo "== g) PostgreSQL: pgbench -c $pg_clients -j $pg_threads, scale" \
		"$pg_scale, select-only and TPC-B-like, beside load --hogs $lock_hogs or alone"
	if [ -z "$pg" ] || [ ! -x "$pg/bin/postgres" ]; then
		skip_part postgres "PostgreSQL not built (tools/examples/postgresql/fetch-build.sh)"
		return
	fi
	if why=$(tool_missing load); then
		skip_part postgres "$why"
		return
	fi
	if ! pg_setup "$pg" "$(mktemp -d)" || ! pg_switch off ||
		! pg_as pgbench -h "$PG_DIR/run" -i -s "$pg_scale" -q postgres \
			> "$PG_DIR/run/init.log" 2>&1; then
		why="PostgreSQL did not start: $(pg_why)"
		for id in $(points postgres); do
			fail_run postgres "$id" 1 "$why"
		done
		pg_cleanup
		return
	fi
	# The server restarts only where the switch changes: one switch's rows
	# after the other's, each first in every other round.
	for r in $(seq 1 "$repeat"); do
		switches="off on"
		[ $((r % 2)) = 1 ] || switches="on off"
		for sw in $switches; do
			for id in $(pg_rows "$sw"); do
				cfg postgres "$id" "$r" || continue
				if ! pg_switch "$sw"; then
					fail_run postgres "$id" "$r" "the server did not restart: $(pg_why)"
					continue
				fi
				pgbench_run "$id" "$r"
			done
		done
	done
	pg_cleanup
	restore
}
