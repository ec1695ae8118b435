# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # bench-guest.sh's globals
#
# Sourced by scripts/bench-guest.sh: the background load (tools/bench's
# load) started in a placement before a run and stopped after it.

# start_load PLACEMENT PREFIX... -- LOAD-ARGS...; stop_load.
start_load() {
	local where=$1 cg='' pre=()
	shift
	while [ "$1" != -- ]; do pre+=("$1"); shift; done
	shift
	# Its own --duration is a safety net only: it is stopped after the run.
	set -- "${pre[@]}" "$bin/load" "$@" --duration $((4 * duration + 120))
	if [ "$where" = cgroup ]; then
		cg=$(load_cgroup bench-load) ||
			{ echo "  warning: no cpu cgroup"; return 1; }
	fi
	(run_placed "$where" "$cg" "$@") >/dev/null 2>&1 &
	load_pid=$!
	sleep 1	# let the hogs and forkers spin up
}

# The load kills and reaps its children on SIGTERM; should it hang, they
# die with it (PR_SET_PDEATHSIG), so no straggler needs hunting down.
stop_load() {
	[ -n "$load_pid" ] || return 0
	kill -TERM "$load_pid" 2>/dev/null
	if ! gone_within "$load_pid" 10; then
		echo "  warning: load ignored SIGTERM for 10 s; killed"
		kill -KILL "$load_pid" 2>/dev/null
	fi
	wait "$load_pid" 2>/dev/null
	load_pid=
}
