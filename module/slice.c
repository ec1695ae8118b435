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
 *   irq_exit_to_user: request seen -> granted, timer armed,
 *                     SYSCALL_WORK_SLICEEXT set
 *   syscall_work:     granted -> yielded/aborted, reschedule, user
 *                     slice_ctrl cleared (as mainline, before the syscall)
 *   timer:            granted -> expired, reschedule
 *   irq_exit_to_user: granted, reschedule pending again -> revoked
 *   sched_out:        granted -> revoked
 *
 * After an expiry or a revocation the user's slice_ctrl is cleared on the
 * thread's next return to user space (rseq notify-resume), so the thread
 * never sees a stale granted byte. As in mainline, a thread that opted in
 * also finds its slice_ctrl cleared whenever it was scheduled out, and a
 * thread that has not opted in never has it written: some legacy rseq
 * users keep their own data there. Opting in, and what we write in a
 * thread's rseq area, is slice_optin.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/entry-common.h>
#include <linux/hrtimer.h>
#include <linux/rseq.h>
#include <linux/sched/signal.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

#include "sliceext.h"
#include "sliceext_trace.h"
#include "slice.h"

bool sliceext_slice_draining;

struct slice_cpu {
	struct hrtimer		timer;
	/* Task whose grant the armed timer guards; only this CPU writes it. */
	struct task_struct	*owner;
};

static DEFINE_PER_CPU(struct slice_cpu, slice_cpu);

/*
 * Interrupts off, so that a wakeup interrupt between the two cannot leave
 * them inconsistent (see mainline's rseq_slice_set_need_resched()).
 */
static void slice_set_need_resched(void)
{
	lockdep_assert_irqs_disabled();
	set_tsk_need_resched(current);
	set_preempt_need_resched();
}

/*
 * End @t's live grant: count and trace it, disarm what it armed. Interrupts
 * off, on @t's CPU, with @t current or being switched out there.
 */
static void slice_end_grant(struct task_struct *t, enum sliceext_grant_end how)
{
	struct sliceext_slice *st = slice_of(t);
	struct slice_cpu *c = this_cpu_ptr(&slice_cpu);
	u64 used = ktime_get_mono_fast_ns() - st->grant_ns;

	lockdep_assert_irqs_disabled();

	if (c->owner == t) {
		/* Never waits: the timer only runs in hard irq on this CPU. */
		hrtimer_try_to_cancel(&c->timer);
		c->owner = NULL;
	}
	clear_task_syscall_work(t, SLICEEXT);
	st->granted = 0;
	st->yielded = how == SLICEEXT_END_YIELDED;

	sliceext_stat_inc(SLICEEXT_STAT_END + how);
	sliceext_hist_add(used);

	switch (how) {
	case SLICEEXT_END_EXPIRED:
		trace_sliceext_expire(t, used);
		break;
	case SLICEEXT_END_YIELDED:
		trace_sliceext_yield(t, used);
		break;
	case SLICEEXT_END_REVOKED:
		trace_sliceext_revoke(t, used);
		break;
	case SLICEEXT_END_ABORTED:
		trace_sliceext_abort(t, used, syscall_get_nr(t, task_pt_regs(t)));
		break;
	default:
		break;
	}
}

/*
 * A grant ended outside a syscall: the user's slice_ctrl still shows it,
 * and is cleared on the way back to user space.
 */
void slice_end_grant_async(struct task_struct *t, enum sliceext_grant_end how)
{
	slice_end_grant(t, how);
	slice_of(t)->clear_user = 1;
	set_tsk_thread_flag(t, TIF_NOTIFY_RESUME);
}

static enum hrtimer_restart slice_timer_fn(struct hrtimer *timer)
{
	struct slice_cpu *c = container_of(timer, struct slice_cpu, timer);

	/* The owner may have been switched out without a chance to cancel. */
	if (c->owner == current && slice_of(current)->granted) {
		slice_end_grant_async(current, SLICEEXT_END_EXPIRED);
		slice_set_need_resched();
	}
	c->owner = NULL;
	return HRTIMER_NORESTART;
}

