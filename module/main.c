// SPDX-License-Identifier: GPL-2.0
/*
 * sliceext: time slice extension (the Linux 7.0 rseq ABI) and burst-aware
 * scheduling on EEVDF, for Linux 6.12 with the sliceext core patch.
 *
 * The core patch only calls out, through the hooks of struct sliceext_ops;
 * this module owns all policy. Loading it registers the hooks, unloading
 * restores the stock behaviour of every one of them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/module.h>

#include "sliceext.h"

/* Both features follow a fork: the opt-in (rseq_fork()) and the burst. */
static void sliceext_fork(struct task_struct *p, unsigned long clone_flags)
{
	sliceext_slice_fork(p, clone_flags);
	sliceext_burst_fork(p, clone_flags);
}

/*
 * Each hook is implemented by the function of its own name. The slice
 * extension's are registered while the module is loaded; burst
 * scheduling's only while its knobs need them (sliceext_burst_hooks()),
 * so that with burst/enabled 0 the core's call sites cost what they cost
 * without the module.
 */
static struct sliceext_ops sliceext_module_ops = {
	.abi_version		= SLICEEXT_MODULE_ABI,
	.name			= KBUILD_MODNAME,

	.sched_out		= sliceext_sched_out,
	.rseq_notify_resume	= sliceext_rseq_notify_resume,
	.rseq_slice_yield	= sliceext_rseq_slice_yield,
	.irq_exit_to_user	= sliceext_irq_exit_to_user,
	.syscall_work		= sliceext_syscall_work,
	.rseq_register		= sliceext_rseq_register,
	.rseq_prctl		= sliceext_rseq_prctl,

	.fork			= sliceext_fork,
};

/*
 * Register the burst hooks the knobs need now and drop the others. Called
 * with the knobs' lock held, once they are live: for a knob write, and
 * once for the values written before.
 */
void sliceext_hooks_update(void)
{
	sliceext_burst_hooks(&sliceext_module_ops);
	WARN_ON_ONCE(sliceext_update_ops(&sliceext_module_ops));
}

static int __init sliceext_init(void)
{
	unsigned int core_abi = sliceext_core_abi_version();
	ktime_t start = ktime_get();
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

	sliceext_knobs_init();
	sliceext_slice_init();
	sliceext_burst_init();

	ret = sliceext_register_ops(&sliceext_module_ops);
	if (ret) {
		pr_err("cannot register hooks: %d\n", ret);
		sliceext_knobs_exit();
		return ret;
	}
	sliceext_knobs_live(true);

	pr_info("version %s loaded, hook ABI %u, in %lld us\n", SLICEEXT_VERSION,
		core_abi, ktime_us_delta(ktime_get(), start));
	return 0;
}

static void __exit sliceext_exit(void)
{
	ktime_t start = ktime_get(), stopped, unregistered;

	/* Knob writes from here on only store their value. */
	sliceext_knobs_live(false);
	/* End live grants; threads clear their rseq areas while we can help. */
	sliceext_slice_stop();
	stopped = ktime_get();
	/* Once this returns no CPU runs module code from a hook. */
	sliceext_unregister_ops(&sliceext_module_ops);
	unregistered = ktime_get();
	sliceext_slice_exit();
	sliceext_slice_stats_log();
	/* Stock weights for every scored task, now that the core computes them. */
	sliceext_burst_exit();
	sliceext_knobs_exit();
	pr_info("unloaded in %lld us (threads %lld, hooks %lld, tasks %lld)\n",
		ktime_us_delta(ktime_get(), start), ktime_us_delta(stopped, start),
		ktime_us_delta(unregistered, stopped),
		ktime_us_delta(ktime_get(), unregistered));
}

module_init(sliceext_init);
module_exit(sliceext_exit);

MODULE_DESCRIPTION("Time slice extension and burst-aware scheduling for Linux 6.12");
MODULE_AUTHOR("sliceext developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(SLICEEXT_VERSION);
