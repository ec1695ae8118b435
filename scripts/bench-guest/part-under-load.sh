# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # bench-guest.sh's globals
#
# Sourced by scripts/bench-guest.sh: b) wakeup latency and c) compute,
# each row alone or beside a load of hogs and forkers in a placement.

# The load's shape, by id: nice 19 or SCHED_IDLE, or hogs only (what the
# forkers add across groups).
prefix_of() {
	case $1 in
	*_nice) echo "nice -n 19" ;;
	*_idle|idle) echo "chrt -i 0" ;;
	esac
}
forkers_of() { case $1 in *_hogs) echo 0 ;; *) echo "$load_forkers" ;; esac; }

# under_load PART ID REPEAT CMD...
under_load() {
	local part=$1 id=$2 r=$3 lpre
	read -ra lpre <<<"$(prefix_of "$id")"
	shift 3
	if ! start_load "${place[$part/$id]}" "${lpre[@]}" -- \
		--hogs "$load_hogs" --forkers "$(forkers_of "$id")"; then
		fail_run "$part" "$id" "$r" "could not place the load (${place[$part/$id]})"
		return
	fi
	run_tool "$part" "$id" "$r" "$@"
	stop_load
}

part_under_load() {	# PART CMD...
	local part=$1 r id
	shift
	for r in $(seq 1 "$repeat"); do
		for id in $(points "$part"); do
			cfg "$part" "$id" "$r" || continue
			if [ "${place[$part/$id]}" = - ]; then
				run_tool "$part" "$id" "$r" "$@"
			else
				under_load "$part" "$id" "$r" "$@"
			fi
		done
	done
	restore
}

part_latency() {
	local why
	echo "== b) wakeup latency under load: load --hogs $load_hogs" \
		"--forkers $load_forkers in the background"
	if why=$(tool_missing wakeup_lat load); then
		skip_part latency "$why"
		return
	fi
	part_under_load latency "$bin/wakeup_lat" --message-threads 2 \
		--workers 4 --work-us 300 --interval-us 2000
}

part_compute() {
	local why
	echo "== c) compute: one thread alone and under load --hogs $load_hogs" \
		"--forkers $load_forkers"
	if why=$(tool_missing compute load); then
		skip_part compute "$why"
		return
	fi
	part_under_load compute "$bin/compute" --threads 1
}
