// SPDX-License-Identifier: GPL-2.0
/*
 * rt_guard: a slice extension never delays a task of a class above the
 * fair one. A fair hog on CPU 0 sits in a request window all the time,
 * so every reschedule it meets finds a request; the variants make those
 * reschedules come from a waking SCHED_FIFO thread, a SCHED_DEADLINE
 * task, or the stop class (the migration thread that moves the hog when
 * its affinity changes), with the guard on and off.
 *
 * Run with GLIBC_TUNABLES=glibc.pthread.rseq=0: the hog registers its own
 * area. The test reads and resets /sys/kernel/debug/sliceext/ext/stats.
 */
#include "test_util.h"

#include <linux/sched/types.h>
#include <pthread.h>
#include <stdbool.h>
#include <sys/rseq.h>

#include "kselftest_harness.h"

#define PERIOD_NS	1000000
#define RUN_NS		2000000000ULL

enum waiter { FIFO, DEADLINE, STOP, NONE };

static volatile bool stop;

/* Always inside a request window; re-requests after each grant ends. */
static void *hog(void *arg)
{
	struct rseq *rs = rseq_area_alloc(64);

	if (!rs || pin_cpu(0) ||
	    sys_rseq(rs, 64, RSEQ_FLAG_SLICE_EXT_DEFAULT_ON))
		return (void *)1L;
	while (!stop) {
		if (!rs->slice_ctrl.request && !rs->slice_ctrl.granted)
			rs->slice_ctrl.request = 1;
	}
	rs->slice_ctrl.request = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (rs->slice_ctrl.granted)
		syscall(__NR_rseq_slice_yield);
	return NULL;
}

static void *spinner(void *arg)
{
	pin_cpu(1);
	while (!stop)
		;
	return NULL;
}

/* Total run delay (time runnable, waiting for the CPU) and switch-ins. */
static int schedstat(uint64_t *run_delay, uint64_t *switches)
{
	unsigned long long cpu, delay, n;
	char path[64];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", gettid());
	f = fopen(path, "r");
	if (!f)
		return -1;
	ret = fscanf(f, "%llu %llu %llu", &cpu, &delay, &n) == 3 ? 0 : -1;
	fclose(f);
	*run_delay = delay;
	*switches = n;
	return ret;
}

/*
 * A SCHED_FIFO thread on CPU 0 that wakes at absolute 1 ms deadlines;
 * returns its average run delay per wakeup in ns (from waking to running,
 * where a grant to the hog would delay it), or 0 on error. Unlike the
 * lateness of its timer, this is not moved by the host descheduling the
 * VM between the timer and the wakeup.
 */
static uint64_t fifo_waiter(uint64_t run_ns)
{
	struct sched_param sp = { .sched_priority = 50 };
	uint64_t d0, n0, d1, n1, end;
	struct timespec next;

	if (pin_cpu(0) || sched_setscheduler(0, SCHED_FIFO, &sp) ||
	    schedstat(&d0, &n0))
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &next);
	end = now_ns() + run_ns;
	while (now_ns() < end) {
		next.tv_nsec += PERIOD_NS;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	if (schedstat(&d1, &n1) || n1 == n0)
		return 0;
	sp.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &sp);
	return (d1 - d0) / (n1 - n0);
}

/* A SCHED_DEADLINE task: 100 us every 1 ms, on whichever CPU it gets. */
static int deadline_waiter(uint64_t run_ns)
{
	struct sched_attr attr = {
		.size		= sizeof(attr),
		.sched_policy	= SCHED_DEADLINE,
		.sched_runtime	= 100000,
		.sched_deadline	= PERIOD_NS,
		.sched_period	= PERIOD_NS,
	};
	struct timespec ts = { 0, PERIOD_NS / 2 };
	uint64_t end = now_ns() + run_ns;

	if (syscall(SYS_sched_setattr, 0, &attr, 0))
		return -errno;
	while (now_ns() < end)
		nanosleep(&ts, NULL);
	attr.sched_policy = SCHED_OTHER;
	return syscall(SYS_sched_setattr, 0, &attr, 0) ? -errno : 0;
}

/*
 * Move the hog between CPU 0 and 1 from a thread pinned to CPU 1. A move
 * off CPU 0 finds the hog running there alone, request up, and wakes the
 * stopper on CPU 0 to push it; a move back runs while this thread holds
 * CPU 1, so the hog is queued there, not running, and moves without one.
 * Unpinned, which kind a move was depended on where this thread woke.
 */
static unsigned int stop_waiter(pid_t hog_tid, uint64_t run_ns)
{
	uint64_t end = now_ns() + run_ns;
	unsigned int moves = 0;
	cpu_set_t set;

	if (pin_cpu(1))
		return 0;
	while (now_ns() < end) {
		CPU_ZERO(&set);
		CPU_SET(moves & 1, &set);
		if (sched_setaffinity(hog_tid, sizeof(set), &set))
			break;
		moves++;
		usleep(2000);
	}
	return moves;
}

