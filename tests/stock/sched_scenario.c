// SPDX-License-Identifier: GPL-2.0
/*
 * The fair-class decisions that the core series' call sites touch, played
 * out on one CPU for tests/host/stock-decisions.sh, which compares their
 * sched_switch traces on the patched kernel (no module loaded) and on
 * stock 6.12, both under icount. The tasks are named so that the trace
 * can be read by name; the driver (this process) runs SCHED_FIFO, so its
 * own wakeups take no part in the fair decisions it provokes.
 *
 *   reweight   two hogs; one is reniced to 5, then to -5, while both run
 *   fork       a hog, and a task that forks a short-lived child every 6 ms
 *              (run with the NEXT_BUDDY feature on: a forked child must
 *              not become the next buddy)
 *   throttle   a hog with a custom slice (sched_attr.sched_runtime) and
 *              a hog in a cpu cgroup limited to 5.3 ms per 20 ms, beside a
 *              hog outside it: throttle and unthrottle
 *
 * Every scenario starts 1 ms after a tick (HZ=250: the ticks fall on
 * multiples of 4 ms of CLOCK_MONOTONIC), so that both kernels see it at
 * the same phase, and lasts about 200 ms. Its tasks are forked, named and
 * placed before that, and wait for the start; tracing is switched on at
 * the start and off at the end, before they are killed, so that only
 * the scheduler's decisions are traced, not forks, cgroup moves or exits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MSEC		1000000ULL
#define TICK_NS		(4 * MSEC)
/* Ends 1 ms before a tick, 2 ms before the throttle period ends. */
#define RUN_NS		(198 * MSEC)

/* Not in Debian 12's glibc headers. */
struct scenario_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = t / 1000000000ULL,
			       .tv_nsec = t % 1000000000ULL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static uint64_t t0;

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static void spin_ns(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end)
		;
}

/* A slice of 1 ms instead of the default 3 ms. */
static void set_slice(void)
{
	struct scenario_sched_attr attr = {
		.size = sizeof(attr),
		.sched_policy = SCHED_OTHER,
		.sched_runtime = MSEC,
	};

	if (syscall(SYS_sched_setattr, 0, &attr, 0))
		die("sched_setattr");
}

/*
 * A child named @name that runs @fn from t0 at @nice, with a 1 ms slice
 * if @short_slice; it is killed at the end. The tasks of a scenario get
 * different nice levels, so that their deadlines do not tie: two kernels
 * whose paths differ by a few instructions would break a tie differently.
 */
static pid_t start(const char *name, void (*fn)(void), int nice,
		   bool short_slice)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		struct sched_param sp = { 0 };

		if (sched_setscheduler(0, SCHED_OTHER, &sp))
			die("sched_setscheduler");
		prctl(PR_SET_NAME, name);
		if (setpriority(PRIO_PROCESS, 0, nice))
			die("setpriority");
		if (short_slice)
			set_slice();
		sleep_until(t0);
		fn();
		_exit(0);
	}
	return pid;
}

static void hog(void)
{
	for (;;)
		;
}

/* Forks a child that spins 1 ms every 6 ms, itself spinning 1 ms too. */
static void forker(void)
{
	for (;;) {
		pid_t c;

		spin_ns(MSEC);
		c = fork();
		if (c == 0) {
			prctl(PR_SET_NAME, "sx-child");
			spin_ns(MSEC);
			_exit(0);
		}
		if (c > 0)
			waitpid(c, NULL, 0);
		usleep(5000);
	}
}



static void tracing(const char *on)
{
	FILE *f = fopen("/sys/kernel/tracing/tracing_on", "w");

	if (!f || fputs(on, f) < 0 || fclose(f))
		die("tracing_on");
}

static void cgroup_write(const char *cgroup, const char *file,
			 const char *value)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", cgroup, file);
	f = fopen(path, "w");
	if (!f || fputs(value, f) < 0 || fclose(f))
		die(path);
}

static void cgroup_enter(const char *cgroup, pid_t pid)
{
	char s[32];

	snprintf(s, sizeof(s), "%d\n", pid);
	cgroup_write(cgroup, "cgroup.procs", s);
}

int main(int argc, char **argv)
{
	struct sched_param fifo = { .sched_priority = 1 };
	pid_t pids[4];
	int n = 0, i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s reweight|fork|throttle [CGROUP]\n",
			argv[0]);
		return 2;
	}
	if (sched_setscheduler(0, SCHED_FIFO, &fifo))
		die("sched_setscheduler(SCHED_FIFO)");

	/* Time enough for the forks and cgroup moves below. */
	t0 = (now_ns() / TICK_NS + 10) * TICK_NS + MSEC;

	if (!strcmp(argv[1], "reweight")) {
		pids[n++] = start("sx-hogA", hog, 0, false);
		pids[n++] = start("sx-hogB", hog, 1, false);
		sleep_until(t0);
		tracing("1");
		sleep_until(t0 + 50 * MSEC);
		if (setpriority(PRIO_PROCESS, pids[0], 5))
			die("setpriority");
		sleep_until(t0 + 120 * MSEC);
		if (setpriority(PRIO_PROCESS, pids[0], -5))
			die("setpriority");
	} else if (!strcmp(argv[1], "fork")) {
		pids[n++] = start("sx-hogA", hog, 1, false);
		pids[n++] = start("sx-forker", forker, 0, false);
		sleep_until(t0);
		tracing("1");
	} else if (!strcmp(argv[1], "throttle") && argc > 2) {
		pids[n++] = start("sx-hogR", hog, 1, false);
		pids[n++] = start("sx-hogS", hog, 0, true);
		pids[n++] = start("sx-hogT", hog, -2, false);
		cgroup_enter(argv[2], pids[1]);
		cgroup_enter(argv[2], pids[2]);
		/*
		 * The quota's period timer starts now: 1.5 ms before the
		 * scenario, so that its refills fall 2.5 ms after a tick,
		 * whatever the set-up cost. 5.3 ms is no multiple of the
		 * tick, so the group's runtime does not run out at one.
		 */
		sleep_until(t0 - 3 * MSEC / 2);
		cgroup_write(argv[2], "cpu.max", "5300 20000\n");
		sleep_until(t0);
		tracing("1");
	} else {
		fprintf(stderr, "unknown scenario %s\n", argv[1]);
		return 2;
	}

	sleep_until(t0 + RUN_NS);
	tracing("0");
	for (i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
	return 0;
}
