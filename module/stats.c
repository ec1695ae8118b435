// SPDX-License-Identifier: GPL-2.0
/*
 * The module's counters: slice extension events, the histogram of
 * extension time used, and burst scheduling events.
 *
 * Per-CPU and lock-free on the hot path (this_cpu_inc() is safe from any
 * context); readers sum over CPUs and may see a count in flight, which
 * is fine for statistics. Writing 0 to a file resets what it shows.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#include "sliceext.h"

/* Which counters a file shows: the inode's private data. */
enum sliceext_counter_file {
	SLICEEXT_FILE_SLICE_STATS,
	SLICEEXT_FILE_SLICE_HIST,
	SLICEEXT_FILE_BURST_STATS,
};

DEFINE_PER_CPU(struct sliceext_counters, sliceext_counters);

/* Names from counters.h, which the enums come from too. */
#define SLICEEXT_NAME(value, name)[value] = name,

#define SLICEEXT_DENY		SLICEEXT_NAME
#define SLICEEXT_END(...)
#define SLICEEXT_BURST_STAT(...)
static const char * const deny_names[] = {
#include "counters.h"
};

#define SLICEEXT_DENY(...)
#define SLICEEXT_END		SLICEEXT_NAME
#define SLICEEXT_BURST_STAT(...)
static const char * const end_names[] = {
#include "counters.h"
};

#define SLICEEXT_DENY(...)
#define SLICEEXT_END(...)
#define SLICEEXT_BURST_STAT	SLICEEXT_NAME
static const char * const burst_names[] = {
#include "counters.h"
};

/* For the sliceext_deny event, which records the name itself. */
const char *sliceext_deny_name(enum sliceext_deny_reason reason)
{
	return reason < SLICEEXT_DENY_NR ? deny_names[reason] : "?";
}

void sliceext_hist_add(u64 used_ns)
{
	unsigned int b = used_ns ? min(ilog2(used_ns), SLICEEXT_HIST_BUCKETS - 1) : 0;

	this_cpu_inc(sliceext_counters.hist[b]);
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
 * "name value" lines: requested, granted, denied (the sum of the
 * denied_<reason> lines that follow, so that requested = granted + denied
 * holds at a glance), then one line per way a grant ends.
 */
static int stats_show(struct seq_file *m, void *unused)
{
	u64 stat[SLICEEXT_STAT_NR] = {}, denied = 0;
	int i;

	sliceext_sum(offsetof(struct sliceext_counters, stat), stat,
		     SLICEEXT_STAT_NR);
	for (i = 0; i < SLICEEXT_DENY_NR; i++)
		denied += stat[SLICEEXT_STAT_DENIED + i];

	seq_printf(m, "requested %llu\n", stat[SLICEEXT_STAT_REQUESTED]);
	seq_printf(m, "granted %llu\n", stat[SLICEEXT_STAT_GRANTED]);
	seq_printf(m, "denied %llu\n", denied);
	for (i = 0; i < SLICEEXT_DENY_NR; i++)
		seq_printf(m, "denied_%s %llu\n", deny_names[i],
			   stat[SLICEEXT_STAT_DENIED + i]);
	for (i = 0; i < SLICEEXT_END_NR; i++)
		seq_printf(m, "%s %llu\n", end_names[i],
			   stat[SLICEEXT_STAT_END + i]);
	return 0;
}

/*
 * The slice extension totals, once into the kernel log when unloading:
 * with every grant ended and no hook left, requested = granted + denied
 * and granted = expired + revoked + yielded + aborted must hold exactly.
 */
void sliceext_slice_stats_log(void)
{
	u64 stat[SLICEEXT_STAT_NR] = {}, denied = 0, ended = 0;
	int i;

	sliceext_sum(offsetof(struct sliceext_counters, stat), stat,
		     SLICEEXT_STAT_NR);
	for (i = 0; i < SLICEEXT_DENY_NR; i++)
		denied += stat[SLICEEXT_STAT_DENIED + i];
	for (i = 0; i < SLICEEXT_END_NR; i++)
		ended += stat[SLICEEXT_STAT_END + i];
	pr_info("slice extension totals: requested %llu granted %llu denied %llu ended %llu\n",
		stat[SLICEEXT_STAT_REQUESTED], stat[SLICEEXT_STAT_GRANTED],
		denied, ended);
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
		seq_printf(m, "%s %llu\n", burst_names[i], stat[i]);
	return 0;
}

static enum sliceext_counter_file counter_file(struct file *file)
{
	return (uintptr_t)file_inode(file)->i_private;
}

static int counters_open(struct inode *inode, struct file *file)
{
	static int (* const show[])(struct seq_file *, void *) = {
		[SLICEEXT_FILE_SLICE_STATS]	= stats_show,
		[SLICEEXT_FILE_SLICE_HIST]	= hist_show,
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
		case SLICEEXT_FILE_SLICE_STATS:
			memset(c->stat, 0, sizeof(c->stat));
			break;
		case SLICEEXT_FILE_SLICE_HIST:
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
	if (dir)
		debugfs_create_file(name, 0644, dir, (void *)(uintptr_t)which,
				    &counters_fops);
}

void sliceext_slice_stats_create(struct dentry *dir)
{
	counters_create(dir, "stats", SLICEEXT_FILE_SLICE_STATS);
	counters_create(dir, "hist", SLICEEXT_FILE_SLICE_HIST);
}

void sliceext_burst_stats_create(struct dentry *dir)
{
	counters_create(dir, "stats", SLICEEXT_FILE_BURST_STATS);
}
