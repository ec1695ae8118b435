# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # bench-guest.sh's globals
#
# Sourced by scripts/bench-guest.sh: f) the wakeup probe, every
# configuration in every placement, its worker woken each way of --wakes
# (wakeup_lat --wake), in alternate or given order.

# The configurations of round R: with --order alternate, each runs first
# in every other round (a configuration's runs can depend on the one
# before them: docs/log/2026-12-07-burst-notebook.md).
round_configs() {	# R
	# shellcheck disable=SC2086 # a list of words
	if [ "$order" = alternate ] && [ $(($1 % 2)) -eq 0 ]; then
		printf '%s\n' $probe_configs | tac
	else
		printf '%s\n' $probe_configs
	fi
}

# The probe's point of PLACEMENT, CONFIG and WAKE: its id, as
# bench-record.py probe-points named it.
probe_point() {	# PLACEMENT CONFIG WAKE
	local id
	for id in $(points probe); do
		if [ "${place[probe/$id]} ${config[probe/$id]} ${wake[probe/$id]}" = "$1 $2 $3" ]; then
			echo "$id"
			return
		fi
	done
}

part_probe() {
	local why r pl wk c pos id wake_args
	echo "== f) wakeup probe: wakeup_lat ${probe_args[*]}${pin:+ pinned to CPU $pin}" \
		"beside load --hogs $probe_hogs; configurations $probe_configs; hogs" \
		"$probe_places; woken by $probe_wakes; $order order"
	if why=$(tool_missing wakeup_lat load); then
		skip_part probe "$why"
		return
	fi
	for r in $(seq 1 "$repeat"); do
		for pl in $probe_places; do
			for wk in $probe_wakes; do
				# futex, the first, is the tool's default: the
				# command as it always was.
				wake_args=()
				[ "$wk" = futex ] || wake_args=(--wake "$wk")
				pos=0
				for c in $(round_configs "$r"); do
					pos=$((pos + 1))
					id=$(probe_point "$pl" "$c" "$wk")
					cfg probe "$id" "$r" || continue
					if ! start_load "$pl" -- --hogs "$probe_hogs"; then
						fail_run probe "$id" "$r" "could not place the hogs ($pl)"
						continue
					fi
					run_tool probe "$id" "$r" --tag "position=$pos" \
						${pin:+taskset -c "$pin"} "$bin/wakeup_lat" \
						"${probe_args[@]}" "${wake_args[@]}"
					stop_load
					# Hogs still running would load every run after.
					if pgrep -x load >/dev/null; then
						fail_run probe "$id" "$r" "hogs left running after the run; the probe stops here"
						restore
						return
					fi
				done
			done
		done
	done
	restore
}
