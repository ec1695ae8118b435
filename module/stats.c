// SPDX-License-Identifier: GPL-2.0
/*
 * The module's counters: slice extension events, the histogram of
 * extension time used, and burst scheduling events.
 *
 * Per-CPU and lock-free on the hot path (this_cpu_inc() is safe from any
 * context); readers sum over CPUs and may see a count in flight, which
 * is fine for statistics. Writing 0 to a file resets what it shows.
 */
#include <linux/debugfs.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#include "sliceext.h"

/* Bucket i counts uses of [2^i, 2^(i+1)) ns; slice_ext_nsec is < 2^16. */
#define SLICEEXT_HIST_BUCKETS	32

struct sliceext_counters {
	u64	stat[SLICEEXT_STAT_NR];
	u64	hist[SLICEEXT_HIST_BUCKETS];
	u64	burst[SLICEEXT_BURST_STAT_NR];
};

/* Which counters a file shows: the inode's private data. */
enum sliceext_counter_file {
	SLICEEXT_FILE_EXT_STATS,
	SLICEEXT_FILE_EXT_HIST,
	SLICEEXT_FILE_BURST_STATS,
};

static DEFINE_PER_CPU(struct sliceext_counters, sliceext_counters);

static const char * const sliceext_stat_names[SLICEEXT_STAT_NR] = {
	[SLICEEXT_STAT_REQUESTED]				= "requested",
	[SLICEEXT_STAT_GRANTED]					= "granted",
	[SLICEEXT_STAT_DENIED + SLICEEXT_DENY_DISABLED]		= "denied_disabled",
	[SLICEEXT_STAT_DENIED + SLICEEXT_DENY_RT_WAITER]	= "denied_rt_waiter",
	[SLICEEXT_STAT_DENIED + SLICEEXT_DENY_EXIT_WORK]	= "denied_exit_work",
	[SLICEEXT_STAT_DENIED + SLICEEXT_DENY_FAULT]		= "denied_fault",
	[SLICEEXT_STAT_EXPIRED]					= "expired",
	[SLICEEXT_STAT_REVOKED]					= "revoked",
	[SLICEEXT_STAT_YIELDED]					= "yielded",
	[SLICEEXT_STAT_ABORTED]					= "aborted",
};

static const char * const sliceext_burst_stat_names[SLICEEXT_BURST_STAT_NR] = {
	[SLICEEXT_BURST_SCORE_CHANGES]	= "score_changes",
	[SLICEEXT_BURST_RESTARTS]	= "restarts",
	[SLICEEXT_BURST_FORK_THREAD]	= "fork_thread",
	[SLICEEXT_BURST_FORK_PROCESS]	= "fork_process",
	[SLICEEXT_BURST_CACHE_HITS]	= "cache_hits",
	[SLICEEXT_BURST_CACHE_MISSES]	= "cache_misses",
};

void sliceext_stat_inc(enum sliceext_stat stat)
{
	this_cpu_inc(sliceext_counters.stat[stat]);
}

void sliceext_hist_add(u64 used_ns)
{
	unsigned int b = used_ns ? min(ilog2(used_ns), SLICEEXT_HIST_BUCKETS - 1) : 0;

	this_cpu_inc(sliceext_counters.hist[b]);
}

void sliceext_burst_stat_inc(enum sliceext_burst_stat stat)
{
	this_cpu_inc(sliceext_counters.burst[stat]);
}

/* Sum @nr counters at byte @offset of struct sliceext_counters into @sum. */
static void sliceext_sum(size_t offset, u64 *sum, unsigned int nr)
{
	const u64 *c;
	int cpu, i;

	for_each_possible_cpu(cpu) {
		c = (void *)per_cpu_ptr(&sliceext_counters, cpu) + offset;
		for (i = 0; i < nr; i++)
			sum[i] += READ_ONCE(c[i]);
	}
}

/*
 * "name value" lines. "denied" is the sum of the denied_* lines that
 * follow it, so that requested = granted + denied holds at a glance.
 */
