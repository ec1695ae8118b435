// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of sliceext's user ABI headers (uapi/) and tools/rseq_slice.h.
 * It needs no sliceext kernel: the layout and constants must match Linux
 * 7.0, and the helpers must find glibc's rseq area and follow the
 * request/granted protocol on a fake area without entering the kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/rseq.h>
#include <linux/prctl.h>
#include <sys/prctl.h>

#include "rseq_slice.h"

#include "kselftest_harness.h"

#ifndef _SLICEEXT_LINUX_PRCTL_H
#error "<linux/prctl.h> is not sliceext's wrapper: is -I uapi first?"
#endif

#define PROBE_ENV	"SLICEEXT_UAPI_PROBE"
#define NO_RSEQ		"glibc.pthread.rseq=0"

#ifndef ENOTSUPP
#define ENOTSUPP	524
#endif

TEST(layout)
{
	ASSERT_EQ(28, offsetof(struct rseq, slice_ctrl));
	ASSERT_EQ(28, offsetof(struct rseq, slice_ctrl.request));
	ASSERT_EQ(29, offsetof(struct rseq, slice_ctrl.granted));
	ASSERT_EQ(30, offsetof(struct rseq, slice_ctrl.__reserved));
	ASSERT_EQ(28, offsetof(struct rseq, slice_ctrl.all));
	ASSERT_EQ(4, sizeof(struct rseq_slice_ctrl));
	ASSERT_EQ(32, offsetof(struct rseq, end));
	ASSERT_EQ(32, sizeof(struct rseq));
	ASSERT_EQ(32, _Alignof(struct rseq));
	/* The fields 6.12's header already had stay where they were. */
	ASSERT_EQ(0, offsetof(struct rseq, cpu_id_start));
	ASSERT_EQ(4, offsetof(struct rseq, cpu_id));
	ASSERT_EQ(8, offsetof(struct rseq, rseq_cs));
	ASSERT_EQ(16, offsetof(struct rseq, flags));
	ASSERT_EQ(20, offsetof(struct rseq, node_id));
	ASSERT_EQ(24, offsetof(struct rseq, mm_cid));
	ASSERT_EQ(32, sizeof(struct rseq_cs));
}

TEST(rseq_constants)
{
	ASSERT_EQ(1, RSEQ_FLAG_UNREGISTER);
	ASSERT_EQ(2, RSEQ_FLAG_SLICE_EXT_DEFAULT_ON);
	ASSERT_EQ(4, RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE_BIT);
	ASSERT_EQ(5, RSEQ_CS_FLAG_SLICE_EXT_ENABLED_BIT);
	ASSERT_EQ(16, RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE);
	ASSERT_EQ(32, RSEQ_CS_FLAG_SLICE_EXT_ENABLED);
	ASSERT_EQ(1, RSEQ_CS_FLAG_NO_RESTART_ON_PREEMPT);
	ASSERT_EQ(2, RSEQ_CS_FLAG_NO_RESTART_ON_SIGNAL);
	ASSERT_EQ(4, RSEQ_CS_FLAG_NO_RESTART_ON_MIGRATE);
	ASSERT_EQ(-1, RSEQ_CPU_ID_UNINITIALIZED);
	ASSERT_EQ(-2, RSEQ_CPU_ID_REGISTRATION_FAILED);
	ASSERT_EQ(471, __NR_rseq_slice_yield);
}

TEST(prctl_constants)
{
	/* The wrapper adds to the system header, it does not replace it. */
	ASSERT_EQ(15, PR_SET_NAME);
	ASSERT_EQ(16, PR_GET_NAME);
	ASSERT_EQ(79, PR_RSEQ_SLICE_EXTENSION);
	ASSERT_EQ(1, PR_RSEQ_SLICE_EXTENSION_GET);
	ASSERT_EQ(2, PR_RSEQ_SLICE_EXTENSION_SET);
	ASSERT_EQ(1, PR_RSEQ_SLICE_EXT_ENABLE);
}

static struct rseq *glibc_area(void)
{
	if (!__rseq_size)
		return NULL;
	return (struct rseq *)((char *)__builtin_thread_pointer() +
			       __rseq_offset);
}

