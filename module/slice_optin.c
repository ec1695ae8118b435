// SPDX-License-Identifier: GPL-2.0
/*
 * Time slice extension: which threads see it. A thread opts in at rseq
 * registration (RSEQ_FLAG_SLICE_EXT_DEFAULT_ON) or with prctl(); we show
 * it in the status bits of rseq->flags (AVAILABLE, ENABLED), clear a
 * granted byte it must no longer see, and, when unloading, have it take
 * our bits out of its area itself. The grants are slice.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/prctl.h>
#include <linux/rseq.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>

#include "sliceext.h"
#include "slice.h"

#define SLICE_STATUS_BITS	(RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE | \
				 RSEQ_CS_FLAG_SLICE_EXT_ENABLED)

/*
 * How long unloading waits for runnable threads to clear their own rseq
 * areas. Threads blocked in the kernel are not waited for: they may
 * never come back.
 */
#define SLICE_FORGET_WAIT_MS	1000

/*
 * @t's rseq area shows our status bits now (registration, prctl, fork).
 * If unloading began meanwhile, its walk may have missed @t: have @t undo
 * it on its way to user space. Pairs with the barrier between setting
 * sliceext_slice_draining and that walk.
 */
static void slice_published(struct task_struct *t)
{
	slice_of(t)->published = 1;
	/* Order the opt-in before reading sliceext_slice_draining. */
	smp_mb();
	if (READ_ONCE(sliceext_slice_draining)) {
		WRITE_ONCE(slice_of(t)->forget, 1);
		set_tsk_thread_flag(t, TIF_NOTIFY_RESUME);
	}
}

/*
 * Write the rseq area of current for the way back to user space: 0 to
 * slice_ctrl if the thread opted in or an ended grant shows there, and,
 * when unloading, flags without our status bits. A fault is reported as
 * -EFAULT with nothing half done that matters: every write here is
 * idempotent.
 */
static int slice_write_back(struct task_struct *t)
{
	struct sliceext_slice *st = slice_of(t);
	struct rseq __user *rseq = t->rseq;
	u32 zero = 0, flags;

	/* Notify-resume runs for task work too: keep a live grant's byte. */
	if ((st->enabled && !st->granted) || st->clear_user) {
		if (copy_to_user_nofault(&rseq->slice_ctrl.all, &zero,
					 sizeof(zero)))
			return -EFAULT;
		st->clear_user = 0;
	}
	if (READ_ONCE(st->forget)) {
		if (copy_from_user_nofault(&flags, &rseq->flags, sizeof(flags)))
			return -EFAULT;
		flags &= ~SLICE_STATUS_BITS;
		if (copy_to_user_nofault(&rseq->flags, &flags, sizeof(flags)))
			return -EFAULT;
		st->enabled = 0;
		st->published = 0;
		WRITE_ONCE(st->forget, 0);
	}
	return 0;
}

/*
 * An rseq thread returns to user space through TIF_NOTIFY_RESUME: after a
 * context switch, or because a grant ended, or because we are unloading.
 * Preemption off: true asks the core to fault the area in and call again.
 */
bool sliceext_rseq_notify_resume(struct pt_regs *regs)
{
	struct task_struct *t = current;
	struct sliceext_slice *st = slice_of(t);

	if (likely(!st->enabled && !st->clear_user && !READ_ONCE(st->forget)))
		return false;

	return slice_write_back(t);
}

/*
 * Publish the status bits in rseq->flags: AVAILABLE, and ENABLED if @on.
 * From the SRCU hooks, page faults off: -EFAULT has the core fault the
 * area in and call again; each write here may be repeated.
 */
static int slice_put_status(struct rseq __user *rseq, bool on)
{
	u32 flags;

	if (get_user(flags, &rseq->flags))
		return -EFAULT;
	flags &= ~SLICE_STATUS_BITS;
	flags |= RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE;
	if (on)
		flags |= RSEQ_CS_FLAG_SLICE_EXT_ENABLED;
	if (put_user(flags, &rseq->flags))
		return -EFAULT;
	/* Opting in makes the field ours: start it clean, as mainline. */
	if (on && put_user(0U, &rseq->slice_ctrl.all))
		return -EFAULT;
	return 0;
}

/*
 * rseq(2) registration of @rseq for current: a new area starts with the
 * extension off, or on with RSEQ_FLAG_SLICE_EXT_DEFAULT_ON. Whatever the
 * thread had before (an area unregistered, or left behind by execve())
 * is forgotten.
 */
