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
 * The core calls us from update_curr(), dequeue and yield, fork,
 * set_load_weight() and placement; every weight change goes through the
 * core's reweight helpers, the same path renice takes. Turning the
 * feature off or unloading recomputes every task's weight without us.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
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

/* The penalty that counts now: the remembered one or the running burst's. */
static u32 burst_task_penalty(struct task_struct *p)
{
	struct sliceext_burst *b = burst_of(p);
	u32 cur = burst_penalty(READ_ONCE(b->burst_ns),
				READ_ONCE(burst_penalty_offset),
				READ_ONCE(burst_penalty_scale));

	return max_t(u32, READ_ONCE(b->penalty), cur);
}

static u32 burst_task_score(struct task_struct *p)
{
	return burst_active(p) ? burst_score(burst_task_penalty(p)) : 0;
}

static int burst_weight_prio(struct task_struct *p, u32 score)
{
	return burst_prio(task_nice(p), score);
}

/*
 * Called by the core whenever it computes @p's load weight: the hooks
 * below, a renice, sched_setattr(), a new task's first wakeup, and our
 * knob walks. Recording the score here keeps b->score equal to what the
 * weight reflects, whoever asked for the weight.
 */
int sliceext_burst_prio_offset(struct task_struct *p)
{
	struct sliceext_burst *b = burst_of(p);
	u32 score = burst_task_score(p);

	if (score != b->score) {
		trace_sliceext_burst_score(p, b->score, score, b->burst_ns);
		sliceext_burst_stat_inc(SLICEEXT_BURST_SCORE_CHANGES);
		WRITE_ONCE(b->score, score);
	}
	return score;
}

/* Reweight @p if its score moved; @locked: we hold its runqueue lock. */
static void burst_refresh(struct task_struct *p, bool locked)
{
	struct sliceext_burst *b = burst_of(p);
	u32 old_score = b->score, score = burst_task_score(p);
	unsigned long old_weight = p->se.load.weight;

	if (score == old_score)
		return;

	if (locked)
		sliceext_task_reweight_locked(p);
	else
		sliceext_task_reweight(p);

	trace_sliceext_reweight(p, burst_weight_prio(p, old_score),
				burst_weight_prio(p, b->score), old_weight,
				p->se.load.weight);
}

void sliceext_burst_accrue(struct task_struct *p, u64 delta_exec)
{
	if (!burst_active(p))
		return;

	burst_of(p)->burst_ns += delta_exec;
	burst_refresh(p, true);
}

/* @p slept or yielded: remember the burst's penalty, start a new one. */
void sliceext_burst_end(struct task_struct *p)
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
	burst_refresh(p, true);
}

/* Back from RT, DL or PI boosting: what it did there says nothing. */
void sliceext_burst_switched_to_fair(struct task_struct *p)
{
	struct sliceext_burst *b = burst_of(p);

	WRITE_ONCE(b->burst_ns, 0);
	WRITE_ONCE(b->penalty, 0);
	burst_refresh(p, true);
}

int sliceext_burst_wakeup_vslice_shift(struct task_struct *p)
{
	return READ_ONCE(burst_wakeup_half_slice) && burst_active(p);
}

int sliceext_burst_lag_limit_shift(struct task_struct *p)
{
	return READ_ONCE(burst_half_lag_clamp) && burst_active(p);
}

/*
 * Fork inheritance. The averages are cached in the task they describe,
 * packed in one u64 (burst_cache_pack()) so that concurrent forks need no
 * lock: at worst two of them sample the same tasks.
 */
static u32 burst_cached_average(u64 *cache, u32 (*sample)(struct task_struct *),
				struct task_struct *owner, u64 now)
{
	u32 penalty;

	if (burst_cache_lookup(READ_ONCE(*cache), now,
			       READ_ONCE(burst_cache_lifetime_ns), &penalty)) {
		sliceext_burst_stat_inc(SLICEEXT_BURST_CACHE_HITS);
		return penalty;
	}

	sliceext_burst_stat_inc(SLICEEXT_BURST_CACHE_MISSES);
	penalty = sample(owner);
	WRITE_ONCE(*cache, burst_cache_pack(penalty, now));
	return penalty;
}

static bool burst_avg_add_task(struct burst_avg *avg, struct task_struct *t)
{
	return !burst_scored(t) || burst_avg_add(avg, burst_task_penalty(t));
}

/* Threads of @leader's group; RCU protects the thread list. */
static u32 burst_sample_threads(struct task_struct *leader)
{
	struct burst_avg avg = {};
	struct task_struct *t;

	guard(rcu)();
	for_each_thread(leader, t) {
		if (!burst_avg_add_task(&avg, t))
			break;
	}
	return burst_avg_get(&avg);
}

static bool burst_sample_child(struct task_struct *child, void *avg)
{
	return burst_avg_add_task(avg, child);
}

/*
 * Children of @parent. As in BORE, a parent hungrier than its children
 * passes on its own penalty instead: the first child of a hog is a hog.
 */
