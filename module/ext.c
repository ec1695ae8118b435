// SPDX-License-Identifier: GPL-2.0
/*
 * Time slice extension: the rseq slice_ctrl ABI of Linux 7.0.
 *
 * A thread sets rseq->slice_ctrl.request around a short critical section.
 * When an interrupt returns to it with a reschedule pending, it may keep
 * the CPU for up to slice_ext_nsec: the request becomes a grant, the
 * reschedule is cleared and a per-CPU timer armed. The grant ends when
 * the thread makes a syscall (rseq_slice_yield() or any other), when the
 * timer fires, or when the kernel takes the CPU at a later preemption
 * point; each grant ends exactly once and is counted by how it ended.
 *
 * Lifetime of a grant, all on the thread's CPU:
 *
 *   irq_exit_to_user: request seen -> granted, timer armed
 *   syscall_enter:    granted -> yielded/aborted, reschedule
 *   timer:            granted -> expired, reschedule
 *   irq_exit_to_user: granted, reschedule pending again -> revoked
 *   sched_out:        granted -> revoked
 *
 * Whenever a grant ends, the user's slice_ctrl is cleared on the thread's
 * next return to user space (rseq notify-resume, where faults are fine),
 * so the thread never sees a stale granted byte.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/entry-common.h>
#include <linux/hrtimer.h>
#include <linux/mm.h>
#include <linux/prctl.h>
#include <linux/rseq.h>
#include <linux/timekeeping.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <asm/unistd.h>

#include "sliceext.h"
#include "sliceext_trace.h"

#define SLICEEXT_STATUS_BITS	(RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE | \
				 RSEQ_CS_FLAG_SLICE_EXT_ENABLED)

/* Knobs, see ext/ in debugfs. */
static u32 ext_enabled = 1;
static u32 ext_slice_nsec = 5 * NSEC_PER_USEC;
static u32 ext_rt_guard = 1;

/* Set while unloading: no new grants. */
static bool ext_draining;

struct ext_cpu {
	struct hrtimer		timer;
	/* Task whose grant the armed timer guards; only this CPU writes it. */
	struct task_struct	*owner;
};

static DEFINE_PER_CPU(struct ext_cpu, ext_cpu);

static inline struct rseq_slice_ctrl __user *ext_user_ctrl(struct task_struct *t)
{
	return &t->rseq->slice_ctrl;
}

static void ext_set_need_resched(void)
{
	set_tsk_need_resched(current);
	set_preempt_need_resched();
}

/*
 * End @t's live grant: count it, trace it, and have the user's slice_ctrl
 * cleared before @t next runs in user space. Interrupts off, on @t's CPU
 * (or with @t switched out there).
 */
static void ext_end_grant(struct task_struct *t, enum sliceext_stat how)
{
	struct sliceext_task *st = sliceext_task(t);
	struct ext_cpu *c = this_cpu_ptr(&ext_cpu);
	u64 used = ktime_get_mono_fast_ns() - st->ext_grant_ns;

	lockdep_assert_irqs_disabled();

	if (c->owner == t) {
		/* Never waits: the timer only runs in hard irq on this CPU. */
		hrtimer_try_to_cancel(&c->timer);
		c->owner = NULL;
	}

	st->ext_granted = 0;
	st->ext_yielded = how == SLICEEXT_STAT_YIELDED;
	st->ext_clear_user = 1;
	if (t->rseq)
		set_tsk_thread_flag(t, TIF_NOTIFY_RESUME);

	sliceext_stat_inc(how);
	sliceext_hist_add(used);

	switch (how) {
	case SLICEEXT_STAT_EXPIRED:
		trace_sliceext_expire(t, used);
		break;
	case SLICEEXT_STAT_YIELDED:
		trace_sliceext_yield(t, used);
		break;
	case SLICEEXT_STAT_REVOKED:
		trace_sliceext_revoke(t, used);
		break;
	default:
		break;
	}
}

static enum hrtimer_restart ext_timer_fn(struct hrtimer *timer)
{
	struct ext_cpu *c = container_of(timer, struct ext_cpu, timer);

