// SPDX-License-Identifier: GPL-2.0
/*
 * Wakeup latency of a SCHED_FIFO thread sharing CPU 0 with a fair-class
 * hog that is always inside a slice extension request window (it never
 * leaves one), or that never requests at all.
 *
 *   rt_guard request|plain SECONDS
 *
 * The RT thread sleeps until absolute 1 ms deadlines and records how late
 * it woke. Prints "key value" lines: samples, p50/p99/max latency in ns.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/rseq.h>
#include <time.h>
#include <linux/rseq.h>

#define PERIOD_NS	1000000

static volatile bool stop;
static bool request;

static uint64_t ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000ULL + ts->tv_nsec;
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *hog(void *arg)
{
	volatile struct rseq *rs = (struct rseq *)((char *)__builtin_thread_pointer() +
						   __rseq_offset);

	pin_cpu0();
	if (request && prctl(PR_RSEQ_SLICE_EXTENSION, PR_RSEQ_SLICE_EXTENSION_SET,
			     PR_RSEQ_SLICE_EXT_ENABLE, 0, 0)) {
		perror("prctl");
		exit(1);
	}
	while (!stop) {
		if (request && !rs->slice_ctrl.request && !rs->slice_ctrl.granted)
			rs->slice_ctrl.request = 1;
	}
	rs->slice_ctrl.request = 0;
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 50 };
	struct timespec next, woke;
	uint64_t *lat;
	size_t n, i;
	pthread_t th;

	if (argc != 3 || (strcmp(argv[1], "request") && strcmp(argv[1], "plain"))) {
		fprintf(stderr, "usage: %s request|plain SECONDS\n", argv[0]);
		return 2;
	}
	request = !strcmp(argv[1], "request");
	n = atof(argv[2]) * 1e9 / PERIOD_NS;
	lat = calloc(n, sizeof(*lat));

	pin_cpu0();
	if (pthread_create(&th, NULL, hog, NULL))
		return 1;
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("sched_setscheduler");
		return 1;
	}

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < n; i++) {
		next.tv_nsec += PERIOD_NS;
		if (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		clock_gettime(CLOCK_MONOTONIC, &woke);
		lat[i] = ts_ns(&woke) - ts_ns(&next);
	}
	stop = true;
	pthread_join(th, NULL);

	qsort(lat, n, sizeof(*lat), cmp_u64);
	printf("samples %zu\n", n);
	printf("latency_p50_ns %llu\n", (unsigned long long)lat[n / 2]);
	printf("latency_p99_ns %llu\n", (unsigned long long)lat[n * 99 / 100]);
	printf("latency_max_ns %llu\n", (unsigned long long)lat[n - 1]);
	return 0;
}
