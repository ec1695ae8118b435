// SPDX-License-Identifier: GPL-2.0
/*
 * The module's knobs, each both a file under /sys/kernel/debug/sliceext/
 * and a module parameter (modprobe sliceext slice_ext_nsec=20000, or
 * /sys/module/sliceext/parameters/), with one range check for both.
 *
 * debugfs_create_file() wraps every file in a proxy that keeps its
 * callbacks from running once debugfs_remove() has returned, so removing
 * the tree in exit is enough to make unload safe against open files.
 * Parameter writes run under kernel_param_lock(), which exit takes to stop
 * them from reacting once the hooks are going away.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/moduleparam.h>
#include <linux/module.h>
#include <linux/seq_file.h>

#include "sliceext.h"

struct dentry *sliceext_debugfs_root;

/* The module is registered: a knob change applies to the running tasks. */
static bool knobs_live;

/* "<module version> <hook ABI version>", as the core reports the latter. */
static int version_show(struct seq_file *m, void *unused)
{
	seq_printf(m, "%s %u\n", SLICEEXT_VERSION, sliceext_core_abi_version());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(version);

/*
 * A knob value must be a decimal number in the knob's range, with an
 * optional trailing newline; anything else is -EINVAL (overflow included,
 * which kstrto*() reports as -ERANGE) and leaves the old value.
 */
static int knob_parse(const struct sliceext_knob *knob, const char *buf,
		      u32 *val)
{
	if (kstrtou32(buf, 10, val) || *val < knob->min || *val > knob->max)
		return -EINVAL;
	return 0;
}

static void knob_set(const struct sliceext_knob *knob, u32 val)
{
	WRITE_ONCE(*knob->value, val);
	if (knob->changed && READ_ONCE(knobs_live))
		knob->changed();
}

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
	char buf[24];
	u32 val;

	if (*ppos || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (knob_parse(knob, buf, &val))
		return -EINVAL;

	/* The same lock as a parameter write: one writer at a time. */
	kernel_param_lock(THIS_MODULE);
	knob_set(knob, val);
	kernel_param_unlock(THIS_MODULE);
	return count;
}

static const struct file_operations knob_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= knob_read,
	.write	= knob_write,
	.llseek	= default_llseek,
};

/* Module parameters: kp->arg is the struct sliceext_knob. */
static int knob_param_set(const char *val, const struct kernel_param *kp)
{
	const struct sliceext_knob *knob = kp->arg;
	u32 v;

	if (knob_parse(knob, val, &v)) {
		pr_err("%s: not a number in %u-%u: %s\n", kp->name,
		       knob->min, knob->max, val);
		return -EINVAL;
	}
	knob_set(knob, v);
	return 0;
}

static int knob_param_get(char *buf, const struct kernel_param *kp)
{
	const struct sliceext_knob *knob = kp->arg;

	return sysfs_emit(buf, "%u\n", READ_ONCE(*knob->value));
}

const struct kernel_param_ops sliceext_knob_param_ops = {
	.set	= knob_param_set,
	.get	= knob_param_get,
};

/* Create one 0644 file per knob in @dir; @knobs must outlive the files. */
void sliceext_knobs_create(struct dentry *dir, struct sliceext_knob *knobs,
			   unsigned int nr)
{
	unsigned int i;

	if (!dir)
		return;
	for (i = 0; i < nr; i++)
		debugfs_create_file(knobs[i].name, 0644, dir, &knobs[i],
				    &knob_fops);
}

/* A directory under the root, or NULL without debugfs. */
struct dentry *sliceext_debugfs_dir(const char *name)
{
	struct dentry *dir;

	if (!sliceext_debugfs_root)
		return NULL;
	dir = debugfs_create_dir(name, sliceext_debugfs_root);
	return IS_ERR(dir) ? NULL : dir;
}

void sliceext_knobs_init(void)
{
	struct dentry *root = debugfs_create_dir("sliceext", NULL);

	if (IS_ERR(root)) {
		pr_info("debugfs unavailable (%pe): no /sys/kernel/debug/sliceext, knobs are module parameters\n",
			root);
		return;
	}
	debugfs_create_file("version", 0444, root, NULL, &version_fops);
	sliceext_debugfs_root = root;
}

/*
 * Whether knob changes apply to running tasks (after registration) or
 * only set the value (before it, and once unloading has begun). Going
 * live registers the hooks that the values written so far need.
 */
void sliceext_knobs_live(bool live)
{
	kernel_param_lock(THIS_MODULE);
	WRITE_ONCE(knobs_live, live);
	if (live)
		sliceext_hooks_update();
	kernel_param_unlock(THIS_MODULE);
}

void sliceext_knobs_exit(void)
{
	debugfs_remove(sliceext_debugfs_root);
	sliceext_debugfs_root = NULL;
}