	/* The owner may have been switched out without a chance to cancel. */
	if (c->owner == current && sliceext_task(current)->ext_granted) {
		ext_end_grant(current, SLICEEXT_STAT_EXPIRED);
		ext_set_need_resched();
	}
	c->owner = NULL;
	return HRTIMER_NORESTART;
}

static void ext_deny(struct task_struct *t, enum sliceext_deny_reason why)
{
	sliceext_stat_inc(SLICEEXT_STAT_DENIED + why);
	trace_sliceext_deny(t, why);
}

/*
 * Interrupt or exception return to user mode, interrupts off, before the
 * exit work loop: the only place a grant is made, as in mainline (never
 * on syscall return). User memory is accessed without faulting; the
 * thread wrote its request moments ago, so the page is there.
 */
void sliceext_ext_irq_exit_to_user(struct pt_regs *regs)
{
	struct task_struct *t = current;
	struct sliceext_task *st = sliceext_task(t);
	unsigned long work = read_thread_flags();
	struct rseq_slice_ctrl ctrl;
	struct ext_cpu *c;
	u32 slice_ns;

	if (likely(!st->ext_enabled) || !(work & _TIF_NEED_RESCHED) || !t->rseq)
		return;

	/* A second preemption point inside a grant takes it back. */
	if (st->ext_granted) {
		ext_end_grant(t, SLICEEXT_STAT_REVOKED);
		return;
	}

	if (copy_from_user_nofault(&ctrl, ext_user_ctrl(t), sizeof(ctrl)) ||
	    !ctrl.request)
		return;

	sliceext_stat_inc(SLICEEXT_STAT_REQUESTED);

	if (!READ_ONCE(ext_enabled) || READ_ONCE(ext_draining)) {
		ext_deny(t, SLICEEXT_DENY_DISABLED);
		return;
	}
	if (work & (EXIT_TO_USER_MODE_WORK & ~_TIF_NEED_RESCHED)) {
		ext_deny(t, SLICEEXT_DENY_EXIT_WORK);
		return;
	}
	if (READ_ONCE(ext_rt_guard) && sliceext_rt_waiting()) {
		ext_deny(t, SLICEEXT_DENY_RT_WAITER);
		return;
	}

	ctrl.request = 0;
	ctrl.granted = 1;
	if (copy_to_user_nofault(ext_user_ctrl(t), &ctrl, sizeof(ctrl))) {
		ext_deny(t, SLICEEXT_DENY_FAULT);
		return;
	}

	clear_tsk_need_resched(t);
	clear_preempt_need_resched();

	slice_ns = READ_ONCE(ext_slice_nsec);
	st->ext_granted = 1;
	st->ext_grant_ns = ktime_get_mono_fast_ns();
	c = this_cpu_ptr(&ext_cpu);
	c->owner = t;
	hrtimer_start(&c->timer, ns_to_ktime(slice_ns),
		      HRTIMER_MODE_REL_PINNED_HARD);

	sliceext_stat_inc(SLICEEXT_STAT_GRANTED);
	trace_sliceext_grant(t, slice_ns);
}

/*
 * Syscall entry, preemption off: any syscall ends a grant, which is the
 * point of rseq_slice_yield(). Returning true makes the core reschedule
 * before the syscall runs.
 */
bool sliceext_ext_syscall_enter(long nr)
{
	struct task_struct *t = current;
	struct sliceext_task *st = sliceext_task(t);
	unsigned long flags;
	bool ended = false;

	if (likely(!st->ext_granted))
		return false;

	/* The timer may end the grant under us. */
	local_irq_save(flags);
	if (st->ext_granted) {
		u64 used = ktime_get_mono_fast_ns() - st->ext_grant_ns;

		if (nr == __NR_rseq_slice_yield) {
			ext_end_grant(t, SLICEEXT_STAT_YIELDED);
		} else {
			ext_end_grant(t, SLICEEXT_STAT_ABORTED);
			trace_sliceext_abort(t, used, nr);
		}
		ext_set_need_resched();
		ended = true;
	}
	local_irq_restore(flags);
	return ended;
}