static u32 burst_sample_children(struct task_struct *parent)
{
	struct burst_avg avg = {};

	sliceext_visit_children(parent, burst_sample_child, &avg);
	return max(burst_avg_get(&avg), burst_task_penalty(parent));
}

static bool burst_count_child(struct task_struct *child, void *count)
{
	return ++*(unsigned int *)count < 2;
}

/*
 * The nearest ancestor that has other children than the line leading to
 * the new task: its children are the new task's closest relatives with a
 * history (a shell's jobs, a make's compilers). Caller holds RCU.
 */
static struct task_struct *burst_ancestor(unsigned long clone_flags)
{
	struct task_struct *anc = current, *parent;
	unsigned int others = 0;	/* the new child is not listed yet */
	unsigned int children;

	if (clone_flags & CLONE_PARENT) {
		anc = rcu_dereference(current->real_parent);
		others = 1;
	}
	for (;;) {
		parent = rcu_dereference(anc->real_parent);
		if (parent == anc)
			return anc;
		children = 0;
		sliceext_visit_children(anc, burst_count_child, &children);
		if (children > others)
			return anc;
		anc = parent;
		others = 1;
	}
}

static u32 burst_inherit_process(unsigned long clone_flags, u64 now)
{
	struct task_struct *anc;

	guard(rcu)();
	switch (READ_ONCE(burst_inherit_type)) {
	case BURST_INHERIT_PARENT:
		anc = current;
		if (clone_flags & CLONE_PARENT)
			anc = rcu_dereference(current->real_parent);
		break;
	case BURST_INHERIT_ANCESTOR:
		anc = burst_ancestor(clone_flags);
		break;
	default:
		return 0;
	}
	sliceext_burst_stat_inc(SLICEEXT_BURST_FORK_PROCESS);
	return burst_cached_average(&burst_of(anc)->child_cache,
				    burst_sample_children, anc, now);
}

/*
 * current forks @p, which nobody else sees yet; its weight is computed
 * from this state when it first wakes up (wake_up_new_task()).
 */
void sliceext_burst_fork(struct task_struct *p, unsigned long clone_flags)
{
	struct task_struct *leader = current->group_leader;
	u64 now = ktime_get_ns();
	u32 penalty;

	if (!burst_active(p))
		return;

	if (clone_flags & CLONE_THREAD) {
		penalty = burst_cached_average(&burst_of(leader)->group_cache,
					       burst_sample_threads, leader, now);
		sliceext_burst_stat_inc(SLICEEXT_BURST_FORK_THREAD);
	} else {
		penalty = burst_inherit_process(clone_flags, now);
	}
	burst_of(p)->penalty = penalty;
}

/*
 * Apply the knobs to every task now. @forget: penalty_offset or
 * penalty_scale changed, so the penalties remembered and cached under the
 * old values mean nothing any more; scores restart from the running bursts.
 */
static void burst_walk(bool forget)
{
	struct task_struct *g, *p;
	struct sliceext_burst *b;

	guard(mutex)(&burst_walk_lock);
	guard(rcu)();
	for_each_process_thread(g, p) {
		if (forget) {
			b = burst_of(p);
			WRITE_ONCE(b->penalty, 0);
			WRITE_ONCE(b->child_cache, 0);
			WRITE_ONCE(b->group_cache, 0);
		}
		burst_refresh(p, false);
	}
}

static void burst_enabled_changed(void)
{
	burst_walk(false);
}

static void burst_penalty_changed(void)
{
	burst_walk(true);
}

/* burst/tasks: "pid comm score penalty burst_ns" for every fair task. */
static int tasks_show(struct seq_file *m, void *unused)
{
	struct task_struct *g, *p;
	struct sliceext_burst *b;

	seq_puts(m, "pid comm score penalty burst_ns\n");
	guard(rcu)();
	for_each_process_thread(g, p) {
		if (p->policy != SCHED_NORMAL && p->policy != SCHED_BATCH &&
		    p->policy != SCHED_IDLE)
			continue;
		b = burst_of(p);
		seq_printf(m, "%d %s %u %u %llu\n", task_pid_nr(p), p->comm,
			   READ_ONCE(b->score), burst_task_penalty(p),
			   READ_ONCE(b->burst_ns));
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
	{ "wakeup_half_slice",	&burst_wakeup_half_slice, 0, 1 },
	{ "half_lag_clamp",	&burst_half_lag_clamp,	0, 1 },
};

int sliceext_burst_init(struct dentry *root)
{
	struct dentry *dir;

	dir = debugfs_create_dir("burst", root);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	sliceext_knobs_create(dir, burst_knobs, ARRAY_SIZE(burst_knobs));
	sliceext_burst_stats_create(dir);
	debugfs_create_file("tasks", 0444, dir, NULL, &tasks_fops);
	return 0;
}

/*
 * Hooks unregistered: the core computes stock weights now. Apply them to
 * every task and forget our state, so that a later load starts afresh.
 */
void sliceext_burst_exit(void)
{
	struct task_struct *g, *p;

	guard(rcu)();
	for_each_process_thread(g, p) {
		memset(burst_of(p), 0, sizeof(struct sliceext_burst));
		sliceext_task_reweight(p);
	}
}
