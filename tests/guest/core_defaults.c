// SPDX-License-Identifier: GPL-2.0
/*
 * The patched kernel without the sliceext module: the slice extension ABI
 * is there but answers "not supported", and nothing rseq users see has
 * changed from stock 6.12.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/rseq.h>

#include "kselftest_harness.h"

#define ENOTSUPP	524		/* kernel-internal, returned by the ABI */
#define RSEQ_SIG	0x53053053	/* x86 */

extern const unsigned int __rseq_size;

static int sys_rseq(struct rseq *rs, uint32_t len, int flags)
{
	return syscall(__NR_rseq, rs, len, flags, RSEQ_SIG);
}

TEST(uapi_layout)
{
	ASSERT_EQ(28, offsetof(struct rseq, slice_ctrl));
	ASSERT_EQ(4, sizeof(struct rseq_slice_ctrl));
	ASSERT_EQ(29, offsetof(struct rseq, slice_ctrl.granted));
	ASSERT_EQ(79, PR_RSEQ_SLICE_EXTENSION);
	ASSERT_EQ(471, __NR_rseq_slice_yield);
}

TEST(prctl_not_supported)
{
	errno = 0;
	ASSERT_EQ(-1, prctl(PR_RSEQ_SLICE_EXTENSION,
			    PR_RSEQ_SLICE_EXTENSION_GET, 0, 0, 0));
	ASSERT_EQ(ENOTSUPP, errno);
	errno = 0;
	ASSERT_EQ(-1, prctl(PR_RSEQ_SLICE_EXTENSION,
			    PR_RSEQ_SLICE_EXTENSION_SET,
			    PR_RSEQ_SLICE_EXT_ENABLE, 0, 0));
	ASSERT_EQ(ENOTSUPP, errno);
}

/* arg4 and arg5 are checked by the core, with or without the module. */
TEST(prctl_extra_args_einval)
{
	errno = 0;
	ASSERT_EQ(-1, prctl(PR_RSEQ_SLICE_EXTENSION,
			    PR_RSEQ_SLICE_EXTENSION_GET, 0, 1, 0));
	ASSERT_EQ(EINVAL, errno);
	errno = 0;
	ASSERT_EQ(-1, prctl(PR_RSEQ_SLICE_EXTENSION,
			    PR_RSEQ_SLICE_EXTENSION_GET, 0, 0, 1));
	ASSERT_EQ(EINVAL, errno);
}

TEST(slice_yield_returns_zero)
{
	ASSERT_EQ(0, syscall(__NR_rseq_slice_yield));
}

/* What glibc reads at exec is 6.12's value: the feature is loadable. */
TEST(auxv_unchanged)
{
	ASSERT_EQ(28, getauxval(AT_RSEQ_FEATURE_SIZE));
	ASSERT_EQ(32, getauxval(AT_RSEQ_ALIGN));
}

/*
 * A thread of our own (glibc's registration off via GLIBC_TUNABLES)
 * registers with RSEQ_FLAG_SLICE_EXT_DEFAULT_ON: accepted, and without
 * the module no status bit appears.
 */
TEST(register_default_on_accepted)
{
	static struct rseq rs __attribute__((aligned(32)));

	if (__rseq_size)
		SKIP(return, "glibc registered rseq; run with glibc.pthread.rseq=0");

	ASSERT_EQ(0, sys_rseq(&rs, 32, RSEQ_FLAG_SLICE_EXT_DEFAULT_ON));
	ASSERT_EQ(0, rs.flags);
	ASSERT_EQ(0, rs.slice_ctrl.all);
	ASSERT_EQ(0, sys_rseq(&rs, 32, RSEQ_FLAG_UNREGISTER));

	errno = 0;
	ASSERT_EQ(-1, sys_rseq(&rs, 32, 1 << 2));
	ASSERT_EQ(EINVAL, errno);
}

TEST_HARNESS_MAIN