/* rseq_slice_yield(2): 1 if the syscall entry just ended a live grant. */
long sliceext_ext_slice_yield(void)
{
	struct sliceext_task *st = sliceext_task(current);
	long yielded = st->ext_yielded;

	st->ext_yielded = 0;
	return yielded;
}

/* Any context switch ends a grant. Runqueue locked, interrupts off. */
void sliceext_ext_sched_out(struct task_struct *prev)
{
	if (unlikely(sliceext_task(prev)->ext_granted))
		ext_end_grant(prev, SLICEEXT_STAT_REVOKED);
}

/*
 * Return to user space of an rseq thread with TIF_NOTIFY_RESUME, faults
 * allowed: clear the user's view of a grant that has ended.
 */
void sliceext_ext_notify_resume(struct pt_regs *regs)
{
	struct task_struct *t = current;
	struct sliceext_task *st = sliceext_task(t);

	if (likely(!st->ext_clear_user))
		return;

	st->ext_clear_user = 0;
	if (put_user(0U, &ext_user_ctrl(t)->all))
		force_sig(SIGSEGV);
}

/* Publish the status bits in rseq->flags: AVAILABLE, and ENABLED if @on. */
static int ext_put_status(struct rseq __user *rseq, bool on)
{
	u32 flags;

	if (get_user(flags, &rseq->flags))
		return -EFAULT;
	flags &= ~SLICEEXT_STATUS_BITS;
	flags |= RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE;
	if (on)
		flags |= RSEQ_CS_FLAG_SLICE_EXT_ENABLED;
	if (put_user(flags, &rseq->flags))
		return -EFAULT;
	return 0;
}

/*
 * rseq(2) registration of @rseq for current: a new area starts with the
 * extension off, or on with RSEQ_FLAG_SLICE_EXT_DEFAULT_ON.
 */
int sliceext_ext_rseq_register(struct rseq __user *rseq, int flags)
{
	struct sliceext_task *st = sliceext_task(current);
	bool on = flags & RSEQ_FLAG_SLICE_EXT_DEFAULT_ON;
	int ret;

	st->ext_enabled = 0;
	st->ext_clear_user = 0;
	if (!READ_ONCE(ext_enabled))
		return 0;

	ret = ext_put_status(rseq, on);
	if (ret)
		return ret;
	st->ext_enabled = on;
	return 0;
}

/*
 * prctl(PR_RSEQ_SLICE_EXTENSION, @op, @arg, 0, 0), as mainline, except
 * that SET publishes the AVAILABLE bit itself instead of insisting it was
 * set at registration: threads may have registered before we loaded.
 */
int sliceext_ext_prctl(unsigned long op, unsigned long arg)
{
	struct task_struct *t = current;
	struct sliceext_task *st = sliceext_task(t);
	bool on;

	switch (op) {
	case PR_RSEQ_SLICE_EXTENSION_GET:
		if (arg)
			return -EINVAL;
		return st->ext_enabled ? PR_RSEQ_SLICE_EXT_ENABLE : 0;

	case PR_RSEQ_SLICE_EXTENSION_SET:
		if (arg & ~PR_RSEQ_SLICE_EXT_ENABLE)
			return -EINVAL;
		if (!READ_ONCE(ext_enabled))
			return -ENOTSUPP;
		if (!t->rseq)
			return -ENXIO;

		on = arg & PR_RSEQ_SLICE_EXT_ENABLE;
		if (on == st->ext_enabled)
			return 0;
		if (ext_put_status(t->rseq, on)) {
			force_sig(SIGSEGV);
			return -EFAULT;
		}
		st->ext_enabled = on;
		return 0;

	default:
		return -EINVAL;
	}
}

static struct sliceext_knob ext_knobs[] = {
	{ "enabled",		&ext_enabled,		0, 1 },
	{ "slice_ext_nsec",	&ext_slice_nsec,	5 * NSEC_PER_USEC,
							50 * NSEC_PER_USEC },
	{ "rt_guard",		&ext_rt_guard,		0, 1 },
};

