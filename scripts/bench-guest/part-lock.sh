# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # bench-guest.sh's globals
#
# Sourced by scripts/bench-guest.sh: a) the lock table, its rows
# round-robin beside the hogs, and e) the extension's histogram, one
# extra run per extension length.

# lock_argv CLIENT-PREFIX EXT-FLAG: the lock_table command, in LOCK_ARGV.
# Every kernel runs the same binary on an rseq area it registered itself,
# as large as AT_RSEQ_FEATURE_SIZE asks: mainline serves only those.
lock_argv() {
	local pre ext=()
	read -ra pre <<<"$1"
	[ -n "$2" ] && ext=("$2")
	lock_argv=(env GLIBC_TUNABLES=glibc.pthread.rseq=0 "${pre[@]}"
		"$bin/lock_table" --clients "$lock_clients" --cs-us "$lock_cs_us"
		--outside-us "$lock_out_us" "${ext[@]}")
}

# The mutex rows: the same clients on a pthread mutex, as a program that
# was never changed, under glibc's own rseq registration (which the
# preload library uses), with LD_PRELOAD=LIBRARY or without.
mutex_argv() {	# [LIBRARY]
	lock_argv=(env ${1:+LD_PRELOAD=$1} "$bin/lock_table" --lock mutex
		--clients "$lock_clients" --cs-us "$lock_cs_us"
		--outside-us "$lock_out_us")
}

# The lock table's load shapes, by id: whose nice value or policy changes
# (the configuration says the rest). Rows placed "-" run alone.
lock_clients_prefix() {
	case $1 in
	nice_*) echo "nice -n -20" ;;
	batch) echo "chrt -b 0" ;;
	esac
}
lock_hogs_prefix() { case $1 in nice_19) echo "nice -n 19" ;; esac; }

part_lock() {
	local why pwhy r id hpre
	echo "== a) lock table: $lock_clients clients ($lock_cs_us µs inside," \
		"$lock_out_us µs outside the lock), $lock_hogs hogs, $ncpu CPUs; burst off"
	if why=$(tool_missing lock_table load); then
		skip_part lock "$why"
		return
	fi
	pwhy=
	[ -f "$bin/libsliceext-preload.so" ] ||
		pwhy="tools/preload/libsliceext-preload.so not built"
	# Round-robin over the rows, so drift over the boot hits them alike.
	for r in $(seq 1 "$repeat"); do
		for id in $(points lock); do
			cfg lock "$id" "$r" || continue
			case $id in
			mutex_*)
				if [ "$switch" = on ]; then
					if [ -n "$pwhy" ]; then
						[ "$r" = 1 ] && skip lock "$id" "$pwhy"
						continue
					fi
					mutex_argv "$bin/libsliceext-preload.so"
				else
					mutex_argv
				fi ;;
			*)
				lock_argv "$(lock_clients_prefix "$id")" \
					"$([ "$switch" = on ] && echo --ext)" ;;
			esac
			if [ "${place[lock/$id]}" != - ]; then
				read -ra hpre <<<"$(lock_hogs_prefix "$id")"
				start_load "${place[lock/$id]}" "${hpre[@]}" -- --hogs "$lock_hogs"
			fi
			run_tool lock "$id" "$r" "${lock_argv[@]}"
			stop_load
		done
	done
	restore
	part_hist
}

# Mainline's grants, seen through the hrtimer each one starts. Filtered
# on the timer's function, so that the ring buffer holds only these.
hist_trace() {	# start | stop FILE
	local fn
	case $1 in
	start)
		fn=$(awk '$3 == "rseq_slice_expired" { print "0x" $1; exit }' /proc/kallsyms)
		[ -n "$fn" ] || return 1
		trace-cmd reset >/dev/null 2>&1
		trace-cmd start -q -b 16384 \
			-e timer:hrtimer_start -f "function == $fn" \
			-e timer:hrtimer_expire_entry -f "function == $fn" \
			-e timer:hrtimer_cancel >/dev/null 2>&1 ;;
	stop)
		trace-cmd stop >/dev/null 2>&1
		trace-cmd extract -o "$2.dat" >/dev/null 2>&1 &&
			trace-cmd report -t -i "$2.dat" > "$2" 2>/dev/null
		local rc=$?
		trace-cmd reset >/dev/null 2>&1
		return $rc ;;
	esac
}

# One extra run per extension length, whose grants are counted by their
# length: sliceext's ext/hist, or mainline's hrtimer events (tracing
# costs time, so never during a measured row).
part_hist() {
	local why id tmp out rc
	[ -n "$(points hist)" ] || return 0
	echo "== e) extension used per grant: one run per length, $duration s"
	if why=$(tool_missing lock_table load); then
		skip_part hist "$why"
		return
	fi
	tmp=$(mktemp -d)
	for id in $(points hist); do
		cfg hist "$id" 1 || continue
		lock_argv "" --ext
		start_load "${place[hist/$id]}" -- --hogs "$lock_hogs"
		if [ "$kind" = mainline ]; then
			hist_trace start || { stop_load; skip hist "$id" "hrtimer trace events unavailable"; continue; }
		else
			cat "$d/ext/hist" > "$tmp/h0"; cat "$d/ext/stats" > "$tmp/s0"
		fi
		# Its own JSON is not the result: the grants it made are.
		timeout -k 5 $((4 * duration + 60)) "${lock_argv[@]}" \
			--duration "$duration" --json > "$tmp/run" 2>&1
		rc=$?
		if [ "$kind" = mainline ]; then
			hist_trace stop "$tmp/report"
			out=$("$py" "$here/bench-hist.py" trace "$tmp/report")
		else
			cat "$d/ext/hist" > "$tmp/h1"; cat "$d/ext/stats" > "$tmp/s1"
			out=$("$py" "$here/bench-hist.py" sliceext \
				"$tmp/h0" "$tmp/h1" "$tmp/s0" "$tmp/s1")
		fi
		stop_load
		if [ $rc != 0 ] || [ -z "$out" ]; then
			fail_run hist "$id" 1 "exit $rc: $(tail -n 2 "$tmp/run" | tr '\n' ' ')"
			continue
		fi
		tags hist "$id"
		rec record "$results" "${T[@]}" --repeat 1 --json "$out"
	done
	restore
	rm -rf "$tmp"
}
