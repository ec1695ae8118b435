// SPDX-License-Identifier: GPL-2.0
/*
 * Burst-aware scheduling: what a new task inherits. BORE starts a new
 * thread from its thread group's average penalty, and a new process from
 * the average of its relatives (burst/inherit_type), each cached in the
 * task it describes for burst/cache_lifetime_ns, so that a fork storm
 * samples each family once. Each cache is packed in one u64
 * (burst_cache_pack()) so that concurrent forks need no lock: at worst
 * two of them sample the same tasks.
 */
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/timekeeping.h>

#include "burst.h"

/*
 * How far up the process tree fork inheritance looks for relatives. A
 * chain of single-child processes (a shell running a shell running ...)
 * is otherwise walked to init at every fork at its bottom.
 */
#define BURST_ANCESTOR_DEPTH	8

/*
 * How many tasks one fork's sampling looks at, sampled or skipped. The
 * average takes at most BURST_CACHE_SAMPLES samples, but the tasks it skips
 * (kernel threads, SCHED_IDLE, exiting) count for nothing: a user mode
 * helper, whose parent is kthreadd, would otherwise walk every kernel
 * thread under tasklist_lock, at each fork while cache_lifetime_ns is 0.
 */
#define BURST_SCAN_MAX		(4 * BURST_CACHE_SAMPLES)

enum burst_inherit {
	BURST_INHERIT_NONE,
	BURST_INHERIT_PARENT,	/* average of the parent's children */
	BURST_INHERIT_ANCESTOR,	/* ... of the nearest ancestor with siblings */
};

/* A task whose penalty says something about its relatives' future. */
static bool burst_sample_ok(struct task_struct *t, struct task_struct *child)
{
	return t != child && burst_scored(t) && !t->exit_state &&
	       !(t->flags & PF_EXITING);
}

/*
 * Look at @t for the average @avg over @child's relatives; false once the
 * average or the scan's budget @seen is full.
 */
static bool burst_sample(struct burst_avg *avg, unsigned int *seen,
			 struct task_struct *t, struct task_struct *child)
{
	sliceext_burst_stat_inc(SLICEEXT_BURST_FORK_SCANNED);
	if (burst_sample_ok(t, child) &&
	    !burst_avg_add(avg, burst_task_penalty(t)))
		return false;
	return ++*seen < BURST_SCAN_MAX;
}

/* Threads of @leader's group but @child; RCU protects the thread list. */
static u32 burst_sample_threads(struct task_struct *leader,
				struct task_struct *child)
{
	struct burst_avg avg = {};
	unsigned int seen = 0;
	struct task_struct *t;

	guard(rcu)();
	for_each_thread(leader, t) {
		if (!burst_sample(&avg, &seen, t, child))
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
	unsigned int seen = 0;
	struct task_struct *t;

	list_for_each_entry(t, &parent->children, sibling) {
		if (t == line)
			continue;
		if (!burst_sample(&avg, &seen,
				  descend ? burst_line_end(t) : t, child))
			break;
	}
	return max(burst_avg_get(&avg), burst_task_penalty(parent));
}

static bool burst_cached(u64 *cache, u64 now, u32 *penalty)
{
	if (burst_cache_lookup(READ_ONCE(*cache), now,
			       sliceext_knob(burst, cache_lifetime_ns), penalty)) {
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
 * it does (docs/design.md, "Alternatives rejected").
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
	bool ancestor = sliceext_knob(burst, inherit_type) == BURST_INHERIT_ANCESTOR;
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
	} else if (sliceext_knob(burst, inherit_type) != BURST_INHERIT_NONE) {
		sliceext_read_tasklist(burst_inherit_locked, &f);
		sliceext_burst_stat_inc(SLICEEXT_BURST_FORK_PROCESS);
	}
	burst_of(p)->penalty = f.penalty;
	burst_of(p)->score = burst_task_score(p);
}