static void slice_deny(struct task_struct *t, enum sliceext_deny_reason why)
{
	sliceext_stat_inc(SLICEEXT_STAT_DENIED + why);
	trace_sliceext_deny(t, why);
}

/*
 * Exit work, other than the reschedule, that denies a grant. As mainline,
 * any, with one exception: 6.12's scheduler tick queues the mm_cid scan as
 * task work on the running thread (task_tick_mm_cid(), once per 100 ms per
 * process), and the tick that queues it is often the one that ends the
 * slice. 7.x runs that scan from a workqueue, so it is no exit work there;
 * here the exit loop runs it (a short walk over the CPUs) inside the
 * grant, whose timer bounds it like any other time in the grant.
 */
static unsigned long slice_other_work(struct task_struct *t,
				      unsigned long work)
{
	work &= EXIT_TO_USER_MODE_WORK & ~_TIF_NEED_RESCHED;
#ifdef CONFIG_SCHED_MM_CID
	if (work == _TIF_NOTIFY_RESUME) {
		struct callback_head *head = READ_ONCE(t->task_works);

		if (head == &t->cid_work && !READ_ONCE(head->next))
			work = 0;
	}
#endif
	return work;
}

/*
 * Interrupt or exception return to user mode, interrupts off, before the
 * exit work loop: the only place a grant is made, as in mainline (never
 * on syscall return). User memory is accessed without faulting: the
 * thread wrote its request moments ago, so the page is normally there;
 * when it is not, the request is denied ("fault") rather than served.
 */
void sliceext_irq_exit_to_user(struct pt_regs *regs)
{
	struct task_struct *t = current;
	struct sliceext_slice *st = slice_of(t);
	unsigned long work = read_thread_flags();
	struct rseq_slice_ctrl ctrl;
	struct slice_cpu *c;
	u32 slice_ns;

	if (likely(!st->enabled) || !t->rseq)
		return;
	if (!(work & _TIF_NEED_RESCHED) && !st->granted)
		return;

	/*
	 * A second preemption point inside a grant takes it back; so does a
	 * signal, as in mainline, whose handler is no part of the critical
	 * section the grant was for: the reschedule the grant held back is
	 * due now, and the handler finds slice_ctrl clear. No grant is made
	 * with a signal pending (slice_other_work()), so one pending now came
	 * during the grant.
	 */
	if (st->granted) {
		if (work & (_TIF_NEED_RESCHED | _TIF_SIGPENDING |
			    _TIF_NOTIFY_SIGNAL)) {
			slice_end_grant_async(t, SLICEEXT_END_REVOKED);
			slice_set_need_resched();
		}
		return;
	}

	if (copy_from_user_nofault(&ctrl, slice_user_ctrl(t), sizeof(ctrl)) ||
	    !ctrl.request)
		return;

	sliceext_stat_inc(SLICEEXT_STAT_REQUESTED);

	if (slice_closed()) {
		slice_deny(t, SLICEEXT_DENY_DISABLED);
		return;
	}
	if (slice_other_work(t, work)) {
		slice_deny(t, SLICEEXT_DENY_EXIT_WORK);
		return;
	}
	if (sliceext_knob(ext, rt_guard) && sliceext_rt_waiting()) {
		slice_deny(t, SLICEEXT_DENY_RT_WAITER);
		return;
	}

	ctrl.request = 0;
	ctrl.granted = 1;
	if (copy_to_user_nofault(slice_user_ctrl(t), &ctrl, sizeof(ctrl))) {
		slice_deny(t, SLICEEXT_DENY_FAULT);
		return;
	}

	clear_tsk_need_resched(t);
	clear_preempt_need_resched();

	slice_ns = sliceext_knob(ext, slice_ext_nsec);
	st->granted = 1;
	/* slice_ctrl shows this grant now, not an ended one. */
	st->clear_user = 0;
	st->grant_ns = ktime_get_mono_fast_ns();
	set_task_syscall_work(t, SLICEEXT);
	c = this_cpu_ptr(&slice_cpu);
	c->owner = t;
	hrtimer_start(&c->timer, ns_to_ktime(slice_ns),
		      HRTIMER_MODE_REL_PINNED_HARD);

	sliceext_stat_inc(SLICEEXT_STAT_GRANTED);
	trace_sliceext_grant(t, slice_ns);
}

