#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every way of turning burst scores off gives every task its stock weight
# at once: penalty_scale 0, penalty_offset 63, enabled 0, unloading; and
# turning them back on re-applies the scores. The events show the scores
# and reweights as they happen.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/lib.sh"

d=/sys/kernel/debug/sliceext/burst

hog() { nice -n "$1" bash -c 'while :; do :; done' & }
# Whether both hogs have a weight that is not stock. (Not only they: the
# shell walking /proc for this check runs long enough to get a score.)
hogs_reweighted() {
	local m
	m=$(weight_mismatches | awk '{ print $1 }')
	grep -qx "$hog0" <<<"$m" && grep -qx "$hog5" <<<"$m"
}
stock() { [ -z "$(weight_mismatches)" ]; }

check "modprobe sliceext" modprobe sliceext
# Loading reweights nothing by itself: any weight away from stock is a
# score the task earned since, and matches it.
check_eq "right after loading, every weight matches its score" "" "$(stale_weights)"

# The same while tasks are scored as the hooks go live: hogs and forks
# run, and penalty_offset 0 scores any burst at once. The fork and
# runtime hooks go live before prio_offset does; a score they cached
# meanwhile must reach the weight all the same.
hog 0; h1=$!
hog 0; h2=$!
(while :; do /bin/true; done) & forker=$!
# This shell and its modprobes at nice -20, the load at 0: at 0, the
# modprobes' own start-up beside the load took most of the test's time.
renice -n -20 -p $$ > /dev/null
stale=
for i in $(seq 10); do
	modprobe -r sliceext
	modprobe sliceext burst_penalty_offset=0
	sleep 0.1
	stale+=$(stale_weights)
done
renice -n 0 -p $$ > /dev/null
kill $h1 $h2 $forker
wait $h1 $h2 $forker 2>/dev/null
echo 24 > $d/penalty_offset
check_eq "loaded 10 times beside hogs and forks, every burst scored: every weight matches its score" \
	"" "$stale"

trace-cmd start -q -e sliceext_burst_score -e sliceext_reweight
hog 0; hog0=$!
hog 5; hog5=$!
check "a nice 0 hog gets a score" wait_until 5 scored $hog0 3
check "a nice 5 hog gets a score" wait_until 5 scored $hog5 3
trace-cmd stop
events=$(trace-cmd show 2>/dev/null)
trace-cmd reset -q 2>/dev/null
check "sliceext_burst_score traced the hog's rising score" \
	grep -q "sliceext_burst_score: pid=$hog0 cpu=[0-9]* score=2->3 " <<<"$events"
check "sliceext_reweight traced its new weight" \
	grep -q "sliceext_reweight: pid=$hog0 cpu=[0-9]* prio=22->23 weight=[0-9]*->$((526 << 10))" <<<"$events"
check "the hogs have non-stock weights" hogs_reweighted

for knob in "penalty_scale 0 1536" "penalty_offset 63 24" "enabled 0 1"; do
	set -- $knob
	echo "$2" > $d/"$1"
	check_eq "$1=$2: every task has its stock weight" "" "$(weight_mismatches)"
	check_eq "$1=$2: the hog's score is 0" 0 "$(burst_field $hog0 score)"
	echo "$3" > $d/"$1"
	check "$1=$3: the hogs' scores come back at once" hogs_reweighted
done

# Renicing keeps the offset: nice 5 -> 10 with score s is the weight of
# index 30 + s, which stale_weights() checks for every task.
renice -n 10 -p $hog5 >/dev/null
check "renice keeps the burst offset" hogs_reweighted
check_eq "renice: nice 10 is in the weight" 10 \
	"$(awk '{ print $19 }' /proc/$hog5/stat)"
check_eq "renice: every weight is sched_prio_to_weight[nice + 20 + score]" "" \
	"$(stale_weights)"

check "modprobe -r sliceext" modprobe -r sliceext
check_eq "unloaded: every task has its stock weight" "" "$(weight_mismatches)"
check "modprobe sliceext again" modprobe sliceext
check "reloaded: scores start again from the hogs' new bursts" \
	test "$(burst_field $hog0 burst_ns)" -lt 2000000000
kill $hog0 $hog5
wait $hog0 $hog5 2>/dev/null
check "modprobe -r sliceext" modprobe -r sliceext
check_eq "unloaded again: every task has its stock weight" "" "$(weight_mismatches)"
tap_done
