// SPDX-License-Identifier: GPL-2.0
/*
 * Burst-aware scheduling: BORE's idea on EEVDF.
 *
 * A task accrues burst time while it runs and restarts it when it sleeps
 * or yields, not when it is preempted. The longer the burst, the higher
 * its score (0-39, burst_math.c), and the score is added to the task's
 * nice level when its load weight is computed. CPU hogs therefore lose
 * weight against tasks that run briefly and sleep, which win wakeups and
 * keep their latency under load.
 *
 * The score is computed where the burst changes (accounting, restart,
 * knob walks) and cached in the task; the prio_offset hook only reads it,
 * so that the weight set_load_weight() computes always matches the cached
 * score, whoever asks (a renice, a reweight nested in another). Every
 * weight change goes through the core's reweight helpers, the path renice
 * takes. Turning the feature off or unloading recomputes the weight of
 * every scored task without us.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/mutex.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>

#include "sliceext.h"
#include "burst.h"
#include "sliceext_trace.h"

/* A wakeup placement shift that leaves no virtual slice (core: 0-63). */
#define BURST_NO_SLICE_SHIFT	63

/* Serializes the walks that re-apply weights after a knob change. */
static DEFINE_MUTEX(burst_walk_lock);

/* The score @p's load weight carries: what prio_offset returns. */
static u32 burst_weight_score(struct task_struct *p)
{
	return burst_scored(p) ? READ_ONCE(burst_of(p)->score) : 0;
}

/* Cache @p's new score and apply it to its weight: burst_set_score(). */
static void burst_change_score(struct task_struct *p, u32 score, bool locked)
{
	struct sliceext_burst *b = burst_of(p);
	unsigned long old_weight = p->se.load.weight;
	u32 old = b->score;

	trace_sliceext_burst_score(p, old, score, b->burst_ns);
	sliceext_burst_stat_inc(SLICEEXT_BURST_SCORE_CHANGES);
	WRITE_ONCE(b->score, score);
	if (locked)
		sliceext_task_reweight_locked(p);
	else
		sliceext_task_reweight(p);
	trace_sliceext_reweight(p, burst_prio(task_nice(p), old),
				burst_prio(task_nice(p), score), old_weight,
				p->se.load.weight);
}

/*
 * Give @p @score; @locked: we hold its runqueue lock (a hook), else we are
 * a knob or unload walk. Most runtime updates leave the score as it was:
 * they cost a compare.
 */
static __always_inline void burst_set_score(struct task_struct *p, u32 score,
					    bool locked)
{
	if (score != burst_of(p)->score)
		burst_change_score(p, score, locked);
}

/*
 * Called by the core whenever it computes @p's load weight: reads the
 * cached score, never computes one (see the top of this file).
 */
int sliceext_prio_offset(struct task_struct *p)
{
	return burst_weight_score(p);
}

void sliceext_burst_account(struct task_struct *p, u64 delta_exec)
{
	/*
	 * A task that went to sleep stays its cfs_rq's current entity until
	 * the switch: queued if its dequeue was delayed (DELAY_DEQUEUE),
	 * dequeued otherwise, and then any update_curr() on that cfs_rq (an
	 * enqueue while newidle balancing has dropped the rq lock) still
	 * charges it. That runtime is committed after
	 * sliceext_burst_restart() ended the burst: it belongs to that burst,
	 * not to the next one, which would start the next wakeup with a debt.
	 */
	if (!burst_active(p) || !p->se.on_rq || p->se.sched_delayed)
		return;

	burst_of(p)->burst_ns += delta_exec;
	burst_set_score(p, burst_active_score(p), true);
}

/* @p slept or yielded: remember the burst's penalty, start a new one. */
void sliceext_burst_restart(struct task_struct *p)
{
	struct sliceext_burst *b = burst_of(p);
	u32 cur;

	if (!burst_active(p))
		return;

	cur = burst_penalty(b->burst_ns, sliceext_knob(burst, penalty_offset),
			    sliceext_knob(burst, penalty_scale));
	WRITE_ONCE(b->penalty, burst_smooth(b->penalty, cur,
					    sliceext_knob(burst, smoothness)));
	WRITE_ONCE(b->burst_ns, 0);
	sliceext_burst_stat_inc(SLICEEXT_BURST_RESTARTS);
	burst_set_score(p, burst_active_score(p), true);
}

