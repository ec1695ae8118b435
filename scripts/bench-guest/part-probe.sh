# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # bench-guest.sh's globals
#
# Sourced by scripts/bench-guest.sh: f) the wakeup probe, every
# configuration in every placement, in alternate or given order.

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

part_probe() {
	local why r pl c pos id
	echo "== f) wakeup probe: wakeup_lat ${probe_args[*]}${pin:+ pinned to CPU $pin}" \
		"beside load --hogs $probe_hogs; configurations $probe_configs; hogs" \
		"$probe_places; $order order"
	if why=$(tool_missing wakeup_lat load); then
		skip_part probe "$why"
		return
	fi
	for r in $(seq 1 "$repeat"); do
		for pl in $probe_places; do
			pos=0
			for c in $(round_configs "$r"); do
				pos=$((pos + 1))
				id=$pl:$c
				cfg probe "$id" "$r" || continue
				if ! start_load "$pl" -- --hogs "$probe_hogs"; then
					fail_run probe "$id" "$r" "could not place the hogs ($pl)"
					continue
				fi
				run_tool probe "$id" "$r" --tag "position=$pos" \
					${pin:+taskset -c "$pin"} "$bin/wakeup_lat" "${probe_args[@]}"
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
	restore
}
