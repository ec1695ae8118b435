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
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/timekeeping.h>

#include "sliceext.h"
#include "burst_math.h"
#include "sliceext_trace.h"

/* Knobs, see burst/ in debugfs; defaults are BORE 6.5.x's. */
static u32 burst_enabled = 1;
static u32 burst_penalty_offset = 24;
static u32 burst_penalty_scale = 1536;
static u32 burst_smoothness = 1;
static u32 burst_inherit_type = 2;
static u32 burst_cache_lifetime_ns = 75 * NSEC_PER_MSEC;
static u32 burst_wakeup_half_slice = 1;
static u32 burst_half_lag_clamp = 1;
static u32 burst_group_placement;
static u32 burst_keep_delayed_lag = 1;
static u32 burst_wakeup_unprotect = 1;
static u32 burst_wakeup_preempt = 1;
static u32 burst_futex_zero_slice = 1;
static u32 burst_keep_unscored = 1;
static u32 burst_scored_slice_ns;
static u32 burst_group_keep = 1;

/* A wakeup placement shift that leaves no virtual slice (core: 0-63). */
#define BURST_NO_SLICE_SHIFT	63

/*
 * How far up the process tree fork inheritance looks for relatives. A
 * chain of single-child processes (a shell running a shell running ...)
 * is otherwise walked to init at every fork at its bottom.
 */
#define BURST_ANCESTOR_DEPTH	8

/* Serializes the walks that re-apply weights after a knob change. */
static DEFINE_MUTEX(burst_walk_lock);

enum burst_inherit {
	BURST_INHERIT_NONE,
	BURST_INHERIT_PARENT,	/* average of the parent's children */
	BURST_INHERIT_ANCESTOR,	/* ... of the nearest ancestor with siblings */
};

static struct sliceext_burst *burst_of(struct task_struct *p)
{
	return &sliceext_task(p)->burst;
}

/* Kernel threads, SCHED_IDLE and non-fair tasks are never scored. */
static bool burst_scored(struct task_struct *p)
{
	if (p->flags & PF_KTHREAD)
		return false;
	return p->policy == SCHED_NORMAL || p->policy == SCHED_BATCH;
}

static bool burst_active(struct task_struct *p)
{
	return READ_ONCE(burst_enabled) && burst_scored(p);
}

/*
 * The penalty that counts now: the remembered one or the running burst's.
 * Inline, with the arithmetic it uses: update_curr()'s hook runs it at
 * every runtime update, where a call would cost more than the sum.
 */
static __always_inline u32 burst_task_penalty(struct task_struct *p)
{
	struct sliceext_burst *b = burst_of(p);
	u32 cur = burst_penalty(READ_ONCE(b->burst_ns),
				READ_ONCE(burst_penalty_offset),
				READ_ONCE(burst_penalty_scale));

	return max_t(u32, READ_ONCE(b->penalty), cur);
}

/* The score @p should have now, once burst_active(@p) said yes. */
static __always_inline u32 burst_active_score(struct task_struct *p)
{
	return burst_score(burst_task_penalty(p));
}

/* The score @p should have now. */
static u32 burst_task_score(struct task_struct *p)
{
	return burst_active(p) ? burst_active_score(p) : 0;
}

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

	cur = burst_penalty(b->burst_ns, READ_ONCE(burst_penalty_offset),
			    READ_ONCE(burst_penalty_scale));
	WRITE_ONCE(b->penalty, burst_smooth(b->penalty, cur,
					    READ_ONCE(burst_smoothness)));
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
 * BORE's placement tweaks apply to a scored task (@p), and with
 * group_placement to a task group's entity (@p NULL) too, as in BORE.
 * Off by default: measured, it made a waking group's latency worse more
 * often than better (docs/benchmarks.md).
 */
static bool burst_placed(struct task_struct *p)
{
	if (!p)
		return READ_ONCE(burst_enabled) && READ_ONCE(burst_group_placement);
	return burst_active(p);
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
	return READ_ONCE(burst_futex_zero_slice) && burst_active(p) &&
	       READ_ONCE(burst_of(p)->futex_wait);
}

