// SPDX-License-Identifier: GPL-2.0
/*
 * Where a program can tell sliceext from mainline 7.x's slice extension,
 * sliceext must behave as mainline (kernel/rseq.c, rseq_entry.h):
 *
 *  - a registration that opts in starts with slice_ctrl cleared; one that
 *    does not never has slice_ctrl written (legacy rseq users such as
 *    TCMalloc keep their own data there);
 *  - a thread that was scheduled out finds its request cleared when it
 *    runs again;
 *  - fork() keeps the opt-in (rseq_fork()), threads start without an
 *    area, execve() and rseq unregistration reset it (rseq_reset());
 *  - a fork inside a grant leaves no granted byte in the child.
 *
 * Every test runs on an area of the program's own, of 32 bytes (glibc's
 * size, which mainline 7.2+ refuses and sliceext serves) and of 64 bytes;
 * run with GLIBC_TUNABLES=glibc.pthread.rseq=0.
 */
#include "test_util.h"

#include <pthread.h>
#include <sys/rseq.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#define GARBAGE		0xdeadbeefU
#define EXEC_CHILD	"--exec-child"

FIXTURE(area)
{
	struct rseq	*rs;
};

FIXTURE_VARIANT(area)
{
	uint32_t	len;
};

FIXTURE_VARIANT_ADD(area, len32) { .len = 32 };
FIXTURE_VARIANT_ADD(area, len64) { .len = 64 };

FIXTURE_SETUP(area)
{
	if (__rseq_size)
		SKIP(return, "glibc registered rseq: run with glibc.pthread.rseq=0");
	if (slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0) < 0 && errno == ENOTSUPP)
		SKIP(return, "sliceext not loaded");
	self->rs = rseq_area_alloc(variant->len);
	ASSERT_NE(NULL, self->rs);
}

FIXTURE_TEARDOWN(area)
{
}

static int area_register(struct rseq *rs, uint32_t len, bool on)
{
	return sys_rseq(rs, len, on ? RSEQ_FLAG_SLICE_EXT_DEFAULT_ON : 0);
}

static void sleep_a_little(void)
{
	struct timespec ts = { 0, 1000000 };

	nanosleep(&ts, NULL);
}

TEST_F(area, opt_in_registration_clears_slice_ctrl)
{
	self->rs->slice_ctrl.all = GARBAGE;
	ASSERT_EQ(0, area_register(self->rs, variant->len, true));
	EXPECT_EQ(0, self->rs->slice_ctrl.all);
	EXPECT_EQ(SLICE_STATUS_BITS, self->rs->flags & SLICE_STATUS_BITS);
	EXPECT_EQ(PR_RSEQ_SLICE_EXT_ENABLE,
		  slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0));
}

TEST_F(area, plain_registration_never_writes_slice_ctrl)
{
	int i;

	self->rs->slice_ctrl.all = GARBAGE;
	ASSERT_EQ(0, area_register(self->rs, variant->len, false));
	EXPECT_EQ(RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE,
		  self->rs->flags & SLICE_STATUS_BITS);
	EXPECT_EQ(0, slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0));
	/* Context switches and syscalls leave the field to its owner. */
	for (i = 0; i < 20; i++) {
		sleep_a_little();
		getppid();
	}
	EXPECT_EQ(GARBAGE, self->rs->slice_ctrl.all);
}

TEST_F(area, opting_in_later_clears_slice_ctrl)
{
	self->rs->slice_ctrl.all = GARBAGE;
	ASSERT_EQ(0, area_register(self->rs, variant->len, false));
	ASSERT_EQ(0, slice_prctl(PR_RSEQ_SLICE_EXTENSION_SET,
				 PR_RSEQ_SLICE_EXT_ENABLE));
	EXPECT_EQ(0, self->rs->slice_ctrl.all);
	EXPECT_EQ(SLICE_STATUS_BITS, self->rs->flags & SLICE_STATUS_BITS);
}

TEST_F(area, request_cleared_after_being_scheduled_out)
{
	ASSERT_EQ(0, area_register(self->rs, variant->len, true));
	self->rs->slice_ctrl.request = 1;
	sleep_a_little();
	EXPECT_EQ(0, self->rs->slice_ctrl.request);
	EXPECT_EQ(0, self->rs->slice_ctrl.granted);
}

