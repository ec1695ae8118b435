/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the time slice extension: what slice.c (grants) and
 * slice_optin.c (opting in, and what we write in a thread's rseq area)
 * share. sliceext.h holds the state itself.
 */
#ifndef _SLICEEXT_SLICE_H
#define _SLICEEXT_SLICE_H

#include <linux/rseq.h>
#include <linux/sched.h>

#include "sliceext.h"

/* Set while unloading: no new grants, no new opt-ins. */
extern bool sliceext_slice_draining;

static inline struct sliceext_slice *slice_of(struct task_struct *t)
{
	return &sliceext_task(t)->slice;
}

static inline bool slice_closed(void)
{
	return !sliceext_knob(ext, enabled) || READ_ONCE(sliceext_slice_draining);
}

static inline struct rseq_slice_ctrl __user *
slice_user_ctrl(struct task_struct *t)
{
	return &t->rseq->slice_ctrl;
}

void slice_end_grant_async(struct task_struct *t, enum sliceext_grant_end how);
void slice_forget_all(void);

#endif /* _SLICEEXT_SLICE_H */
