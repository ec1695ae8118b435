// SPDX-License-Identifier: GPL-2.0
/*
 * sliceext: time slice extension (the Linux 7.0 rseq ABI) and burst-aware
 * scheduling on EEVDF, for Linux 6.12 with the sliceext core patch.
 *
 * The core patch only calls out through static calls; this module owns
 * all policy. Loading it registers the call-outs, unloading restores the
 * stock behaviour of every hook.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "sliceext.h"

static const struct sliceext_ops sliceext_module_ops = {
	.abi_version		= SLICEEXT_MODULE_ABI,
	.name			= KBUILD_MODNAME,

	.rseq_register		= sliceext_ext_rseq_register,
	.rseq_prctl		= sliceext_ext_prctl,
	.rseq_slice_yield	= sliceext_ext_slice_yield,
	.rseq_notify_resume	= sliceext_ext_notify_resume,
	.irq_exit_to_user	= sliceext_ext_irq_exit_to_user,
	.syscall_enter		= sliceext_ext_syscall_enter,
	.sched_out		= sliceext_ext_sched_out,

	.fork			= sliceext_burst_fork,
	.burst_account		= sliceext_burst_accrue,
	.burst_restart		= sliceext_burst_end,
	.switched_to_fair	= sliceext_burst_switched_to_fair,
	.prio_offset		= sliceext_burst_prio_offset,
	.wakeup_vslice_shift	= sliceext_burst_wakeup_vslice_shift,
	.lag_limit_shift	= sliceext_burst_lag_limit_shift,
};

static int __init sliceext_init(void)
{
	unsigned int core_abi = sliceext_core_abi_version();
	int ret;

	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		pr_err("PREEMPT_RT kernels are not supported\n");
		return -EOPNOTSUPP;
	}

	if (core_abi != SLICEEXT_MODULE_ABI) {
		pr_err("kernel has hook ABI %u, module is built for %u: rebuild the module for this kernel\n",
		       core_abi, SLICEEXT_MODULE_ABI);
		return -ENOEXEC;
	}

	ret = sliceext_debugfs_init();
	if (ret)
		return ret;

	ret = sliceext_ext_init(sliceext_debugfs_root);
	if (ret)
		goto err_debugfs;

	ret = sliceext_burst_init(sliceext_debugfs_root);
	if (ret)
		goto err_debugfs;

	ret = sliceext_register_ops(&sliceext_module_ops);
	if (ret) {
		pr_err("cannot register hooks: %d\n", ret);
		goto err_debugfs;
	}

	pr_info("version %s loaded, hook ABI %u\n", SLICEEXT_VERSION, core_abi);
	return 0;

err_debugfs:
	sliceext_debugfs_exit();
	return ret;
}

static void __exit sliceext_exit(void)
{
	/* End live grants while their owners can still clear slice_ctrl. */
	sliceext_ext_drain();
	/* Once this returns no CPU runs module code from a hook. */
	sliceext_unregister_ops(&sliceext_module_ops);
	sliceext_ext_exit();
	/* Stock weights for every task, now that the core computes them. */
	sliceext_burst_exit();
	sliceext_debugfs_exit();
	pr_info("unloaded\n");
}

module_init(sliceext_init);
module_exit(sliceext_exit);

MODULE_DESCRIPTION("Time slice extension and burst-aware scheduling for Linux 6.12");
MODULE_AUTHOR("sliceext developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(SLICEEXT_VERSION);