/*
 * For keep_unscored: the CPU of the task that woke @p. This hook is the
 * one every wakeup's placement calls, and it runs in the waker's context
 * unless the wakeup came from an interrupt or was queued to @p's CPU (an
 * idle one), where the waker is unknown and the last one is kept.
 */
static void burst_note_waker(struct task_struct *p)
{
	if (READ_ONCE(burst_keep_unscored) && p && in_task() &&
	    !is_idle_task(current))
		WRITE_ONCE(burst_of(p)->waker_cpu, smp_processor_id() + 1);
}

int sliceext_wakeup_vslice_shift(struct task_struct *p)
{
	burst_note_waker(p);
	if (p && burst_futex_woken(p)) {
		sliceext_burst_stat_inc(SLICEEXT_BURST_FUTEX_ZERO_SLICE);
		return BURST_NO_SLICE_SHIFT;
	}
	return READ_ONCE(burst_wakeup_half_slice) && burst_placed(p);
}

int sliceext_lag_limit_shift(struct task_struct *p)
{
	return READ_ONCE(burst_half_lag_clamp) && burst_placed(p);
}

/*
 * A task or group entity whose dequeue was delayed keeps the lag it
 * earned while it waited, as with NO_DELAY_ZERO: woken before it is
 * picked it stays in place (BORE 6.5's requeue does the same), and
 * dequeued its positive lag counts at its next wakeup. A group whose tasks
 * run briefly and sleep goes through a delayed dequeue at most sleeps,
 * and DELAY_ZERO would make it wake as if it had used its share: this is
 * what lets it win a wakeup against a hog in another group
 * (docs/burst.md).
 */
int sliceext_keep_delayed_lag(struct task_struct *p)
{
	if (!READ_ONCE(burst_enabled) || !READ_ONCE(burst_keep_delayed_lag))
		return 0;
	sliceext_burst_stat_inc(SLICEEXT_BURST_KEEP_DELAYED_LAG);
	return 1;
}

/*
 * A task that bursts less than the one running may end the running one's
 * slice protection, as a task with a shorter slice may (PREEMPT_SHORT):
 * EEVDF still decides, on eligibility and deadlines. With wakeup_preempt
 * (BORE 6.7's rule), one whose score is lower preempts it even where
 * EEVDF would keep the running side for an earlier deadline: the core
 * makes it the next buddy if its side is eligible, so fairness holds,
 * and does the same when the running task already has to reschedule.
 * Without it, a hog that a wakeup preempted part-way through its slice
 * keeps that slice's early deadline, wins the next pick over the woken
 * task, and runs to the next tick: within one group, the waits of 3 to 7
 * ms that a trace of the pick showed (docs/burst.md).
 */
