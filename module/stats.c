// SPDX-License-Identifier: GPL-2.0
/*
 * Slice extension counters and the histogram of extension time used.
 *
 * Per-CPU and lock-free on the hot path (this_cpu_inc() is safe from any
 * context); readers sum over CPUs and may see a count in flight, which
 * is fine for statistics. Writing 0 to either file resets it.
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

void sliceext_stat_inc(enum sliceext_stat stat)
{
	this_cpu_inc(sliceext_counters.stat[stat]);
}

void sliceext_hist_add(u64 used_ns)
{
	unsigned int b = used_ns ? min(ilog2(used_ns), SLICEEXT_HIST_BUCKETS - 1) : 0;

	this_cpu_inc(sliceext_counters.hist[b]);
}

static void sliceext_sum(u64 *stat, u64 *hist)
{
	const struct sliceext_counters *c;
	int cpu, i;

	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(&sliceext_counters, cpu);
		for (i = 0; stat && i < SLICEEXT_STAT_NR; i++)
			stat[i] += READ_ONCE(c->stat[i]);
		for (i = 0; hist && i < SLICEEXT_HIST_BUCKETS; i++)
			hist[i] += READ_ONCE(c->hist[i]);
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

	sliceext_sum(stat, NULL);
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

	sliceext_sum(NULL, hist);
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

/*
 * Both files share their file operations; the inode's private data says
 * which one it is (non-NULL: the histogram).
 */
static bool is_hist(struct file *file)
{
	return file_inode(file)->i_private;
}

static int counters_open(struct inode *inode, struct file *file)
{
	return single_open(file, is_hist(file) ? hist_show : stats_show, NULL);
}

/* Only "0" is accepted: it resets the counters of every CPU. */
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
		if (is_hist(file))
			memset(c->hist, 0, sizeof(c->hist));
		else
			memset(c->stat, 0, sizeof(c->stat));
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

int sliceext_stats_init(struct dentry *dir)
{
	debugfs_create_file("stats", 0644, dir, NULL, &counters_fops);
	debugfs_create_file("hist", 0644, dir, (void *)1, &counters_fops);
	return 0;
}
