// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/sliceext/: the module's knobs and statistics.
 *
 * debugfs_create_file() wraps every file in a proxy that keeps its
 * callbacks from running once debugfs_remove() has returned, so removing
 * the tree in exit is enough to make unload safe against open files.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/seq_file.h>

#include "sliceext.h"

struct dentry *sliceext_debugfs_root;

/* "<module version> <hook ABI version>", as the core reports the latter. */
static int version_show(struct seq_file *m, void *unused)
{
	seq_printf(m, "%s %u\n", SLICEEXT_VERSION, sliceext_core_abi_version());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(version);

/*
 * Knobs: one decimal value per file. A write must be a decimal number in
 * the knob's range, with an optional trailing newline; anything else
 * fails with -EINVAL (overflow included, which kstrto*() reports as
 * -ERANGE) and leaves the old value.
 */
static ssize_t knob_read(struct file *file, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	struct sliceext_knob *knob = file->private_data;
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%u\n", READ_ONCE(*knob->value));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t knob_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	struct sliceext_knob *knob = file->private_data;
	u32 val;
	int ret;

	ret = kstrtou32_from_user(ubuf, count, 10, &val);
	if (ret)
		return -EINVAL;
	if (val < knob->min || val > knob->max)
		return -EINVAL;

	WRITE_ONCE(*knob->value, val);
	if (knob->changed)
		knob->changed();
	return count;
}

static const struct file_operations knob_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= knob_read,
	.write	= knob_write,
	.llseek	= default_llseek,
};

/* Create one 0644 file per knob in @dir; @knobs must outlive the files. */
void sliceext_knobs_create(struct dentry *dir, struct sliceext_knob *knobs,
			   unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		debugfs_create_file(knobs[i].name, 0644, dir, &knobs[i],
				    &knob_fops);
}

int sliceext_debugfs_init(void)
{
	struct dentry *root;

	root = debugfs_create_dir("sliceext", NULL);
	if (IS_ERR(root))
		return PTR_ERR(root);

	debugfs_create_file("version", 0444, root, NULL, &version_fops);
	sliceext_debugfs_root = root;
	return 0;
}

void sliceext_debugfs_exit(void)
{
	debugfs_remove(sliceext_debugfs_root);
	sliceext_debugfs_root = NULL;
}
