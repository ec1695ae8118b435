# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # bench-guest.sh's globals
#
# Sourced by scripts/bench-guest.sh: d) hook overhead, hackbench, a
# syscall loop, a fork loop and a pinned wakeup, each row without the
# module or with it in a configuration.

overhead_state() {	# ID
	local id=$1 r why
	if [ "${config[overhead/$id]}" != - ]; then
		if [ -n "$mod_why" ]; then
			skip overhead "$id" "$mod_why"
			return
		fi
		cfg overhead "$id" 1 || return
	fi
	tags overhead "$id"
	for r in $(seq 1 "$repeat"); do
		# hackbench: 4 groups of 10 senders and 10 receivers over
		# sockets. It has no JSON: bench-record.py takes its "Time:".
		rec run "$results" "${T[@]}" --repeat "$r" --format hackbench \
			--timeout 600 -- hackbench -g 4 -l 200 || failed=1
		if why=$(tool_missing syscall_loop); then
			[ "$r" = 1 ] && skip overhead "$id" "$why" getppid
		else
			run_tool overhead "$id" "$r" "$bin/syscall_loop" --syscall getppid
		fi
		# A fork at the bottom of a deep chain: burst scoring's
		# inheritance walks up the tree, a bounded walk, so a fork
		# should cost the same with the module loaded or not
		# (docs/tools.md, fork_loop).
		if why=$(tool_missing fork_loop); then
			[ "$r" = 1 ] && skip overhead "$id" "$why" fork_loop
		else
			run_tool overhead "$id" "$r" "$bin/fork_loop" --depth "$fork_depth"
		fi
		# One wakeup and switch per millisecond, both threads on one
		# CPU and nothing else running: every hook on the path from a
		# futex wake to the woken thread back in user space, each cycle.
		if why=$(tool_missing wakeup_lat); then
			[ "$r" = 1 ] && skip overhead "$id" "$why" wakeup_lat
		else
			run_tool overhead "$id" "$r" taskset -c 0 "$bin/wakeup_lat" \
				"${pinned_wakeup[@]}"
		fi
	done
}

# The overhead part's rows without the module (configuration "-") run
# before it was ever loaded, the others after.
overhead_rows() {	# without | with
	local id
	for id in $(points overhead); do
		if [ "${config[overhead/$id]}" = - ]; then
			[ "$1" = without ] && echo "$id"
		else
			[ "$1" = with ] && echo "$id"
		fi
	done
	return 0
}
