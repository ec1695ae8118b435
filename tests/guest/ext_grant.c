// SPDX-License-Identifier: GPL-2.0
/*
 * Slice extension grants under wakeup preemption: a thread spends most of
 * its time in request windows on CPU 0 while a noise thread on the same
 * CPU wakes up every few tens of microseconds and preempts it.
 *
 *   ext_grant yield SECONDS    leave each window, yield when granted
 *   ext_grant abort SECONDS    make a syscall (getppid) when granted
 *   ext_grant expire SECONDS   never leave: the grant must expire
 *
 * Prints "key value" lines (windows, grants seen, yields, ...) for the
 * caller to compare with ext/stats, and for expire the time from seeing a
 * grant to losing the CPU. Exit status 0 unless a syscall failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/rseq.h>

/* Long enough to be a gap in a spin loop, short against a tick. */
#define GAP_NS		20000

static volatile bool stop;
static volatile sig_atomic_t report;

/* SIGUSR1: print this thread's slice_ctrl and status bits (unload test). */
static void on_usr1(int sig)
{
	report = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(2);
	}
}

static void *noise(void *arg)
{
	struct timespec ts = { 0, 30000 };

	pin_cpu0();
	prctl(PR_SET_TIMERSLACK, 1);
	while (!stop)
		nanosleep(&ts, NULL);
	return NULL;
}

static struct rseq *area(void)
{
	return (struct rseq *)((char *)__builtin_thread_pointer() +
			       __rseq_offset);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	enum { YIELD, ABORT, EXPIRE } mode;
	uint64_t windows = 0, seen = 0, yields = 0, yield_zero = 0, left = 0;
	uint64_t end, t, last, granted_at = 0, *lost = NULL;
	size_t nlost = 0;
	volatile struct rseq *rs;
	pthread_t th;
	double secs;

	if (argc != 3) {
		fprintf(stderr, "usage: %s yield|abort|expire SECONDS\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "yield"))
		mode = YIELD;
	else if (!strcmp(argv[1], "abort"))
		mode = ABORT;
	else if (!strcmp(argv[1], "expire"))
		mode = EXPIRE;
	else
		return 2;
	secs = atof(argv[2]);

	if (!__rseq_size) {
		fprintf(stderr, "no rseq area\n");
		return 2;
	}
	rs = area();
	if (prctl(PR_RSEQ_SLICE_EXTENSION, PR_RSEQ_SLICE_EXTENSION_SET,
		  PR_RSEQ_SLICE_EXT_ENABLE, 0, 0)) {
		perror("prctl(PR_RSEQ_SLICE_EXTENSION)");
		return 1;
	}
	lost = calloc(1 << 20, sizeof(*lost));

	pin_cpu0();
	if (pthread_create(&th, NULL, noise, NULL))
		return 1;

	end = now_ns() + secs * 1e9;
	last = now_ns();
	signal(SIGUSR1, on_usr1);
	while ((t = now_ns()) < end) {
		if (report) {
			report = 0;
			printf("state request=%u granted=%u status=%#x\n",
			       rs->slice_ctrl.request, rs->slice_ctrl.granted,
			       rs->flags & (RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE |
					    RSEQ_CS_FLAG_SLICE_EXT_ENABLED));
			fflush(stdout);
			last = now_ns();
			continue;
		}
		if (mode == EXPIRE) {
			/* Never leave: keep a request up, note each grant. */
			if (t - last > GAP_NS && granted_at) {
				if (nlost < (1 << 20))
					lost[nlost++] = last - granted_at;
				granted_at = 0;
			}
			last = t;
			if (rs->slice_ctrl.granted) {
				if (!granted_at) {
					granted_at = t;
					seen++;
				}
			} else if (!rs->slice_ctrl.request) {
				rs->slice_ctrl.request = 1;
				windows++;
			}
			continue;
		}

		windows++;
		rs->slice_ctrl.request = 1;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		while (now_ns() - t < 3000 && !rs->slice_ctrl.granted)
			;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		rs->slice_ctrl.request = 0;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		if (!rs->slice_ctrl.granted)
			continue;
		seen++;
		if (mode == ABORT) {
			getppid();
			if (rs->slice_ctrl.granted)
				left++;	/* must be 0: cleared on the way out */
		} else if (syscall(__NR_rseq_slice_yield) == 1) {
			yields++;
		} else {
			yield_zero++;
		}
	}
	/* Leave the last window properly: the calls below are syscalls. */
	rs->slice_ctrl.request = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (rs->slice_ctrl.granted && syscall(__NR_rseq_slice_yield) == 1)
		yields++;
	stop = true;
	pthread_join(th, NULL);

	printf("windows %llu\n", (unsigned long long)windows);
	printf("grants_seen %llu\n", (unsigned long long)seen);
	printf("yields %llu\n", (unsigned long long)yields);
	printf("yield_returned_0 %llu\n", (unsigned long long)yield_zero);
	printf("granted_after_syscall %llu\n", (unsigned long long)left);
	printf("outside_grant_yield %ld\n", syscall(__NR_rseq_slice_yield));
	if (nlost) {
		qsort(lost, nlost, sizeof(*lost), cmp_u64);
		printf("expiries_measured %zu\n", nlost);
		printf("grant_to_preempt_p50_ns %llu\n",
		       (unsigned long long)lost[nlost / 2]);
		printf("grant_to_preempt_p99_ns %llu\n",
		       (unsigned long long)lost[nlost * 99 / 100]);
		printf("grant_to_preempt_max_ns %llu\n",
		       (unsigned long long)lost[nlost - 1]);
	}
	return 0;
}
