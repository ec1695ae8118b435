# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # bench-guest.sh's globals
#
# Sourced by scripts/bench-guest.sh: this kernel's points (their label,
# placement and configuration by PART/ID), the tags and records of their
# runs (each line written by scripts/bench-record.py), and each point's
# configuration set from the boot's snapshot.

declare -A label place config wake
declare -A ids	# part -> this kernel's point ids, in order

# Lines "part id placement config label", the probe's with "wake" last
# (ids and configurations have no blanks: benchlib.py checks).
add_points() {
	local p id pl cfg lab wk
	while IFS=$'\t' read -r p id pl cfg lab wk; do
		[ -n "$p" ] || continue
		label[$p/$id]=$lab
		place[$p/$id]=$pl
		config[$p/$id]=$cfg
		wake[$p/$id]=$wk
		ids[$p]+="$id "
	done
}

points() { echo "${ids[$1]:-}"; }	# PART: this kernel's ids

# The tags of every line about a point, in T.
tags() {	# PART ID
	T=(--part "$1" --id "$2" --label "${label[$1/$2]}" --kernel "$kernel"
	   --config "${config[$1/$2]}" --placement "${place[$1/$2]}"
	   ${wake[$1/$2]:+--wake "${wake[$1/$2]}"})
}

skip() {	# PART ID WHY [WHAT]: the point, or only WHAT of it, skipped
	tags "$1" "$2"
	rec skip "$results" "${T[@]}" --why "$3" ${4:+--what "$4"}
}

skip_part() {	# PART WHY: every point of the part
	local id
	for id in $(points "$1"); do
		skip "$1" "$id" "$2"
	done
}

fail_run() {	# PART ID REPEAT WHY
	tags "$1" "$2"
	rec error "$results" "${T[@]}" --repeat "$3" --why "$4"
	failed=1
}

# run_tool PART ID REPEAT [--tag K=V]... CMD...: run a tools/bench program
# with --duration and --json appended and record its JSON object.
run_tool() {
	local part=$1 id=$2 r=$3 extra=()
	shift 3
	while [ "${1:-}" = --tag ]; do extra+=("$1" "$2"); shift 2; done
	tags "$part" "$id"
	rec run "$results" "${T[@]}" --repeat "$r" "${extra[@]}" \
		--timeout $((4 * duration + 60)) -- "$@" --duration "$duration" --json ||
		failed=1
}

tool_missing() {	# NAME...: print why one is missing
	local t
	for t; do
		if [ -z "$bin" ] || [ ! -x "$bin/$t" ]; then
			echo "tools/bench/$t not built"
			return 0
		fi
	done
	return 1
}

# cfg PART ID REPEAT: set the point's configuration from the boot's
# snapshot. False when this kernel cannot run it, after a skip line in the
# first round. SWITCH is then "on" or "off".
switch=
cfg() {
	local out rc
	out=$(rec apply --kind "$kind" --state "$state" --root "${root:-/}" \
		--part "$1" -- "${config[$1/$2]}")
	rc=$?
	case $rc in
	0) switch=$out; return 0 ;;
	4)
		# Without the module, say why it is not there.
		case $out in *"$d"*) [ -z "$mod_why" ] || out=$mod_why ;; esac
		[ "$3" != 1 ] || skip "$1" "$2" "$out" ;;
	*) fail_run "$1" "$2" "$3" "configuration ${config[$1/$2]}: exit $rc" ;;
	esac
	return 1
}

restore() {	# every knob back to the snapshot's value
	rec restore --kind "$kind" --state "$state" --root "${root:-/}"
}