TEST_F(area, unregistration_resets)
{
	ASSERT_EQ(0, area_register(self->rs, variant->len, true));
	ASSERT_EQ(PR_RSEQ_SLICE_EXT_ENABLE,
		  slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0));
	ASSERT_EQ(0, sys_rseq(self->rs, variant->len, RSEQ_FLAG_UNREGISTER));
	EXPECT_EQ(0, slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0));
	EXPECT_EQ(-1, slice_prctl(PR_RSEQ_SLICE_EXTENSION_SET,
				  PR_RSEQ_SLICE_EXT_ENABLE));
	EXPECT_EQ(ENXIO, errno);
	/* A new registration starts from its own flags. */
	ASSERT_EQ(0, area_register(self->rs, variant->len, false));
	EXPECT_EQ(0, slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0));
}

TEST_F(area, fork_keeps_the_opt_in)
{
	int status;
	pid_t pid;

	ASSERT_EQ(0, area_register(self->rs, variant->len, true));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0) ==
		      PR_RSEQ_SLICE_EXT_ENABLE ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

static void *thread_get(void *arg)
{
	long get = slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0);
	long set = slice_prctl(PR_RSEQ_SLICE_EXTENSION_SET,
			       PR_RSEQ_SLICE_EXT_ENABLE);

	return (void *)(get == 0 && set == -1 && errno == ENXIO ? 0L : 1L);
}

TEST_F(area, threads_start_without_an_area)
{
	pthread_t th;
	void *ret;

	ASSERT_EQ(0, area_register(self->rs, variant->len, true));
	ASSERT_EQ(0, pthread_create(&th, NULL, thread_get, NULL));
	ASSERT_EQ(0, pthread_join(th, &ret));
	EXPECT_EQ(0, (long)ret);
}

TEST_F(area, execve_resets)
{
	char *argv[] = { "/proc/self/exe", EXEC_CHILD, NULL };
	char *envp[] = { "GLIBC_TUNABLES=glibc.pthread.rseq=0", NULL };

	ASSERT_EQ(0, area_register(self->rs, variant->len, true));
	/* The new image's exit status is this test's: see main(). */
	execve(argv[0], argv, envp);
	ASSERT_TRUE(false);
}

/* Noise on the CPU, so that a spinning requester gets preempted. */
static volatile bool noise_stop;

static void *noise(void *arg)
{
	struct timespec ts = { 0, 30000 };

	pin_cpu(0);
	while (!noise_stop)
		nanosleep(&ts, NULL);
	return NULL;
}

TEST_F(area, fork_in_a_grant_leaves_no_grant_in_the_child)
{
	uint64_t end = now_ns() + 3000000000ULL, t;
	int forks = 0, bad = 0, status;
	pthread_t th;
	pid_t pid;

	ASSERT_EQ(0, area_register(self->rs, variant->len, true));
	ASSERT_EQ(0, pin_cpu(0));
	ASSERT_EQ(0, pthread_create(&th, NULL, noise, NULL));

	while (forks < 20 && (t = now_ns()) < end) {
		self->rs->slice_ctrl.request = 1;
		while (!self->rs->slice_ctrl.granted && now_ns() - t < 200000)
			;
		if (!self->rs->slice_ctrl.granted) {
			self->rs->slice_ctrl.request = 0;
			continue;
		}
		/* Inside the grant: the fork syscall ends it. */
		pid = fork();
		if (!pid)
			_exit(self->rs->slice_ctrl.all ? 1 : 0);
		if (pid < 0)
			break;
		forks++;
		waitpid(pid, &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			bad++;
		/* The parent's area was cleared on the way into fork(). */
		if (self->rs->slice_ctrl.granted)
			bad++;
	}
	noise_stop = true;
	pthread_join(th, NULL);
	TH_LOG("%d forks inside a grant", forks);
	ASSERT_LT(0, forks);
	EXPECT_EQ(0, bad);
}

int main(int argc, char **argv)
{
	/* After execve_resets: no area yet, so nothing may say enabled. */
	if (argc > 1 && !strcmp(argv[1], EXEC_CHILD))
		return slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0) == 0 ? 0 : 1;
	return test_harness_run(argc, argv);
}