/* Back from RT, DL or PI boosting: what it did there says nothing. */
void sliceext_switched_to_fair(struct task_struct *p)
{
	struct sliceext_burst *b = burst_of(p);

	WRITE_ONCE(b->burst_ns, 0);
	WRITE_ONCE(b->penalty, 0);
	burst_set_score(p, 0, true);
}

/*
 * A thread woken from a futex wait is most often one that a lock holder or
 * a producer hands work to (a condition variable's waiter, a pool's
 * worker). BORE 6.5 places it with no virtual slice, its deadline at its
 * vruntime, so that it runs as soon as it is eligible instead of after
 * its waker and the siblings woken before it. Fairness holds: an entity
 * that used more than its share is not eligible, and the first update
 * after it starts running gives it a full slice again.
 */
void sliceext_futex_sleep(bool asleep)
{
	WRITE_ONCE(burst_of(current)->futex_wait, asleep);
}

static bool burst_futex_woken(struct task_struct *p)
{
	return burst_active(p) && READ_ONCE(burst_of(p)->futex_wait);
}

/*
 * For sliceext_balance_keep(): the CPU of the task that woke @p. This
 * hook is the one every wakeup's placement calls, and it runs in the
 * waker's context unless the wakeup came from an interrupt or was queued
 * to @p's CPU (an idle one), where the waker is unknown and the last one
 * is kept.
 */
static void burst_note_waker(struct task_struct *p)
{
	if (in_task() && !is_idle_task(current))
		WRITE_ONCE(burst_of(p)->waker_cpu, smp_processor_id() + 1);
}

/*
 * BORE applies its placement tweaks to task group entities too; the core
 * asks these two for tasks only: measured, the group placement made a
 * waking group's latency worse more often than better
 * (docs/log/2026-12-07-burst-knob-review.md).
 */
int sliceext_wakeup_vslice_shift(struct task_struct *p)
{
	burst_note_waker(p);
	if (burst_futex_woken(p)) {
		sliceext_burst_stat_inc(SLICEEXT_BURST_FUTEX_ZERO_SLICE);
		return BURST_NO_SLICE_SHIFT;
	}
	return sliceext_knob(burst, wakeup_half_slice) && burst_active(p);
}

int sliceext_lag_limit_shift(struct task_struct *p)
{
	return sliceext_knob(burst, half_lag_clamp) && burst_active(p);
}

/*
 * A task or group entity whose dequeue was delayed keeps the lag it
 * earned while it waited, as with NO_DELAY_ZERO: woken before it is
 * picked it stays in place (BORE 6.5's requeue does the same), and
 * dequeued its positive lag counts at its next wakeup. A group whose tasks
 * run briefly and sleep goes through a delayed dequeue at most sleeps,
 * and DELAY_ZERO would make it wake as if it had used its share: this is
 * what lets it win a wakeup against a hog in another group
 * (docs/design.md).
 */
int sliceext_keep_delayed_lag(struct task_struct *p)
{
	if (!sliceext_knob(burst, enabled))
		return 0;
	sliceext_burst_stat_inc(SLICEEXT_BURST_KEEP_DELAYED_LAG);
	return 1;
}

/*
 * A task that bursts less than the one running may end the running one's
 * slice protection, as a task with a shorter slice may (PREEMPT_SHORT):
 * EEVDF still decides, on eligibility and deadlines. And (BORE 6.7's
 * rule) one whose score is lower preempts it even where
 * EEVDF would keep the running side for an earlier deadline: the core
 * makes it the next buddy if its side is eligible, so fairness holds,
 * and does the same when the running task already has to reschedule.
 * Without it, a hog that a wakeup preempted part-way through its slice
 * keeps that slice's early deadline, wins the next pick over the woken
 * task, and runs to the next tick: within one group, the waits of 3 to 7
 * ms that a trace of the pick showed (docs/design.md).
 */
