/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sliceext: time slice extension and burst-aware scheduling for 6.12.
 * Declarations shared between the module's files.
 */
#ifndef _SLICEEXT_H
#define _SLICEEXT_H

/* Before any include, so that this is the one error such a build reports. */
#ifndef CONFIG_SCHED_SLICEEXT
#error "sliceext needs a kernel with CONFIG_SCHED_SLICEEXT=y (patches/6.12)"
#endif

#include <linux/sched/sliceext.h>

#define SLICEEXT_VERSION	"0.1.0"

/*
 * The hook ABI this module implements. Normally the one of the headers it
 * is built against; the test suite overrides it to check that a module
 * built for another core is refused at load.
 */
#ifndef SLICEEXT_MODULE_ABI
#define SLICEEXT_MODULE_ABI	SLICEEXT_HOOK_ABI_VERSION
#endif

#include <linux/sched.h>

/*
 * Burst state. Written under the task's runqueue lock (by the scheduler
 * hooks) or before the task is visible (fork); read locklessly by fork
 * inheritance and burst/tasks, for which a stale value is fine.
 */
struct sliceext_burst {
	u64	burst_ns;	/* CPU time since the last sleep or yield */
	u64	child_cache;	/* burst_cache_pack(): children's average */
	u64	group_cache;	/* same over the threads, in the leader */
	u16	penalty;	/* remembered penalty, smoothed at restarts */
	u8	score;		/* nice levels added to the load weight now */
};

/*
 * Per-task state, laid out in the 64 bytes the core reserves for us in
 * task_struct (struct sched_sliceext_state) and zeroes at fork. Only the
 * task itself touches the slice extension fields, or its CPU while it is
 * switched out, so plain accesses suffice. The slice extension fields
 * come first: unloading clears them separately from the burst state.
 */
struct sliceext_task {
	u8	ext_enabled;	/* PR_RSEQ_SLICE_EXT_ENABLE is set */
	u8	ext_granted;	/* a grant is live */
	u8	ext_yielded;	/* the last grant ended in rseq_slice_yield() */
	u8	ext_clear_user;	/* user slice_ctrl still shows an ended grant */
	u64	ext_grant_ns;	/* ktime_get_mono_fast_ns() at the grant */

	struct sliceext_burst	burst;
};

static inline struct sliceext_task *sliceext_task(struct task_struct *p)
{
	BUILD_BUG_ON(sizeof(struct sliceext_task) > sizeof(p->sliceext));
	BUILD_BUG_ON(__alignof__(struct sliceext_task) > __alignof__(p->sliceext));
	return (struct sliceext_task *)&p->sliceext;
}

/* Why a slice extension request was refused; see the sliceext_deny event. */
enum sliceext_deny_reason {
	SLICEEXT_DENY_DISABLED,		/* ext/enabled is 0, or unloading */
	SLICEEXT_DENY_RT_WAITER,	/* rt_guard: an RT or DL task waits */
	SLICEEXT_DENY_EXIT_WORK,	/* other exit-to-user work is pending */
	SLICEEXT_DENY_FAULT,		/* slice_ctrl not writable right now */
	SLICEEXT_DENY_NR,
};

/* Slice extension counters; ext/stats prints them in this order. */
enum sliceext_stat {
	SLICEEXT_STAT_REQUESTED,
	SLICEEXT_STAT_GRANTED,
	SLICEEXT_STAT_DENIED,		/* + enum sliceext_deny_reason */
	SLICEEXT_STAT_EXPIRED = SLICEEXT_STAT_DENIED + SLICEEXT_DENY_NR,
	SLICEEXT_STAT_REVOKED,
	SLICEEXT_STAT_YIELDED,
	SLICEEXT_STAT_ABORTED,
	SLICEEXT_STAT_NR,
};

/* Burst scheduling counters; burst/stats prints them in this order. */
enum sliceext_burst_stat {
	SLICEEXT_BURST_SCORE_CHANGES,	/* a task's score changed */
	SLICEEXT_BURST_RESTARTS,	/* sleeps and yields that ended a burst */
	SLICEEXT_BURST_FORK_THREAD,	/* threads that inherited a penalty */
	SLICEEXT_BURST_FORK_PROCESS,	/* processes that inherited one */
	SLICEEXT_BURST_CACHE_HITS,	/* inheritance served from a cache */
	SLICEEXT_BURST_CACHE_MISSES,	/* inheritance that sampled tasks */
	SLICEEXT_BURST_STAT_NR,
};

void sliceext_stat_inc(enum sliceext_stat stat);
void sliceext_hist_add(u64 used_ns);
void sliceext_burst_stat_inc(enum sliceext_burst_stat stat);
void sliceext_ext_stats_create(struct dentry *dir);
void sliceext_burst_stats_create(struct dentry *dir);

/* A u32 debugfs knob with an inclusive range; see sliceext_knobs_create(). */
struct sliceext_knob {
	const char	*name;
	u32		*value;
	u32		min;
	u32		max;
	void		(*changed)(void);	/* optional, after a write */
};

struct dentry;

/* Root of /sys/kernel/debug/sliceext/, valid between init and exit. */
extern struct dentry *sliceext_debugfs_root;

int sliceext_debugfs_init(void);
void sliceext_debugfs_exit(void);
void sliceext_knobs_create(struct dentry *dir, struct sliceext_knob *knobs,
			   unsigned int nr);

/* Time slice extension (ext.c) */
int sliceext_ext_init(struct dentry *root);
void sliceext_ext_drain(void);
void sliceext_ext_exit(void);

int sliceext_ext_rseq_register(struct rseq __user *rseq, int flags);
int sliceext_ext_prctl(unsigned long op, unsigned long arg);
long sliceext_ext_slice_yield(void);
void sliceext_ext_notify_resume(struct pt_regs *regs);
void sliceext_ext_irq_exit_to_user(struct pt_regs *regs);
bool sliceext_ext_syscall_enter(long nr);
void sliceext_ext_sched_out(struct task_struct *prev);

/* Burst-aware scheduling (burst.c) */
int sliceext_burst_init(struct dentry *root);
void sliceext_burst_exit(void);

void sliceext_burst_fork(struct task_struct *p, unsigned long clone_flags);
void sliceext_burst_accrue(struct task_struct *p, u64 delta_exec);
void sliceext_burst_end(struct task_struct *p);
void sliceext_burst_switched_to_fair(struct task_struct *p);
int sliceext_burst_prio_offset(struct task_struct *p);
int sliceext_burst_wakeup_vslice_shift(struct task_struct *p);
int sliceext_burst_lag_limit_shift(struct task_struct *p);

#endif /* _SLICEEXT_H */