/*
 * An x32 task's syscall numbers carry __X32_SYSCALL_BIT; an i386 task's
 * table gives rseq_slice_yield the same number as the 64-bit one.
 */
static bool slice_is_yield(long nr)
{
#ifdef __X32_SYSCALL_BIT
	nr &= ~__X32_SYSCALL_BIT;
#endif
	return nr == __NR_rseq_slice_yield;
}

/*
 * Syscall entry with SYSCALL_WORK_SLICEEXT set, process context: any
 * syscall ends a grant, which is the point of rseq_slice_yield(). As in
 * mainline, the CPU is given up right here, and the user's slice_ctrl is
 * cleared before the syscall runs, so that a fork inside a grant leaves
 * no granted byte in the child.
 */
int sliceext_syscall_work(long nr)
{
	struct task_struct *t = current;
	struct sliceext_slice *st = slice_of(t);
	bool clear;

	/* Leaving the preempt scope reschedules on preemptible kernels. */
	scoped_guard(preempt) {
		/* The timer may end the grant under us. */
		scoped_guard(irq) {
			if (st->granted) {
				slice_end_grant(t, slice_is_yield(nr) ?
						   SLICEEXT_END_YIELDED :
						   SLICEEXT_END_ABORTED);
				slice_set_need_resched();
				st->clear_user = 1;
			}
			clear_task_syscall_work(t, SLICEEXT);
			clear = st->clear_user;
			st->clear_user = 0;
		}
	}
	/* And this on the others. */
	cond_resched();

	/* Page faults are off: on -EFAULT the core faults in and calls again. */
	if (clear && t->rseq && put_user(0U, &slice_user_ctrl(t)->all)) {
		st->clear_user = 1;
		return -EFAULT;
	}
	return 0;
}

/* rseq_slice_yield(2), preemption off: 1 if syscall entry ended a grant. */
long sliceext_rseq_slice_yield(void)
{
	struct sliceext_slice *st = slice_of(current);
	long yielded = st->yielded;

	st->yielded = 0;
	return yielded;
}

/* Any context switch ends a grant. Runqueue locked, interrupts off. */
void sliceext_sched_out(struct task_struct *prev)
{
	if (unlikely(slice_of(prev)->granted))
		slice_end_grant_async(prev, SLICEEXT_END_REVOKED);
}

void sliceext_slice_init(void)
{
	struct dentry *dir = sliceext_debugfs_dir("ext");
	int cpu;

	for_each_possible_cpu(cpu)
		hrtimer_init(&per_cpu(slice_cpu, cpu).timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
	for_each_possible_cpu(cpu)
		per_cpu(slice_cpu, cpu).timer.function = slice_timer_fn;

	sliceext_knobs_create(dir, "ext");
	sliceext_slice_stats_create(dir);
}

/* On each CPU: end the grant its timer guards, so its owner reschedules. */
static void slice_drain_cpu(void *unused)
{
	struct slice_cpu *c = this_cpu_ptr(&slice_cpu);
	struct task_struct *t = c->owner;

	if (t && slice_of(t)->granted) {
		slice_end_grant_async(t, SLICEEXT_END_REVOKED);
		if (t == current)
			slice_set_need_resched();
	}
}

/*
 * First step of unloading, hooks still registered: stop granting, end the
 * live grants, and have every thread that can see us in its rseq area
 * clear it (slice_forget_all()).
 */
void sliceext_slice_stop(void)
{
	WRITE_ONCE(sliceext_slice_draining, true);
	/* Pairs with slice_published(): it sees draining, or we see it. */
	smp_mb();
	on_each_cpu(slice_drain_cpu, NULL, 1);
	slice_forget_all();
}

/*
 * Last step of unloading, hooks unregistered: no timer may stay armed and
 * no task may keep state of ours.
 */
void sliceext_slice_exit(void)
{
	struct task_struct *g, *t;
	int cpu;

	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu(slice_cpu, cpu).timer);

	guard(rcu)();
	for_each_process_thread(g, t) {
		clear_task_syscall_work(t, SLICEEXT);
		memset(slice_of(t), 0, sizeof(struct sliceext_slice));
	}
}