FIXTURE(guard)
{
	pthread_t	hog, spinner;
	pid_t		hog_tid;
	bool		spinning;
	bool		stopped;
};

FIXTURE_VARIANT(guard)
{
	enum waiter	waiter;
	bool		guard;
};

FIXTURE_VARIANT_ADD(guard, fifo_guarded)	{ .waiter = FIFO, .guard = true };
FIXTURE_VARIANT_ADD(guard, fifo_unguarded)	{ .waiter = FIFO, .guard = false };
FIXTURE_VARIANT_ADD(guard, deadline_guarded)	{ .waiter = DEADLINE, .guard = true };
FIXTURE_VARIANT_ADD(guard, stop_guarded)	{ .waiter = STOP, .guard = true };

static pid_t hog_tid;

static void *hog_start(void *arg)
{
	hog_tid = gettid();
	return hog(arg);
}

FIXTURE_SETUP(guard)
{
	if (__rseq_size)
		SKIP(return, "run with GLIBC_TUNABLES=glibc.pthread.rseq=0");
	if (sliceext_counter("ext/stats", "granted") < 0)
		SKIP(return, "sliceext not loaded");
	ASSERT_EQ(0, sliceext_set("ext/rt_guard", variant->guard ? "1" : "0"));
	ASSERT_EQ(0, sliceext_set("ext/stats", "0"));
	ASSERT_EQ(0, pthread_create(&self->hog, NULL, hog_start, NULL));
	while (!__atomic_load_n(&hog_tid, __ATOMIC_ACQUIRE))
		usleep(1000);
	self->hog_tid = hog_tid;
	if (variant->waiter == DEADLINE) {
		/* With CPU 1 busy too, the DL task lands on CPU 0 at times. */
		ASSERT_EQ(0, pthread_create(&self->spinner, NULL, spinner, NULL));
		self->spinning = true;
	}
}

/*
 * The counters are read once the hog has left its request window and
 * exited, when every request has its answer: while it runs, a request
 * answered between reading "requested" and reading "granted" makes the
 * answers look more than the requests.
 */
static void stop_load(FIXTURE_DATA(guard) *self)
{
	if (self->stopped)
		return;
	self->stopped = true;
	stop = true;
	pthread_join(self->hog, NULL);
	if (self->spinning)
		pthread_join(self->spinner, NULL);
}

FIXTURE_TEARDOWN(guard)
{
	stop_load(self);
	sliceext_set("ext/rt_guard", "1");
}

TEST_F(guard, waiters_are_never_delayed)
{
	long long granted, denied_rt, requested, denied;
	unsigned int moves = 0;
	uint64_t delay = 0;

	switch (variant->waiter) {
	case FIFO:
		delay = fifo_waiter(RUN_NS);
		ASSERT_NE(0, delay);
		break;
	case DEADLINE:
		ASSERT_EQ(0, deadline_waiter(RUN_NS));
		break;
	case STOP:
		moves = stop_waiter(self->hog_tid, RUN_NS);
		ASSERT_LT(100, moves);
		break;
	case NONE:
		break;
	}

	stop_load(self);
	requested = sliceext_counter("ext/stats", "requested");
	granted = sliceext_counter("ext/stats", "granted");
	denied = sliceext_counter("ext/stats", "denied");
	denied_rt = sliceext_counter("ext/stats", "denied_rt_waiter");
	TH_LOG("requested %lld granted %lld denied_rt_waiter %lld moves %u; FIFO run delay %llu ns a wakeup",
	       requested, granted, denied_rt, moves, (unsigned long long)delay);
	EXPECT_EQ(requested, granted + denied);

	if (!variant->guard) {
		/*
		 * The FIFO thread's wakeups are granted to the hog, which
		 * delays each by up to slice_ext_nsec and the timer's slack.
		 */
		EXPECT_LT(0, granted);
		EXPECT_EQ(0, denied_rt);
		EXPECT_GT(3000000ULL, delay);
		return;
	}
	/* Every kind of waiter is seen and denied to the hog. */
	EXPECT_LT(0, denied_rt);
	switch (variant->waiter) {
	case FIFO:
		/*
		 * Its wakeups are most of the hog's reschedules; other fair
		 * wakeups on CPU 0 may still be granted, rarely. Nothing then
		 * delays it but the switch itself: far below a tick.
		 */
		EXPECT_LE(granted * 20, denied_rt);
		EXPECT_GT(1000000ULL, delay);
		break;
	case STOP:
		/*
		 * Nearly every move off CPU 0, half of them, met the request
		 * that is always up there.
		 */
		EXPECT_LE(moves / 2 * 3 / 4, (unsigned long long)denied_rt);
		break;
	default:
		break;
	}
}

TEST_HARNESS_MAIN