int sliceext_ext_init(struct dentry *root)
{
	struct dentry *dir;
	int cpu;

	for_each_possible_cpu(cpu)
		hrtimer_init(&per_cpu(ext_cpu, cpu).timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
	for_each_possible_cpu(cpu)
		per_cpu(ext_cpu, cpu).timer.function = ext_timer_fn;

	dir = debugfs_create_dir("ext", root);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	sliceext_knobs_create(dir, ext_knobs, ARRAY_SIZE(ext_knobs));
	sliceext_ext_stats_create(dir);
	return 0;
}

/* On each CPU: end the grant its timer guards, so its owner reschedules. */
static void ext_drain_cpu(void *unused)
{
	struct ext_cpu *c = this_cpu_ptr(&ext_cpu);
	struct task_struct *t = c->owner;

	if (t && sliceext_task(t)->ext_granted) {
		ext_end_grant(t, SLICEEXT_STAT_REVOKED);
		if (t == current)
			ext_set_need_resched();
	}
}

/*
 * First step of unloading, hooks still registered: stop granting and end
 * the live grants, so that their owners clear their slice_ctrl through
 * the notify-resume hook on the way back to user space.
 */
void sliceext_ext_drain(void)
{
	WRITE_ONCE(ext_draining, true);
	on_each_cpu(ext_drain_cpu, NULL, 1);
}

static bool ext_task_needs_forget(struct task_struct *t)
{
	struct sliceext_task *st = sliceext_task(t);

	return st->ext_enabled || st->ext_clear_user;
}

/* Clear what a thread could still see of us in its rseq area. */
static void ext_forget_task(struct task_struct *t)
{
	struct sliceext_task *st = sliceext_task(t);
	struct rseq __user *rseq = READ_ONCE(t->rseq);
	u8 zero = 0;
	u32 flags;

	if (rseq && st->ext_clear_user)
		access_process_vm(t, (unsigned long)&rseq->slice_ctrl.granted,
				  &zero, sizeof(zero), FOLL_WRITE);
	if (rseq && access_process_vm(t, (unsigned long)&rseq->flags, &flags,
				      sizeof(flags), 0) == sizeof(flags) &&
	    (flags & SLICEEXT_STATUS_BITS)) {
		flags &= ~SLICEEXT_STATUS_BITS;
		access_process_vm(t, (unsigned long)&rseq->flags, &flags,
				  sizeof(flags), FOLL_WRITE);
	}
	memset(st, 0, offsetof(struct sliceext_task, burst));
}

/*
 * Last step of unloading, hooks unregistered: no timer may stay armed and
 * no task may keep state or user-visible status bits of ours.
 */
void sliceext_ext_exit(void)
{
	struct task_struct *g, *t, **todo;
	unsigned int n = 0, max = 0, i;
	int cpu;

	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu(ext_cpu, cpu).timer);

	/*
	 * access_process_vm() sleeps, so collect the tasks under RCU first;
	 * count them in a first pass. Tasks forked meanwhile start zeroed.
	 */
	rcu_read_lock();
	for_each_process_thread(g, t)
		max += ext_task_needs_forget(t);
	rcu_read_unlock();
	if (!max)
		return;
	max += 16;
	todo = kvmalloc_array(max, sizeof(*todo), GFP_KERNEL);

	rcu_read_lock();
	for_each_process_thread(g, t) {
		if (!ext_task_needs_forget(t))
			continue;
		if (todo && n < max) {
			get_task_struct(t);
			todo[n++] = t;
		} else {
			/* Out of room: at least forget our state. */
			memset(sliceext_task(t), 0,
			       offsetof(struct sliceext_task, burst));
		}
	}
	rcu_read_unlock();

	for (i = 0; i < n; i++) {
		ext_forget_task(todo[i]);
		put_task_struct(todo[i]);
	}
	kvfree(todo);
}