TEST(area_is_glibc)
{
	struct rseq *rs = rseq_slice_area();

	TH_LOG("__rseq_size %u, __rseq_offset %td", __rseq_size,
	       __rseq_offset);
	if (!__rseq_size) {
		/* glibc's registration is off or the kernel lacks rseq. */
		ASSERT_NULL(rs);
		return;
	}
	ASSERT_EQ(glibc_area(), rs);
	/* It is the registered area: the kernel keeps cpu_id current. */
	ASSERT_TRUE((int)rs->cpu_id >= 0);
	ASSERT_TRUE(rs->cpu_id < (unsigned int)sysconf(_SC_NPROCESSORS_CONF));
}

static void *thread_area(void *arg)
{
	struct rseq **out = arg;

	out[0] = rseq_slice_area();
	out[1] = glibc_area();
	return NULL;
}

TEST(area_per_thread)
{
	struct rseq *t[2];
	pthread_t th;

	if (!__rseq_size)
		SKIP(return, "glibc registered no rseq area");
	ASSERT_EQ(0, pthread_create(&th, NULL, thread_area, t));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(t[1], t[0]);
	ASSERT_NE(rseq_slice_area(), t[0]);
}

static struct rseq own_area;

TEST(set_area_overrides)
{
	struct rseq *glibc = rseq_slice_area();

	rseq_slice_set_area(&own_area);
	ASSERT_EQ(&own_area, rseq_slice_area());
	rseq_slice_set_area(NULL);
	ASSERT_EQ(glibc, rseq_slice_area());
}

static void *thread_own(void *arg)
{
	return rseq_slice_area();
}

TEST(set_area_is_per_thread)
{
	pthread_t th;
	void *other;

	rseq_slice_set_area(&own_area);
	ASSERT_EQ(0, pthread_create(&th, NULL, thread_own, NULL));
	ASSERT_EQ(0, pthread_join(th, &other));
	ASSERT_NE(&own_area, other);
}

/*
 * Child mode: run with glibc's registration off, report what the helpers
 * see through the exit status.
 */
static int probe(void)
{
	if (__rseq_size)
		return 2;
	if (rseq_slice_area())
		return 3;
	rseq_slice_set_area(&own_area);
	if (rseq_slice_area() != &own_area)
		return 4;
	return 0;
}

TEST(area_null_without_glibc_rseq)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char *argv[] = { "uapi", NULL };

		setenv("GLIBC_TUNABLES", NO_RSEQ, 1);
		setenv(PROBE_ENV, "1", 1);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status)) {
		TH_LOG("probe exit 2: __rseq_size != 0, 3: area not NULL,");
		TH_LOG("4: override ignored, 127: exec failed");
	}
}

TEST(enter_leave_fake_area)
{
	struct rseq rs;

	memset(&rs, 0, sizeof(rs));
	rseq_slice_enter(&rs);
	ASSERT_EQ(1, rs.slice_ctrl.request);
	ASSERT_EQ(0, rs.slice_ctrl.granted);
	ASSERT_EQ(0, rs.slice_ctrl.__reserved);
	/* Not granted: no syscall, so it reports no yield. */
	ASSERT_FALSE(rseq_slice_leave(&rs));
	ASSERT_EQ(0, rs.slice_ctrl.all);

	/* A kernel-cleared request stays cleared; leave is idempotent. */
	rseq_slice_enter(&rs);
	rs.slice_ctrl.request = 0;
	ASSERT_FALSE(rseq_slice_leave(&rs));
	ASSERT_EQ(0, rs.slice_ctrl.all);
	/* The rest of the area is untouched. */
	ASSERT_EQ(0, rs.flags);
	ASSERT_EQ(0, rs.mm_cid);
}

TEST(prctl_helpers_agree)
{
	int ret = rseq_slice_enable();

	/* Whatever this host's kernel supports, the answers must agree. */
	TH_LOG("rseq_slice_enable() = %d", ret);
	if (ret) {
		ASSERT_TRUE(ret == -EINVAL || ret == -ENXIO ||
			    ret == -ENOTSUPP);
		ASSERT_FALSE(rseq_slice_enabled());
		return;
	}
	ASSERT_TRUE(rseq_slice_enabled());
	ASSERT_EQ(0, rseq_slice_disable());
	ASSERT_FALSE(rseq_slice_enabled());
}

int main(int argc, char **argv)
{
	if (getenv(PROBE_ENV))
		return probe();
	return test_harness_run(argc, argv);
}
