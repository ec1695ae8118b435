// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/sliceext/: the module's knobs and statistics.
 *
 * debugfs_create_file() wraps every file in a proxy that keeps its
 * callbacks from running once debugfs_remove() has returned, so removing
 * the tree in exit is enough to make unload safe against open files.
 */
#include <linux/debugfs.h>
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
