/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Burst-aware scheduling, inside the module: what scoring (burst.c) and
 * fork inheritance (burst_fork.c) both read of a task.
 */
#ifndef _SLICEEXT_BURST_H
#define _SLICEEXT_BURST_H

#include <linux/sched.h>

#include "sliceext.h"
#include "burst_math.h"

static inline struct sliceext_burst *burst_of(struct task_struct *p)
{
	return &sliceext_task(p)->burst;
}

/* Kernel threads, SCHED_IDLE and non-fair tasks are never scored. */
static inline bool burst_scored(struct task_struct *p)
{
	if (p->flags & PF_KTHREAD)
		return false;
	return p->policy == SCHED_NORMAL || p->policy == SCHED_BATCH;
}

static inline bool burst_active(struct task_struct *p)
{
	return sliceext_knob(burst, enabled) && burst_scored(p);
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
				sliceext_knob(burst, penalty_offset),
				sliceext_knob(burst, penalty_scale));

	return max_t(u32, READ_ONCE(b->penalty), cur);
}

/* The score @p should have now, once burst_active(@p) said yes. */
static __always_inline u32 burst_active_score(struct task_struct *p)
{
	return burst_score(burst_task_penalty(p));
}

/* The score @p should have now. */
static inline u32 burst_task_score(struct task_struct *p)
{
	return burst_active(p) ? burst_active_score(p) : 0;
}

#endif /* _SLICEEXT_BURST_H */
