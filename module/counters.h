/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every enumeration that the counters, ext/stats, burst/stats and the
 * trace events share, one line per value, for the includer to expand:
 * the enums (sliceext.h) and the name tables (stats.c) are generated from
 * here, so that names cannot drift. Each line is VALUE, "name".
 */
#if !defined(SLICEEXT_DENY) || !defined(SLICEEXT_END) || !defined(SLICEEXT_BURST_STAT)
#error "define SLICEEXT_DENY, SLICEEXT_END and SLICEEXT_BURST_STAT first"
#endif

/*
 * Why a slice extension request was refused: ext/enabled is 0 or the
 * module is unloading; rt_guard found a stop, deadline or RT task waiting;
 * other exit-to-user work was pending; slice_ctrl was not writable
 * without faulting. ext/stats prints each as denied_<name>.
 */
SLICEEXT_DENY(SLICEEXT_DENY_DISABLED,	"disabled")
SLICEEXT_DENY(SLICEEXT_DENY_RT_WAITER,	"rt_waiter")
SLICEEXT_DENY(SLICEEXT_DENY_EXIT_WORK,	"exit_work")
SLICEEXT_DENY(SLICEEXT_DENY_FAULT,	"fault")

/*
 * How a grant ended, each exactly once: the timer fired; a later
 * preemption point, a context switch or a signal to handle took the CPU;
 * the thread called rseq_slice_yield(); the thread made any other
 * syscall.
 */
SLICEEXT_END(SLICEEXT_END_EXPIRED,	"expired")
SLICEEXT_END(SLICEEXT_END_REVOKED,	"revoked")
SLICEEXT_END(SLICEEXT_END_YIELDED,	"yielded")
SLICEEXT_END(SLICEEXT_END_ABORTED,	"aborted")

/*
 * Burst scheduling events, burst/stats: score changes, burst restarts,
 * threads and processes that inherited a penalty, inheritance served from
 * a cache or by sampling, the levels fork inheritance walked up the
 * process tree (at most 8 a fork) and the tasks it looked at (at most
 * BURST_SCAN_MAX a fork).
 */
SLICEEXT_BURST_STAT(SLICEEXT_BURST_SCORE_CHANGES,	"score_changes")
SLICEEXT_BURST_STAT(SLICEEXT_BURST_RESTARTS,		"restarts")
SLICEEXT_BURST_STAT(SLICEEXT_BURST_FORK_THREAD,		"fork_thread")
SLICEEXT_BURST_STAT(SLICEEXT_BURST_FORK_PROCESS,	"fork_process")
SLICEEXT_BURST_STAT(SLICEEXT_BURST_CACHE_HITS,		"cache_hits")
SLICEEXT_BURST_STAT(SLICEEXT_BURST_CACHE_MISSES,	"cache_misses")
SLICEEXT_BURST_STAT(SLICEEXT_BURST_ANCESTOR_STEPS,	"ancestor_steps")
SLICEEXT_BURST_STAT(SLICEEXT_BURST_DESCENDANT_STEPS,	"descendant_steps")
SLICEEXT_BURST_STAT(SLICEEXT_BURST_FORK_SCANNED,	"fork_scanned")
SLICEEXT_BURST_STAT(SLICEEXT_BURST_WAKEUP_UNPROTECT,	"wakeup_unprotect")
SLICEEXT_BURST_STAT(SLICEEXT_BURST_WAKEUP_PREEMPT,	"wakeup_preempt")
SLICEEXT_BURST_STAT(SLICEEXT_BURST_KEEP_DELAYED_LAG,	"keep_delayed_lag")
SLICEEXT_BURST_STAT(SLICEEXT_BURST_FUTEX_ZERO_SLICE,	"futex_zero_slice")
SLICEEXT_BURST_STAT(SLICEEXT_BURST_BALANCE_KEEP,	"balance_keep")
SLICEEXT_BURST_STAT(SLICEEXT_BURST_BALANCE_APART,	"balance_apart")
SLICEEXT_BURST_STAT(SLICEEXT_BURST_BALANCE_OWN_GROUP,	"balance_own_group")
SLICEEXT_BURST_STAT(SLICEEXT_BURST_GROUP_KEEP,		"group_keep")

#undef SLICEEXT_DENY
#undef SLICEEXT_END
#undef SLICEEXT_BURST_STAT
