// SPDX-License-Identifier: GPL-2.0
/*
 * libsliceext-preload.so seen from a program that never heard of it.
 * 84-preload.sh runs this under LD_PRELOAD with sliceext loaded. Every
 * check reads what the library did to this thread's rseq area (glibc's:
 * slice_ctrl.request and .granted, the status bits in flags) and what
 * prctl(PR_RSEQ_SLICE_EXTENSION_GET) says; a perf counter on the
 * raw_syscalls:sys_enter tracepoint, filtered to syscall 471, counts the
 * library's rseq_slice_yield() calls where a test needs them.
 *
 *   preload_locks [HARNESS OPTIONS]   the tests
 *   preload_locks kinds               "KIND 0|1" per kind: whether a lock
 *                                     of it raised a request; "enabled N":
 *                                     prctl GET afterwards, or -errno
 *   preload_locks work SECONDS THREADS HOGS
 *                                     THREADS threads share a mutex on
 *                                     CPU 0 beside HOGS CPU hogs; prints
 *                                     "sections N"
 *
 * The tests are in preload_lock_tests.h (each lock kind),
 * preload_cond_tests.h and preload_thread_tests.h, over the helpers of
 * preload_area.h and preload_lock_ops.h; the modes are below. They are
 * headers of this one program, not programs of their own, because
 * 84-preload.sh runs the tests and the modes from one binary and
 * tests/run builds one binary per .c file.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "preload_area.h"
#include "preload_lock_ops.h"
#include "preload_lock_tests.h"
#include "preload_cond_tests.h"
#include "preload_thread_tests.h"

/* --- modes for 84-preload.sh -------------------------------------------- */

/* Whether holding a lock of this kind ever shows a request. */
static int kind_asks(const struct lock_ops *ops)
{
	union lock l;
	int i, seen = 0;

	ops->init(&l);
	for (i = 0; i < TRIES && !seen; i++) {
		ops->lock(&l);
		seen = asking();
		ops->unlock(&l);
	}
	return seen;
}

/* After a wait that slept (which clears slice_ctrl): asked again? */
static int cond_asks(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec t;
	int i, seen = 0;

	for (i = 0; i < TRIES && !seen; i++) {
		pthread_mutex_lock(&m);
		t = in_ms(CLOCK_REALTIME, 2);
		pthread_cond_timedwait(&c, &m, &t);
		seen = asking();
		pthread_mutex_unlock(&m);
	}
	return seen;
}

static int kinds_main(void)
{
	if (!__rseq_size) {
		fprintf(stderr, "preload_locks: no rseq area\n");
		return 2;
	}
	printf("mutex %d\n", kind_asks(&mutex_ops));
	printf("spin %d\n", kind_asks(&spin_ops));
	printf("rwlock %d\n", kind_asks(&rd_ops) | kind_asks(&wr_ops));
	printf("cond %d\n", cond_asks());
	printf("enabled %d\n", slice_get());
	return 0;
}

static pthread_mutex_t work_lock = PTHREAD_MUTEX_INITIALIZER;
static int work_stop;
static unsigned long work_sections;

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("preload_locks: sched_setaffinity");
		exit(1);
	}
}

/* Fixed work, no system call: a clock read may be one in the guest. */
static void busy(unsigned long n)
{
	while (n--)
		__asm__ __volatile__("" ::: "memory");
}

static void *worker(void *arg)
{
	unsigned long n = 0;

	(void)arg;
	pin_cpu0();
	while (!__atomic_load_n(&work_stop, __ATOMIC_RELAXED)) {
		/*
		 * Most of the loop inside, so that preemptions land there;
		 * short sections, so that a grant usually outlasts the rest
		 * of one and ends in a yield, even under emulation.
		 */
		pthread_mutex_lock(&work_lock);
		busy(4000);
		work_sections++;
		pthread_mutex_unlock(&work_lock);
		busy(1000);
		n++;
	}
	return (void *)n;
}

static int work_main(int argc, char **argv)
{
	int secs, threads, hogs, i;
	pthread_t th[64];
	pid_t pid[64];

	if (argc != 3) {
		fprintf(stderr, "usage: preload_locks work SECONDS THREADS HOGS\n");
		return 2;
	}
	secs = atoi(argv[0]);
	threads = atoi(argv[1]);
	hogs = atoi(argv[2]);
	if (secs <= 0 || threads <= 0 || threads > 64 || hogs < 0 || hogs > 64) {
		fprintf(stderr, "preload_locks: work: bad SECONDS, THREADS or HOGS\n");
		return 2;
	}
	/* Hogs first, as processes: they take no lock. */
	for (i = 0; i < hogs; i++) {
		pid[i] = fork();
		if (pid[i] < 0) {
			perror("preload_locks: fork");
			return 1;
		}
		if (!pid[i]) {
			pin_cpu0();
			for (;;)
				busy(1000000);
		}
	}
	for (i = 0; i < threads; i++)
		if (pthread_create(&th[i], NULL, worker, NULL)) {
			fprintf(stderr, "preload_locks: pthread_create failed\n");
			return 1;
		}
	sleep((unsigned int)secs);
	__atomic_store_n(&work_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < hogs; i++) {
		kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}
	printf("sections %lu\n", work_sections);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "kinds"))
		return kinds_main();
	if (argc > 1 && !strcmp(argv[1], "work"))
		return work_main(argc - 2, argv + 2);
	return test_harness_run(argc, argv);
}
