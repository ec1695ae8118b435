/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sliceext

#if !defined(_SLICEEXT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SLICEEXT_TRACE_H

#include <linux/sched.h>
#include <linux/tracepoint.h>

#include "sliceext.h"

/* A thread in a request window was allowed to run on for @slice_ns. */
TRACE_EVENT(sliceext_grant,
	    TP_PROTO(struct task_struct *p, u64 slice_ns),
	    TP_ARGS(p, slice_ns),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(int, cpu)
			     __field(u64, slice_ns)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->cpu = smp_processor_id();
			   __entry->slice_ns = slice_ns;),
	    TP_printk("pid=%d cpu=%d slice_ns=%llu",
		      __entry->pid, __entry->cpu, __entry->slice_ns)
);

/*
 * A request met a preemption point but was refused. The reason is
 * recorded by name (the name table of ext/stats), so that every tool
 * prints it without an enum map.
 */
TRACE_EVENT(sliceext_deny,
	    TP_PROTO(struct task_struct *p, enum sliceext_deny_reason reason),
	    TP_ARGS(p, reason),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(int, cpu)
			     __string(reason, sliceext_deny_name(reason))),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->cpu = smp_processor_id();
			   __assign_str(reason);),
	    TP_printk("pid=%d cpu=%d reason=%s",
		      __entry->pid, __entry->cpu, __get_str(reason))
);

/* A grant ended; @used_ns is the time from grant to its end. */
DECLARE_EVENT_CLASS(sliceext_grant_end,
		    TP_PROTO(struct task_struct *p, u64 used_ns),
		    TP_ARGS(p, used_ns),
		    TP_STRUCT__entry(__field(pid_t, pid)
				     __field(int, cpu)
				     __field(u64, used_ns)),
		    TP_fast_assign(__entry->pid = p->pid;
				   __entry->cpu = smp_processor_id();
				   __entry->used_ns = used_ns;),
		    TP_printk("pid=%d cpu=%d used_ns=%llu",
			      __entry->pid, __entry->cpu, __entry->used_ns)
);

/* The grant timer fired before the thread gave the CPU back. */
DEFINE_EVENT(sliceext_grant_end, sliceext_expire,
	     TP_PROTO(struct task_struct *p, u64 used_ns),
	     TP_ARGS(p, used_ns));

/* The thread called rseq_slice_yield() inside its grant. */
DEFINE_EVENT(sliceext_grant_end, sliceext_yield,
	     TP_PROTO(struct task_struct *p, u64 used_ns),
	     TP_ARGS(p, used_ns));

/* A later preemption point or a context switch took the CPU back. */
DEFINE_EVENT(sliceext_grant_end, sliceext_revoke,
	     TP_PROTO(struct task_struct *p, u64 used_ns),
	     TP_ARGS(p, used_ns));

/* The thread made a syscall other than rseq_slice_yield() inside its grant. */
TRACE_EVENT(sliceext_abort,
	    TP_PROTO(struct task_struct *p, u64 used_ns, long syscall),
	    TP_ARGS(p, used_ns, syscall),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(int, cpu)
			     __field(u64, used_ns)
			     __field(long, syscall)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->cpu = smp_processor_id();
			   __entry->used_ns = used_ns;
			   __entry->syscall = syscall;),
	    TP_printk("pid=%d cpu=%d used_ns=%llu syscall=%ld",
		      __entry->pid, __entry->cpu, __entry->used_ns,
		      __entry->syscall)
);

/* A task's burst score changed. */
TRACE_EVENT(sliceext_burst_score,
	    TP_PROTO(struct task_struct *p, unsigned int old_score,
		     unsigned int new_score, u64 burst_ns),
	    TP_ARGS(p, old_score, new_score, burst_ns),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(int, cpu)
			     __field(unsigned int, old_score)
			     __field(unsigned int, new_score)
			     __field(u64, burst_ns)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->cpu = task_cpu(p);
			   __entry->old_score = old_score;
			   __entry->new_score = new_score;
			   __entry->burst_ns = burst_ns;),
	    TP_printk("pid=%d cpu=%d score=%u->%u burst_ns=%llu",
		      __entry->pid, __entry->cpu, __entry->old_score,
		      __entry->new_score, __entry->burst_ns)
);

/* A task's load weight was changed to apply or remove its burst score. */
TRACE_EVENT(sliceext_reweight,
	    TP_PROTO(struct task_struct *p, int old_prio, int new_prio,
		     unsigned long old_weight, unsigned long new_weight),
	    TP_ARGS(p, old_prio, new_prio, old_weight, new_weight),
	    TP_STRUCT__entry(__field(pid_t, pid)
			     __field(int, cpu)
			     __field(int, old_prio)
			     __field(int, new_prio)
			     __field(unsigned long, old_weight)
			     __field(unsigned long, new_weight)),
	    TP_fast_assign(__entry->pid = p->pid;
			   __entry->cpu = task_cpu(p);
			   __entry->old_prio = old_prio;
			   __entry->new_prio = new_prio;
			   __entry->old_weight = old_weight;
			   __entry->new_weight = new_weight;),
	    TP_printk("pid=%d cpu=%d prio=%d->%d weight=%lu->%lu",
		      __entry->pid, __entry->cpu, __entry->old_prio,
		      __entry->new_prio, __entry->old_weight,
		      __entry->new_weight)
);

#endif /* _SLICEEXT_TRACE_H */

/* Out of tree: the header is found relative to -I$(src)/module. */
#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE sliceext_trace
#include <trace/define_trace.h>
