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

/* Why a slice extension request was refused; see the sliceext_deny event. */
enum sliceext_deny_reason {
	SLICEEXT_DENY_DISABLED,		/* ext/enabled is 0 */
	SLICEEXT_DENY_RT_WAITER,	/* rt_guard: an RT or DL task waits */
	SLICEEXT_DENY_EXIT_WORK,	/* other exit-to-user work is pending */
	SLICEEXT_DENY_NR,
};

struct dentry;

/* Root of /sys/kernel/debug/sliceext/, valid between init and exit. */
extern struct dentry *sliceext_debugfs_root;

int sliceext_debugfs_init(void);
void sliceext_debugfs_exit(void);

#endif /* _SLICEEXT_H */
