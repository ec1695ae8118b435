// SPDX-License-Identifier: GPL-2.0
/*
 * The slice extension ABI with sliceext loaded: prctl GET/SET and every
 * bad argument, the status bits in rseq->flags, rseq(2) registration with
 * RSEQ_FLAG_SLICE_EXT_DEFAULT_ON for 32- and 64-byte areas, and ENXIO
 * without an rseq area.
 *
 * Run twice by 52-ext-abi.sh: with glibc's rseq registration (glibc
 * tests) and with GLIBC_TUNABLES=glibc.pthread.rseq=0 (own-area tests);
 * each test skips itself in the other run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/rseq.h>

#include "kselftest_harness.h"

#define ENOTSUPP	524
#define RSEQ_SIG	0x53053053
#define STATUS_BITS	(RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE | \
			 RSEQ_CS_FLAG_SLICE_EXT_ENABLED)

static int slice_prctl(unsigned long op, unsigned long arg3,
		       unsigned long arg4, unsigned long arg5)
{
	return prctl(PR_RSEQ_SLICE_EXTENSION, op, arg3, arg4, arg5);
}

static struct rseq *glibc_area(void)
{
	return (struct rseq *)((char *)__builtin_thread_pointer() +
			       __rseq_offset);
}

static int sys_rseq(void *rs, uint32_t len, int flags)
{
	return syscall(__NR_rseq, rs, len, flags, RSEQ_SIG);
}

#define NEED_GLIBC_RSEQ()						\
	do {								\
		if (!__rseq_size)					\
			SKIP(return, "glibc rseq registration is off");	\
	} while (0)

#define NEED_NO_GLIBC_RSEQ()						\
	do {								\
		if (__rseq_size)					\
			SKIP(return, "glibc registered rseq");		\
	} while (0)

TEST(get_set_round_trip)
{
	struct rseq *rs;

	NEED_GLIBC_RSEQ();
	rs = glibc_area();

	ASSERT_EQ(0, slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0, 0, 0));
	ASSERT_EQ(0, slice_prctl(PR_RSEQ_SLICE_EXTENSION_SET,
				 PR_RSEQ_SLICE_EXT_ENABLE, 0, 0));
	ASSERT_EQ(PR_RSEQ_SLICE_EXT_ENABLE,
		  slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0, 0, 0));
	ASSERT_EQ(STATUS_BITS, rs->flags & STATUS_BITS);

	/* No change is fine. */
	ASSERT_EQ(0, slice_prctl(PR_RSEQ_SLICE_EXTENSION_SET,
				 PR_RSEQ_SLICE_EXT_ENABLE, 0, 0));

	ASSERT_EQ(0, slice_prctl(PR_RSEQ_SLICE_EXTENSION_SET, 0, 0, 0));
	ASSERT_EQ(0, slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0, 0, 0));
	ASSERT_EQ(RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE, rs->flags & STATUS_BITS);
}

/* The setting is per thread. */
static void *get_in_thread(void *arg)
{
	return (void *)(long)slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0, 0, 0);
}

TEST(per_thread)
{
	pthread_t th;
	void *ret;

	NEED_GLIBC_RSEQ();
	ASSERT_EQ(0, slice_prctl(PR_RSEQ_SLICE_EXTENSION_SET,
				 PR_RSEQ_SLICE_EXT_ENABLE, 0, 0));
	ASSERT_EQ(0, pthread_create(&th, NULL, get_in_thread, NULL));
	ASSERT_EQ(0, pthread_join(th, &ret));
	ASSERT_EQ(0, (long)ret);
	ASSERT_EQ(0, slice_prctl(PR_RSEQ_SLICE_EXTENSION_SET, 0, 0, 0));
}

TEST(bad_arguments)
{
	static const unsigned long bad[][4] = {
		{ PR_RSEQ_SLICE_EXTENSION_GET, 1, 0, 0 },
		{ PR_RSEQ_SLICE_EXTENSION_GET, 0, 1, 0 },
		{ PR_RSEQ_SLICE_EXTENSION_GET, 0, 0, 1 },
		{ PR_RSEQ_SLICE_EXTENSION_SET, 2, 0, 0 },
		{ PR_RSEQ_SLICE_EXTENSION_SET, ~0UL, 0, 0 },
		{ PR_RSEQ_SLICE_EXTENSION_SET, 1, 1, 0 },
		{ PR_RSEQ_SLICE_EXTENSION_SET, 1, 0, 1 },
		{ 0, 0, 0, 0 },
		{ 3, 0, 0, 0 },
	};
	unsigned int i;

	NEED_GLIBC_RSEQ();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		EXPECT_EQ(-1, slice_prctl(bad[i][0], bad[i][1], bad[i][2],
					  bad[i][3]));
		EXPECT_EQ(EINVAL, errno) {
			TH_LOG("case %u", i);
		}
	}
	/* Nothing changed. */
	ASSERT_EQ(0, slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0, 0, 0));
}

TEST(enxio_without_rseq)
{
	NEED_NO_GLIBC_RSEQ();
	errno = 0;
	ASSERT_EQ(-1, slice_prctl(PR_RSEQ_SLICE_EXTENSION_SET,
				  PR_RSEQ_SLICE_EXT_ENABLE, 0, 0));
	ASSERT_EQ(ENXIO, errno);
	ASSERT_EQ(0, slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0, 0, 0));
}

/* An area of our own, @len bytes, registered with or without DEFAULT_ON. */
static void own_area(struct __test_metadata *_metadata, uint32_t len,
		     bool default_on)
{
	static char buf[64] __attribute__((aligned(64)));
	struct rseq *rs = (struct rseq *)buf;
	uint32_t want = RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE;

	memset(buf, 0, sizeof(buf));
	ASSERT_EQ(0, sys_rseq(rs, len,
			      default_on ? RSEQ_FLAG_SLICE_EXT_DEFAULT_ON : 0));
	if (default_on)
		want |= RSEQ_CS_FLAG_SLICE_EXT_ENABLED;
	EXPECT_EQ(want, rs->flags & STATUS_BITS);
	EXPECT_EQ(default_on ? PR_RSEQ_SLICE_EXT_ENABLE : 0,
		  slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0, 0, 0));
	EXPECT_EQ(0, slice_prctl(PR_RSEQ_SLICE_EXTENSION_SET,
				 PR_RSEQ_SLICE_EXT_ENABLE, 0, 0));
	EXPECT_EQ(STATUS_BITS, rs->flags & STATUS_BITS);
	ASSERT_EQ(0, sys_rseq(rs, len, RSEQ_FLAG_UNREGISTER));
}

TEST(own_area_32_default_on)
{
	NEED_NO_GLIBC_RSEQ();
	own_area(_metadata, 32, true);
}

TEST(own_area_64_default_on)
{
	NEED_NO_GLIBC_RSEQ();
	own_area(_metadata, 64, true);
}

TEST(own_area_32_default_off)
{
	NEED_NO_GLIBC_RSEQ();
	own_area(_metadata, 32, false);
}

TEST(slice_yield_outside_grant)
{
	ASSERT_EQ(0, syscall(__NR_rseq_slice_yield));
}

TEST_HARNESS_MAIN