int sliceext_wakeup_unprotect(struct task_struct *p, struct task_struct *curr)
{
	u32 p_penalty, curr_penalty;

	if (!burst_active(p) || !burst_active(curr))
		return SLICEEXT_WAKEUP_STOCK;

	if (burst_weight_score(p) < burst_weight_score(curr)) {
		sliceext_burst_stat_inc(SLICEEXT_BURST_WAKEUP_PREEMPT);
		return SLICEEXT_WAKEUP_PREEMPT;
	}

	/*
	 * Placed with no slice, a futex waiter has the earliest deadline;
	 * the running task's protection would still keep it waiting for a
	 * sibling's whole burst, unless that one bursts less.
	 */
	p_penalty = burst_task_penalty(p);
	curr_penalty = burst_task_penalty(curr);
	if (p_penalty < curr_penalty ||
	    (p_penalty == curr_penalty && burst_futex_woken(p))) {
		sliceext_burst_stat_inc(SLICEEXT_BURST_WAKEUP_UNPROTECT);
		return SLICEEXT_WAKEUP_UNPROTECT;
	}
	return SLICEEXT_WAKEUP_STOCK;
}

/*
 * The load balancer moves a queued task that is not cache hot as readily
 * whether it burns CPU or sleeps every few milliseconds. One that sleeps
 * is placed anew at each wakeup (wake_wide() keeps a dispatcher's workers
 * on the CPU they last ran on), so a move to balance load parts it from
 * the thread that wakes it, and its next wakeups cross CPUs. Keep the
 * tasks scoring has not penalized where they are, as if cache
 * hot, and leave the balancing to the scored ones: the kernel still
 * moves them when balancing keeps failing.
 *
 * Only where the move would put the task beside tasks of other groups on
 * @dst_cpu: their groups' entities compete with its group at full weight,
 * which scores do not lower. Beside its own group's tasks only,
 * scoring has made the hogs light, and the balancer spreading a waker's
 * tasks lets them run side by side instead of one after the other. And
 * not one that already sits away from the CPU of the task that woke it:
 * kept, it would stay parted from its waker, and an arrangement that
 * started badly would last (docs/design.md).
 */
int sliceext_balance_keep(struct task_struct *p, int dst_cpu)
{
	u16 waker = READ_ONCE(burst_of(p)->waker_cpu);

	if (!burst_active(p) || burst_weight_score(p))
		return 0;
	if (!sliceext_other_groups_runnable(p, dst_cpu)) {
		sliceext_burst_stat_inc(SLICEEXT_BURST_BALANCE_OWN_GROUP);
		return 0;
	}
	if (waker && waker - 1 != task_cpu(p)) {
		sliceext_burst_stat_inc(SLICEEXT_BURST_BALANCE_APART);
		return 0;
	}
	sliceext_burst_stat_inc(SLICEEXT_BURST_BALANCE_KEEP);
	return 1;
}

/*
 * A wakeup that preempts a task of the same group ends the turn of the
 * groups above the two as well: the pick that follows judges them anew.
 * A group whose tasks wake each other (a dispatcher and its worker in one
 * session) has run past its share by then, as it earns no lag while it
 * sleeps, and loses the CPU to another group's hogs for their whole slice,
 * up to the next tick: the wakeups of a millisecond and more that a trace
 * of the pick showed across groups (docs/design.md). Asked to, the core
 * keeps those groups to the end of their protected slice, as it would
 * keep one task doing the same work; their lag pays for it afterwards.
 * While this hook is registered the core also keeps that protection when
 * a group's weight changes at the wakeup, which would otherwise end it.
 * Not where the preempted task scores higher than the woken one: the
 * rest of that turn would go to a hog's kind of work, which needs no
 * help against other groups (the benchmark's workers, woken beside
 * hogs of their own group, waited longer when it got it).
 */
int sliceext_group_keep(struct task_struct *p, struct task_struct *curr)
{
	if (!sliceext_knob(burst, group_keep) || !burst_active(p) ||
	    burst_weight_score(curr) > burst_weight_score(p))
		return 0;
	sliceext_burst_stat_inc(SLICEEXT_BURST_GROUP_KEEP);
	return 1;
}

/*
 * Apply the knobs to every task now. @forget: penalty_offset or
 * penalty_scale changed, so the penalties remembered and cached under the
 * old values mean nothing any more; scores restart from the running bursts.
 * @reweight: the hooks were just registered, and a score cached before
 * prio_offset was must reach the weight even where it stays the same.
 */
static void burst_walk(bool forget, bool reweight)
{
	struct task_struct *g, *p;
	struct sliceext_burst *b;
	u32 score;

	guard(mutex)(&burst_walk_lock);
	guard(rcu)();
	for_each_process_thread(g, p) {
		b = burst_of(p);
		if (forget) {
			WRITE_ONCE(b->penalty, 0);
			WRITE_ONCE(b->child_cache, 0);
			WRITE_ONCE(b->group_cache, 0);
		}
		score = burst_task_score(p);
		if (reweight && score && score == b->score)
			sliceext_task_reweight(p);
		else
			burst_set_score(p, score, false);
	}
}