int sliceext_wakeup_unprotect(struct task_struct *p, struct task_struct *curr)
{
	bool unprotect, futex;
	u32 p_penalty, curr_penalty;

	if (!burst_active(p) || !burst_active(curr))
		return SLICEEXT_WAKEUP_STOCK;

	if (READ_ONCE(burst_wakeup_preempt) &&
	    burst_weight_score(p) < burst_weight_score(curr)) {
		sliceext_burst_stat_inc(SLICEEXT_BURST_WAKEUP_PREEMPT);
		return SLICEEXT_WAKEUP_PREEMPT;
	}

	unprotect = READ_ONCE(burst_wakeup_unprotect);
	futex = burst_futex_woken(p);
	if (!unprotect && !futex)
		return SLICEEXT_WAKEUP_STOCK;
	/*
	 * Both rules compare the same two penalties: computed once. The
	 * second: placed with no slice, a futex waiter has the earliest
	 * deadline; the running task's protection would still keep it
	 * waiting for a sibling's whole burst, unless that one bursts less.
	 */
	p_penalty = burst_task_penalty(p);
	curr_penalty = burst_task_penalty(curr);
	if ((unprotect && p_penalty < curr_penalty) ||
	    (futex && p_penalty <= curr_penalty)) {
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
 * the thread that wakes it, and its next wakeups cross CPUs. Asked to,
 * keep the tasks scoring has not penalized where they are, as if cache
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
 * started badly would last (docs/burst.md).
 */
int sliceext_balance_keep(struct task_struct *p, int dst_cpu)
{
	u16 waker = READ_ONCE(burst_of(p)->waker_cpu);

	if (!READ_ONCE(burst_keep_unscored) || !burst_active(p) ||
	    burst_weight_score(p))
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
 * A task group's entity takes the shortest request queued below it, so
 * hogs in another cpu cgroup or autogroup give their group the same
 * request as an interactive task's group (the base slice, 1.4 ms on two
 * CPUs), and a deadline as early. BORE raises the base slice of every
 * task to a tick. Asked to, ask for a longer request for the groups of
 * the tasks scoring has penalized: the core gives it to a group's entity
 * while every task queued below it asks for it, and leaves the tasks'
 * own requests alone, so a hog does not take longer turns beside the
 * tasks of its own group (where a longer request for the task itself
 * lengthened an interactive task's wait, docs/burst.md). The core never
 * asks for a task with a custom slice of its own.
 */
unsigned int sliceext_slice_request(struct task_struct *p)
{
	if (!burst_active(p) || !burst_weight_score(p))
		return 0;
	return READ_ONCE(burst_scored_slice_ns);
}

/*
 * A wakeup that preempts a task of the same group ends the turn of the
 * groups above the two as well: the pick that follows judges them anew.
 * A group whose tasks wake each other (a dispatcher and its worker in one
 * session) has run past its share by then, as it earns no lag while it
 * sleeps, and loses the CPU to another group's hogs for their whole slice,
 * up to the next tick: the wakeups of a millisecond and more that a trace
 * of the pick showed across groups (docs/burst.md). Asked to, the core
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
	if (!READ_ONCE(burst_group_keep) || !burst_active(p) ||
	    burst_weight_score(curr) > burst_weight_score(p))
		return 0;
	sliceext_burst_stat_inc(SLICEEXT_BURST_GROUP_KEEP);
	return 1;
}

/*
 * Fork inheritance. The averages are cached in the task they describe,
 * packed in one u64 (burst_cache_pack()) so that concurrent forks need no
 * lock: at worst two of them sample the same tasks.
 */

/* A task whose penalty says something about its relatives' future. */
static bool burst_sample_ok(struct task_struct *t, struct task_struct *child)
{
	return t != child && burst_scored(t) && !t->exit_state &&
	       !(t->flags & PF_EXITING);
}

/* Threads of @leader's group but @child; RCU protects the thread list. */
static u32 burst_sample_threads(struct task_struct *leader,
				struct task_struct *child)
{
	struct burst_avg avg = {};
	struct task_struct *t;

	guard(rcu)();
	for_each_thread(leader, t) {
		if (burst_sample_ok(t, child) &&
		    !burst_avg_add(&avg, burst_task_penalty(t)))
			break;
	}
	return burst_avg_get(&avg);
}

/*
 * The task that says what a process with a single child will do: a shell
 * waiting for its job, or a make for its compiler, sleeps, and its own
 * penalty says nothing of the work it starts. BORE's ancestor hub looks
 * at the end of such a line too; no deeper than BURST_ANCESTOR_DEPTH
 * levels. tasklist_lock held.
 */
static struct task_struct *burst_line_end(struct task_struct *t)
{
	unsigned int depth;

	for (depth = 0; depth < BURST_ANCESTOR_DEPTH &&
	     list_is_singular(&t->children); depth++) {
		t = list_first_entry(&t->children, struct task_struct, sibling);
		sliceext_burst_stat_inc(SLICEEXT_BURST_DESCENDANT_STEPS);
	}
	return t;
}

/*
 * Children of @parent but @line, the one that leads to @child (@child
 * itself when @parent is its parent), each seen through burst_line_end()
 * if @descend: the relatives' work, not the line's own. As in BORE, a
 * parent hungrier than its children passes on its own penalty instead:
 * the first child of a hog is a hog. tasklist_lock held.
 */
static u32 burst_sample_children(struct task_struct *parent,
				 struct task_struct *line,
				 struct task_struct *child, bool descend)
{
	struct burst_avg avg = {};
	struct task_struct *t, *s;

	list_for_each_entry(t, &parent->children, sibling) {
		if (t == line)
			continue;
		s = descend ? burst_line_end(t) : t;
		if (burst_sample_ok(s, child) &&
		    !burst_avg_add(&avg, burst_task_penalty(s)))
			break;
	}
	return max(burst_avg_get(&avg), burst_task_penalty(parent));
}

static bool burst_cached(u64 *cache, u64 now, u32 *penalty)
{
	if (burst_cache_lookup(READ_ONCE(*cache), now,
			       READ_ONCE(burst_cache_lifetime_ns), penalty)) {
		sliceext_burst_stat_inc(SLICEEXT_BURST_CACHE_HITS);
		return true;
	}
	sliceext_burst_stat_inc(SLICEEXT_BURST_CACHE_MISSES);
	return false;
}

struct burst_fork {
	struct task_struct	*child;
	u64			now;
	u32			penalty;	/* out */
};

/*
 * The relatives a new process inherits from, under tasklist_lock (one
 * acquisition for the whole walk): its parent's other children, or those
 * of the nearest ancestor that has children besides the line leading to
 * it (a shell's jobs, a make's compilers), looking no further than
 * BURST_ANCESTOR_DEPTH levels up; with BURST_INHERIT_ANCESTOR each seen
 * at the end of its single-child line. The child's own line is left out:
 * a forker waiting for its one child has a sleeper's penalty, and
 * averaging it in would make every child it forks lighter than the work
 * it does (docs/burst.md, "The cost").
 */
static struct task_struct *burst_parent(struct task_struct *t)
{
	return rcu_dereference_protected(t->real_parent,
					 lockdep_tasklist_lock_is_held());
}

static void burst_inherit_locked(void *data)
{
	struct burst_fork *f = data;
	struct task_struct *line = f->child, *anc = burst_parent(line);
	bool ancestor = READ_ONCE(burst_inherit_type) == BURST_INHERIT_ANCESTOR;
	unsigned int depth;

	if (ancestor) {
		for (depth = 0; depth < BURST_ANCESTOR_DEPTH; depth++) {
			if (!list_is_singular(&anc->children) ||
			    burst_parent(anc) == anc || !burst_parent(anc)->pid)
				break;
			line = anc;
			anc = burst_parent(anc);
			sliceext_burst_stat_inc(SLICEEXT_BURST_ANCESTOR_STEPS);
		}
	}
	if (!burst_cached(&burst_of(anc)->child_cache, f->now, &f->penalty)) {
		f->penalty = burst_sample_children(anc, line, f->child,
						   ancestor);
		WRITE_ONCE(burst_of(anc)->child_cache,
			   burst_cache_pack(f->penalty, f->now));
	}
}

/*
 * current forked @p, which is on the task list but has not run; its
 * weight is computed from this state when it first wakes up
 * (wake_up_new_task()).
 */
void sliceext_burst_fork(struct task_struct *p, unsigned long clone_flags)
{
	struct task_struct *leader = p->group_leader;
	struct burst_fork f = { .child = p, .now = ktime_get_ns() };
	u64 *cache;

	if (!burst_active(p))
		return;

	if (clone_flags & CLONE_THREAD) {
		cache = &burst_of(leader)->group_cache;
		if (!burst_cached(cache, f.now, &f.penalty)) {
			f.penalty = burst_sample_threads(leader, p);
			WRITE_ONCE(*cache, burst_cache_pack(f.penalty, f.now));
		}
		sliceext_burst_stat_inc(SLICEEXT_BURST_FORK_THREAD);
	} else if (READ_ONCE(burst_inherit_type) != BURST_INHERIT_NONE) {
		sliceext_read_tasklist(burst_inherit_locked, &f);
		sliceext_burst_stat_inc(SLICEEXT_BURST_FORK_PROCESS);
	}
	burst_of(p)->penalty = f.penalty;
	burst_of(p)->score = burst_task_score(p);
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
static void burst_enabled_changed(void)
{
	bool on = READ_ONCE(burst_enabled);

	sliceext_hooks_update();
	burst_walk(false, on);
}

static void burst_penalty_changed(void)
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
	bool on = READ_ONCE(burst_enabled);
	bool futex = on && READ_ONCE(burst_futex_zero_slice);
	bool unscored = on && READ_ONCE(burst_keep_unscored);
	bool half_slice = on && READ_ONCE(burst_wakeup_half_slice);
	bool unprotect = on && (READ_ONCE(burst_wakeup_unprotect) ||
				READ_ONCE(burst_wakeup_preempt));

	if (futex && !ops->futex_sleep)
		burst_forget_futex_waits();

	ops->burst_account = on ? sliceext_burst_account : NULL;
	ops->burst_restart = on ? sliceext_burst_restart : NULL;
	ops->switched_to_fair = on ? sliceext_switched_to_fair : NULL;
	ops->prio_offset = on ? sliceext_prio_offset : NULL;
	ops->wakeup_vslice_shift = half_slice || futex || unscored ?
				   sliceext_wakeup_vslice_shift : NULL;
	ops->lag_limit_shift = on && READ_ONCE(burst_half_lag_clamp) ?
			       sliceext_lag_limit_shift : NULL;
	ops->wakeup_unprotect = unprotect || futex ?
				sliceext_wakeup_unprotect : NULL;
	ops->keep_delayed_lag = on && READ_ONCE(burst_keep_delayed_lag) ?
				sliceext_keep_delayed_lag : NULL;
	ops->futex_sleep = futex ? sliceext_futex_sleep : NULL;
	ops->balance_keep = unscored ? sliceext_balance_keep : NULL;
	ops->slice_request = on && READ_ONCE(burst_scored_slice_ns) ?
			     sliceext_slice_request : NULL;
	ops->group_keep = on && READ_ONCE(burst_group_keep) ?
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

static struct sliceext_knob burst_knobs[] = {
	{ "enabled",		&burst_enabled,		0, 1, burst_enabled_changed },
	{ "penalty_offset",	&burst_penalty_offset,	0, 63, burst_penalty_changed },
	{ "penalty_scale",	&burst_penalty_scale,	0, 4095, burst_penalty_changed },
	{ "smoothness",		&burst_smoothness,	0, 3 },
	{ "inherit_type",	&burst_inherit_type,	0, 2 },
	{ "cache_lifetime_ns",	&burst_cache_lifetime_ns, 0, NSEC_PER_SEC },
	{ "wakeup_half_slice",	&burst_wakeup_half_slice, 0, 1, sliceext_hooks_update },
	{ "half_lag_clamp",	&burst_half_lag_clamp,	0, 1, sliceext_hooks_update },
	{ "group_placement",	&burst_group_placement,	0, 1 },
	{ "wakeup_unprotect",	&burst_wakeup_unprotect, 0, 1, sliceext_hooks_update },
	{ "wakeup_preempt",	&burst_wakeup_preempt,	0, 1, sliceext_hooks_update },
	{ "keep_delayed_lag",	&burst_keep_delayed_lag, 0, 1, sliceext_hooks_update },
	{ "futex_zero_slice",	&burst_futex_zero_slice, 0, 1, sliceext_hooks_update },
	{ "keep_unscored",	&burst_keep_unscored,	0, 1, sliceext_hooks_update },
	{ "scored_slice_ns",	&burst_scored_slice_ns,	0, 100 * NSEC_PER_MSEC,
				sliceext_hooks_update },
	{ "group_keep",		&burst_group_keep,	0, 1, sliceext_hooks_update },
};

module_param_cb(burst_enabled, &sliceext_knob_param_ops, &burst_knobs[0], 0644);
MODULE_PARM_DESC(burst_enabled, "Burst-aware scheduling (0-1, default 1)");
module_param_cb(burst_penalty_offset, &sliceext_knob_param_ops, &burst_knobs[1], 0644);
MODULE_PARM_DESC(burst_penalty_offset, "log2 of the free burst length in ns (0-63, default 24)");
module_param_cb(burst_penalty_scale, &sliceext_knob_param_ops, &burst_knobs[2], 0644);
MODULE_PARM_DESC(burst_penalty_scale, "Score per burst doubling, 1/1024 (0-4095, default 1536)");
module_param_cb(burst_smoothness, &sliceext_knob_param_ops, &burst_knobs[3], 0644);
MODULE_PARM_DESC(burst_smoothness, "Penalty rise shift at restarts (0-3, default 1)");
module_param_cb(burst_inherit_type, &sliceext_knob_param_ops, &burst_knobs[4], 0644);
MODULE_PARM_DESC(burst_inherit_type, "Fork inheritance: 0 none, 1 parent, 2 ancestor (default 2)");
module_param_cb(burst_cache_lifetime_ns, &sliceext_knob_param_ops, &burst_knobs[5], 0644);
MODULE_PARM_DESC(burst_cache_lifetime_ns, "Inheritance cache lifetime (0-1000000000, default 75000000)");
module_param_cb(burst_wakeup_half_slice, &sliceext_knob_param_ops, &burst_knobs[6], 0644);
MODULE_PARM_DESC(burst_wakeup_half_slice, "Half slice on wakeup placement (0-1, default 1)");
module_param_cb(burst_half_lag_clamp, &sliceext_knob_param_ops, &burst_knobs[7], 0644);
MODULE_PARM_DESC(burst_half_lag_clamp, "Halved lag bound (0-1, default 1)");
module_param_cb(burst_group_placement, &sliceext_knob_param_ops, &burst_knobs[8], 0644);
MODULE_PARM_DESC(burst_group_placement, "Placement tweaks for task group entities too (0-1, default 0)");
module_param_cb(burst_wakeup_unprotect, &sliceext_knob_param_ops, &burst_knobs[9], 0644);
MODULE_PARM_DESC(burst_wakeup_unprotect, "A waking task with a lower penalty ends the running one's slice protection (0-1, default 1)");
module_param_cb(burst_wakeup_preempt, &sliceext_knob_param_ops, &burst_knobs[10], 0644);
MODULE_PARM_DESC(burst_wakeup_preempt, "A waking task with a lower score preempts the running one while eligible (0-1, default 1)");
module_param_cb(burst_keep_delayed_lag, &sliceext_knob_param_ops, &burst_knobs[11], 0644);
MODULE_PARM_DESC(burst_keep_delayed_lag, "A dequeue delayed by DELAY_DEQUEUE keeps the lag earned while waiting, as with NO_DELAY_ZERO (0-1, default 1)");
module_param_cb(burst_futex_zero_slice, &sliceext_knob_param_ops, &burst_knobs[12], 0644);
MODULE_PARM_DESC(burst_futex_zero_slice, "A task woken from a futex wait is placed with no slice and ends the running one's protection unless that bursts less (0-1, default 1)");
module_param_cb(burst_keep_unscored, &sliceext_knob_param_ops, &burst_knobs[13], 0644);
MODULE_PARM_DESC(burst_keep_unscored, "The load balancer moves a task with score 0 that sits with its waker to a CPU running other groups' tasks only when balancing keeps failing (0-1, default 1)");
module_param_cb(burst_scored_slice_ns, &sliceext_knob_param_ops, &burst_knobs[14], 0644);
MODULE_PARM_DESC(burst_scored_slice_ns, "Request (slice) of a task group's entity while every task queued in it has a score above 0, when longer than the base slice; 0 keeps the base slice (0-100000000, default 0)");
module_param_cb(burst_group_keep, &sliceext_knob_param_ops, &burst_knobs[15], 0644);
MODULE_PARM_DESC(burst_group_keep, "A wakeup that preempts a task of its own group that scores no higher keeps the groups above them on the CPU to the end of their protected slice (0-1, default 1)");

void sliceext_burst_init(void)
{
	struct dentry *dir = sliceext_debugfs_dir("burst");

	sliceext_knobs_create(dir, burst_knobs, ARRAY_SIZE(burst_knobs));
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
