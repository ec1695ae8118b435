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

#define SLICEEXT_VERSION	"0.2.0"

/*
 * The hook ABI this module implements. Normally the one of the headers it
 * is built against; the test suite overrides it to check that a module
 * built for another core is refused at load.
 */
#ifndef SLICEEXT_MODULE_ABI
#define SLICEEXT_MODULE_ABI	SLICEEXT_HOOK_ABI_VERSION
#endif

#include <linux/percpu.h>
#include <linux/sched.h>

struct dentry;
struct pt_regs;
struct rseq;

/*
 * Time slice extension state. The thread itself writes it, or its CPU
 * while it is switched out, with interrupts off where the grant timer
 * could race; only @forget is also written by the unloading thread.
 */
struct sliceext_slice {
	u8	published;	/* our status bits are in its rseq->flags */
	u8	enabled;	/* PR_RSEQ_SLICE_EXT_ENABLE is set */
	u8	granted;	/* a grant is live */
	u8	yielded;	/* the last grant ended in rseq_slice_yield() */
	u8	clear_user;	/* user slice_ctrl still shows an ended grant */
	u8	forget;		/* unloading: clear our bits in the rseq area */
	u64	grant_ns;	/* ktime_get_mono_fast_ns() at the grant */
};

/*
 * Burst state. Written under the task's runqueue lock (by the scheduler
 * hooks) or before the task first runs (fork); read locklessly by fork
 * inheritance and burst/tasks, for which a stale value is fine.
 */
struct sliceext_burst {
	u64	burst_ns;	/* CPU time since the last sleep or yield */
	u64	child_cache;	/* burst_cache_pack(): children's average */
	u64	group_cache;	/* same over the threads, in the leader */
	u16	penalty;	/* remembered penalty, smoothed at restarts */
	u8	score;		/* nice levels in the load weight now */
	u8	futex_wait;	/* in a futex wait: written by the task itself */
	u16	waker_cpu;	/* 1 + CPU of the task that last woke it; 0: none */
};

/*
 * Per-task state, laid out in the 64 bytes the core reserves for us in
 * task_struct (struct sched_sliceext_state) and zeroes at fork.
 */
struct sliceext_task {
	struct sliceext_slice	slice;
	struct sliceext_burst	burst;
};

static inline struct sliceext_task *sliceext_task(struct task_struct *p)
{
	BUILD_BUG_ON(sizeof(struct sliceext_task) > sizeof(p->sliceext));
	BUILD_BUG_ON(__alignof__(struct sliceext_task) > __alignof__(p->sliceext));
	return (struct sliceext_task *)&p->sliceext;
}

/* The enumerations of counters.h. */
#define SLICEEXT_DENY(value, ...)	value,
#define SLICEEXT_END(...)
#define SLICEEXT_BURST_STAT(...)
enum sliceext_deny_reason {
#include "counters.h"
	SLICEEXT_DENY_NR
};

#define SLICEEXT_DENY(...)
#define SLICEEXT_END(value, ...)	value,
#define SLICEEXT_BURST_STAT(...)
enum sliceext_grant_end {
#include "counters.h"
	SLICEEXT_END_NR
};

#define SLICEEXT_DENY(...)
#define SLICEEXT_END(...)
#define SLICEEXT_BURST_STAT(value, ...)	value,
enum sliceext_burst_stat {
#include "counters.h"
	SLICEEXT_BURST_STAT_NR
};

/*
 * Slice extension counters, in ext/stats order: requested, granted, one
 * per denial reason, one per way a grant ends.
 */
enum sliceext_stat {
	SLICEEXT_STAT_REQUESTED,
	SLICEEXT_STAT_GRANTED,
	SLICEEXT_STAT_DENIED,
	SLICEEXT_STAT_END = SLICEEXT_STAT_DENIED + SLICEEXT_DENY_NR,
	SLICEEXT_STAT_NR = SLICEEXT_STAT_END + SLICEEXT_END_NR,
};