static int stats_show(struct seq_file *m, void *unused)
{
	u64 stat[SLICEEXT_STAT_NR] = {}, denied = 0;
	int i;

	sliceext_sum(offsetof(struct sliceext_counters, stat), stat,
		     SLICEEXT_STAT_NR);
	for (i = 0; i < SLICEEXT_DENY_NR; i++)
		denied += stat[SLICEEXT_STAT_DENIED + i];

	for (i = 0; i < SLICEEXT_STAT_NR; i++) {
		if (i == SLICEEXT_STAT_DENIED)
			seq_printf(m, "denied %llu\n", denied);
		seq_printf(m, "%s %llu\n", sliceext_stat_names[i], stat[i]);
	}
	return 0;
}

/* "low_ns high_ns count" for each bucket from the first to the last used. */
static int hist_show(struct seq_file *m, void *unused)
{
	u64 hist[SLICEEXT_HIST_BUCKETS] = {};
	int first = -1, last = -1, i;

	sliceext_sum(offsetof(struct sliceext_counters, hist), hist,
		     SLICEEXT_HIST_BUCKETS);
	for (i = 0; i < SLICEEXT_HIST_BUCKETS; i++) {
		if (!hist[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
	}
	for (i = first; first >= 0 && i <= last; i++)
		seq_printf(m, "%llu %llu %llu\n", i ? 1ULL << i : 0ULL,
			   (1ULL << (i + 1)) - 1, hist[i]);
	return 0;
}

static int burst_stats_show(struct seq_file *m, void *unused)
{
	u64 stat[SLICEEXT_BURST_STAT_NR] = {};
	int i;

	sliceext_sum(offsetof(struct sliceext_counters, burst), stat,
		     SLICEEXT_BURST_STAT_NR);
	for (i = 0; i < SLICEEXT_BURST_STAT_NR; i++)
		seq_printf(m, "%s %llu\n", sliceext_burst_stat_names[i], stat[i]);
	return 0;
}

static enum sliceext_counter_file counter_file(struct file *file)
{
	return (uintptr_t)file_inode(file)->i_private;
}

static int counters_open(struct inode *inode, struct file *file)
{
	static int (* const show[])(struct seq_file *, void *) = {
		[SLICEEXT_FILE_EXT_STATS]	= stats_show,
		[SLICEEXT_FILE_EXT_HIST]	= hist_show,
		[SLICEEXT_FILE_BURST_STATS]	= burst_stats_show,
	};

	return single_open(file, show[counter_file(file)], NULL);
}

/* Only "0" is accepted: it resets the file's counters on every CPU. */
static ssize_t counters_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct sliceext_counters *c;
	unsigned int val;
	int cpu;

	if (kstrtouint_from_user(ubuf, count, 10, &val) || val)
		return -EINVAL;

	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(&sliceext_counters, cpu);
		switch (counter_file(file)) {
		case SLICEEXT_FILE_EXT_STATS:
			memset(c->stat, 0, sizeof(c->stat));
			break;
		case SLICEEXT_FILE_EXT_HIST:
			memset(c->hist, 0, sizeof(c->hist));
			break;
		case SLICEEXT_FILE_BURST_STATS:
			memset(c->burst, 0, sizeof(c->burst));
			break;
		}
	}
	return count;
}

static const struct file_operations counters_fops = {
	.owner		= THIS_MODULE,
	.open		= counters_open,
	.read		= seq_read,
	.write		= counters_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static void counters_create(struct dentry *dir, const char *name,
			    enum sliceext_counter_file which)
{
	debugfs_create_file(name, 0644, dir, (void *)(uintptr_t)which,
			    &counters_fops);
}

void sliceext_ext_stats_create(struct dentry *dir)
{
	counters_create(dir, "stats", SLICEEXT_FILE_EXT_STATS);
	counters_create(dir, "hist", SLICEEXT_FILE_EXT_HIST);
}

void sliceext_burst_stats_create(struct dentry *dir)
{
	counters_create(dir, "stats", SLICEEXT_FILE_BURST_STATS);
}
