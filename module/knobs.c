// SPDX-License-Identifier: GPL-2.0
/*
 * The module's knobs, made from the one list in knob_list.h: each is a
 * variable, a file under /sys/kernel/debug/sliceext/, a module parameter
 * (modprobe sliceext ext_slice_ext_nsec=20000, or
 * /sys/module/sliceext/parameters/) with one range check for both, and a
 * line of the read-only "knobs" file, which tools and tests compare with
 * their own copies of the list.
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

struct sliceext_knob sliceext_knobs[SLICEEXT_KNOB_NR] = {
#define SLICEEXT_KNOB(dir, name, def, min, max, on_change, ...)	\
	{ #dir, #name, def, min, max, on_change },
#include "knob_list.h"
};

/* Each knob's default: its value until modprobe or a write sets another. */
static const u32 knob_default[SLICEEXT_KNOB_NR] = {
#define SLICEEXT_KNOB(dir, name, def, ...)	def,
#include "knob_list.h"
};

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

static void knob_set(struct sliceext_knob *knob, u32 val)
{
	WRITE_ONCE(knob->value, val);
	if (knob->changed && READ_ONCE(knobs_live))
		knob->changed();
}

static ssize_t knob_read(struct file *file, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	const struct sliceext_knob *knob = file->private_data;
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%u\n", READ_ONCE(knob->value));
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
	struct sliceext_knob *knob = kp->arg;
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

	return sysfs_emit(buf, "%u\n", READ_ONCE(knob->value));
}

static const struct kernel_param_ops knob_param_ops = {
	.set	= knob_param_set,
	.get	= knob_param_get,
};

#define SLICEEXT_KNOB(dir, name, def, min, max, on_change, desc)	\
	module_param_cb(dir##_##name, &knob_param_ops,			\
			&sliceext_knobs[SLICEEXT_KNOB_##dir##_##name], 0644); \
	MODULE_PARM_DESC(dir##_##name,					\
			 desc " (" #min "-" #max ", default " #def ")");
#include "knob_list.h"

/* Create a 0644 file in @dir for each knob of the list's directory @name. */
void sliceext_knobs_create(struct dentry *dir, const char *name)
{
	unsigned int i;

	if (!dir)
		return;
	for (i = 0; i < SLICEEXT_KNOB_NR; i++)
		if (!strcmp(sliceext_knobs[i].dir, name))
			debugfs_create_file(sliceext_knobs[i].name, 0644, dir,
					    &sliceext_knobs[i], &knob_fops);
}

/* knobs: "name value min max default", a line per knob, in list order. */
static int knobs_show(struct seq_file *m, void *unused)
{
	const struct sliceext_knob *k;
	unsigned int i;

	seq_puts(m, "name value min max default\n");
	for (i = 0; i < SLICEEXT_KNOB_NR; i++) {
		k = &sliceext_knobs[i];
		seq_printf(m, "%s/%s %u %u %u %u\n", k->dir, k->name,
			   READ_ONCE(k->value), k->min, k->max, knob_default[i]);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(knobs);

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
	debugfs_create_file("knobs", 0444, root, NULL, &knobs_fops);
	sliceext_debugfs_root = root;
}

/*
 * Whether knob changes apply to running tasks (after registration) or
 * only set the value (before it, and once unloading has begun). Going
 * live does what a write of burst/enabled does: register the hooks that
 * the values written so far need, then walk every task. The fork and
 * runtime hooks went live with registration, or in the order of the
 * core's list, before prio_offset: a task they scored meanwhile (a child
 * forked in that window) has a weight without its score, which the walk
 * gives it.
 */
void sliceext_knobs_live(bool live)
{
	kernel_param_lock(THIS_MODULE);
	WRITE_ONCE(knobs_live, live);
	if (live)
		sliceext_burst_enabled_changed();
	kernel_param_unlock(THIS_MODULE);
}

void sliceext_knobs_exit(void)
{
	debugfs_remove(sliceext_debugfs_root);
	sliceext_debugfs_root = NULL;
}