/* Bucket i counts uses of [2^i, 2^(i+1)) ns; slice_ext_nsec is < 2^16. */
#define SLICEEXT_HIST_BUCKETS	32

/*
 * Counters (stats.c): per CPU, lock-free, safe from any context. The
 * increments are inline: the scheduler hooks count on every request,
 * sleep and futex wakeup, where a call would cost more than the count.
 */
struct sliceext_counters {
	u64	stat[SLICEEXT_STAT_NR];
	u64	hist[SLICEEXT_HIST_BUCKETS];
	u64	burst[SLICEEXT_BURST_STAT_NR];
};

DECLARE_PER_CPU(struct sliceext_counters, sliceext_counters);

static inline void sliceext_stat_inc(enum sliceext_stat stat)
{
	this_cpu_inc(sliceext_counters.stat[stat]);
}

static inline void sliceext_burst_stat_inc(enum sliceext_burst_stat stat)
{
	this_cpu_inc(sliceext_counters.burst[stat]);
}

void sliceext_hist_add(u64 used_ns);
void sliceext_slice_stats_create(struct dentry *dir);
const char *sliceext_deny_name(enum sliceext_deny_reason reason);
void sliceext_slice_stats_log(void);
void sliceext_burst_stats_create(struct dentry *dir);

/* The knobs of knob_list.h, in its order: SLICEEXT_KNOB_burst_enabled ... */
enum sliceext_knob_id {
#define SLICEEXT_KNOB(dir, name, ...)	SLICEEXT_KNOB_##dir##_##name,
#include "knob_list.h"
	SLICEEXT_KNOB_NR
};

/*
 * A u32 knob with an inclusive range (knobs.c): the debugfs file
 * dir/name, the module parameter dir_name and a line of the knobs file.
 */
struct sliceext_knob {
	const char	*dir;
	const char	*name;
	u32		value;
	u32		min;
	u32		max;
	void		(*changed)(void);	/* optional, after a write */
};

extern struct sliceext_knob sliceext_knobs[SLICEEXT_KNOB_NR];

/* A knob's value, e.g. sliceext_knob(burst, enabled); any context. */
#define sliceext_knob(dir, name)					\
	READ_ONCE(sliceext_knobs[SLICEEXT_KNOB_##dir##_##name].value)

/*
 * Root of /sys/kernel/debug/sliceext/, valid between init and exit; NULL
 * when debugfs is unavailable (debugfs=off, CONFIG_DEBUG_FS=n), where
 * every debugfs call below is a no-op and the module parameters remain.
 * Lockdown leaves the tree but refuses to open its writable files.
 */
extern struct dentry *sliceext_debugfs_root;

void sliceext_hooks_update(void);

void sliceext_knobs_init(void);
void sliceext_knobs_live(bool live);
void sliceext_knobs_exit(void);
struct dentry *sliceext_debugfs_dir(const char *name);
void sliceext_knobs_create(struct dentry *dir, const char *name);

/* Time slice extension (slice.c); hooks named after their ops fields. */
void sliceext_slice_init(void);
void sliceext_slice_stop(void);
void sliceext_slice_exit(void);
void sliceext_slice_fork(struct task_struct *p, unsigned long clone_flags);

int sliceext_syscall_work(long nr);
int sliceext_rseq_register(struct rseq __user *rseq, int flags);
int sliceext_rseq_prctl(unsigned long op, unsigned long arg);

/* Burst-aware scheduling (burst.c) */
void sliceext_burst_init(void);
void sliceext_burst_exit(void);
void sliceext_burst_fork(struct task_struct *p, unsigned long clone_flags);
void sliceext_burst_hooks(struct sliceext_ops *ops);
void sliceext_burst_enabled_changed(void);
void sliceext_burst_penalty_changed(void);

#include "hooks.h"

#endif /* _SLICEEXT_H */