int sliceext_rseq_register(struct rseq __user *rseq, int flags)
{
	struct sliceext_slice *st = slice_of(current);
	bool on = flags & RSEQ_FLAG_SLICE_EXT_DEFAULT_ON;
	int ret;

	st->published = 0;
	st->enabled = 0;
	st->clear_user = 0;
	WRITE_ONCE(st->forget, 0);
	if (slice_closed())
		return 0;

	ret = slice_put_status(rseq, on);
	if (ret)
		return ret;
	st->enabled = on;
	slice_published(current);
	return 0;
}

/*
 * Whether current has the extension on. execve() and rseq unregistration
 * drop the area; the state that went with it no longer counts, as
 * mainline's rseq_reset() would have cleared it.
 */
static bool slice_is_enabled(struct task_struct *t)
{
	return t->rseq && slice_of(t)->enabled;
}

/*
 * prctl(PR_RSEQ_SLICE_EXTENSION, @op, @arg, 0, 0), as mainline, except
 * that SET publishes the AVAILABLE bit itself instead of insisting it was
 * set at registration: threads may have registered before we loaded.
 */
int sliceext_rseq_prctl(unsigned long op, unsigned long arg)
{
	struct task_struct *t = current;
	bool on;

	switch (op) {
	case PR_RSEQ_SLICE_EXTENSION_GET:
		if (arg)
			return -EINVAL;
		return slice_is_enabled(t) ? PR_RSEQ_SLICE_EXT_ENABLE : 0;

	case PR_RSEQ_SLICE_EXTENSION_SET:
		if (arg & ~PR_RSEQ_SLICE_EXT_ENABLE)
			return -EINVAL;
		if (slice_closed())
			return -ENOTSUPP;
		if (!t->rseq)
			return -ENXIO;

		on = arg & PR_RSEQ_SLICE_EXT_ENABLE;
		if (on == slice_is_enabled(t))
			return 0;
		if (slice_put_status(t->rseq, on))
			return -EFAULT;
		slice_of(t)->enabled = on;
		slice_published(t);
		return 0;

	default:
		return -EINVAL;
	}
}

/*
 * current forked @p (fork hook, after the core zeroed @p's state): as
 * mainline's rseq_fork(), a child that shares nothing of the parent's
 * memory keeps its rseq area, and so its opt-in and the status bits in a
 * copy of the parent's flags; threads and vfork() children start without
 * an area.
 */
void sliceext_slice_fork(struct task_struct *p, unsigned long clone_flags)
{
	/* Copied from the parent's thread_info; the fork syscall ended any grant. */
	clear_task_syscall_work(p, SLICEEXT);
	if (!(clone_flags & CLONE_VM) && current->rseq &&
	    slice_of(current)->published) {
		slice_of(p)->enabled = slice_of(current)->enabled;
		slice_published(p);
	}
}

static bool slice_has_user_state(struct task_struct *t)
{
	struct sliceext_slice *st = slice_of(t);

	return t->rseq && (st->published || st->clear_user);
}

/* Threads that still have to clear their rseq area, and may yet do it. */
static unsigned int slice_forget_pending(bool *blocked_only)
{
	struct task_struct *g, *t;
	unsigned int n = 0;

	*blocked_only = true;
	guard(rcu)();
	for_each_process_thread(g, t) {
		if (!READ_ONCE(slice_of(t)->forget) || !t->rseq ||
		    (t->flags & PF_EXITING))
			continue;
		n++;
		if (task_is_running(t) || READ_ONCE(t->on_rq))
			*blocked_only = false;
	}
	return n;
}

/*
 * Unloading, after the last grant ended: have every thread that can see us
 * in its rseq area (status bits, a granted byte) clear it itself on its
 * way back to user space. We never write another task's memory: an
 * execve() or an rseq unregistration could have given the address to
 * someone else.
 *
 * Runnable threads get there quickly; threads blocked in the kernel may
 * not for a long time, and are not waited for: their areas keep the
 * status bits, and their requests are simply never granted again.
 */
void slice_forget_all(void)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(SLICE_FORGET_WAIT_MS);
	struct task_struct *g, *t;
	unsigned int pending;
	bool blocked_only;

	scoped_guard(rcu) {
		for_each_process_thread(g, t) {
			if (!slice_has_user_state(t))
				continue;
			WRITE_ONCE(slice_of(t)->forget, 1);
			set_tsk_thread_flag(t, TIF_NOTIFY_RESUME);
			/* A thread in user space on another CPU: bring it in. */
			kick_process(t);
		}
	}

	while ((pending = slice_forget_pending(&blocked_only)) &&
	       !blocked_only && time_before(jiffies, deadline))
		usleep_range(1000, 2000);
	if (pending)
		pr_info("%u threads blocked in the kernel keep the slice extension status bits in their rseq area\n",
			pending);
}