/* With the knobs' lock held, as every knob's change callback. */
void sliceext_burst_enabled_changed(void)
{
	bool on = sliceext_knob(burst, enabled);

	sliceext_hooks_update();
	burst_walk(false, on);
}

void sliceext_burst_penalty_changed(void)
{
	burst_walk(true, false);
}

/*
 * A task sets its futex_wait flag through the futex_sleep hook, which is
 * registered only while the flag is used: registered anew, it must not
 * find the flags of waits that ended without it. A wait that began before
 * goes without its flag, and its wakeup is placed as stock.
 */
static void burst_forget_futex_waits(void)
{
	struct task_struct *g, *p;

	guard(rcu)();
	for_each_process_thread(g, p)
		WRITE_ONCE(burst_of(p)->futex_wait, 0);
}

/*
 * Set in @ops the burst hooks that the knobs need now, and clear the
 * others: the core's call site of a hook that is not registered costs
 * what it costs without the module, where one that returns at once costs
 * a call and a return on every wakeup and runtime update. Each hook
 * still checks its knobs, as one may run on for a moment after it was
 * dropped.
 */
void sliceext_burst_hooks(struct sliceext_ops *ops)
{
	bool on = sliceext_knob(burst, enabled);

	if (on && !ops->futex_sleep)
		burst_forget_futex_waits();

	ops->burst_account = on ? sliceext_burst_account : NULL;
	ops->burst_restart = on ? sliceext_burst_restart : NULL;
	ops->switched_to_fair = on ? sliceext_switched_to_fair : NULL;
	ops->prio_offset = on ? sliceext_prio_offset : NULL;
	/* Also where the half slice is off: futex wakeups, balance_keep. */
	ops->wakeup_vslice_shift = on ? sliceext_wakeup_vslice_shift : NULL;
	ops->lag_limit_shift = on && sliceext_knob(burst, half_lag_clamp) ?
			       sliceext_lag_limit_shift : NULL;
	ops->wakeup_unprotect = on ? sliceext_wakeup_unprotect : NULL;
	ops->keep_delayed_lag = on ? sliceext_keep_delayed_lag : NULL;
	ops->futex_sleep = on ? sliceext_futex_sleep : NULL;
	ops->balance_keep = on ? sliceext_balance_keep : NULL;
	ops->group_keep = on && sliceext_knob(burst, group_keep) ?
			  sliceext_group_keep : NULL;
}

/*
 * burst/tasks: "pid comm score penalty burst_ns weight" for every fair
 * task; score is what its load weight carries, weight is
 * se.load.weight as /proc/PID/sched shows it.
 */
static int tasks_show(struct seq_file *m, void *unused)
{
	struct task_struct *g, *p;

	seq_puts(m, "pid comm score penalty burst_ns weight\n");
	guard(rcu)();
	for_each_process_thread(g, p) {
		if (p->policy != SCHED_NORMAL && p->policy != SCHED_BATCH &&
		    p->policy != SCHED_IDLE)
			continue;
		seq_printf(m, "%d %s %u %u %llu %lu\n", task_pid_nr(p), p->comm,
			   burst_weight_score(p),
			   burst_scored(p) ? burst_task_penalty(p) : 0,
			   READ_ONCE(burst_of(p)->burst_ns),
			   READ_ONCE(p->se.load.weight));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tasks);

void sliceext_burst_init(void)
{
	struct dentry *dir = sliceext_debugfs_dir("burst");

	sliceext_knobs_create(dir, "burst");
	sliceext_burst_stats_create(dir);
	if (dir)
		debugfs_create_file("tasks", 0444, dir, NULL, &tasks_fops);
}

/*
 * Hooks unregistered: the core computes stock weights now. Apply them to
 * every task that carried a score and forget our state, so that a later
 * load starts afresh.
 */
void sliceext_burst_exit(void)
{
	struct task_struct *g, *p;
	bool scored;

	guard(rcu)();
	for_each_process_thread(g, p) {
		scored = burst_of(p)->score;
		memset(burst_of(p), 0, sizeof(struct sliceext_burst));
		if (scored)
			sliceext_task_reweight(p);
	}
}
