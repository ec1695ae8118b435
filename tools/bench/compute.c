// SPDX-License-Identifier: GPL-2.0
/*
 * compute - CPU-bound throughput: count the primes below 10^6 with a
 * segmented sieve, round after round.
 *
 * The throughput side of the scheduler trade-off: slice extensions and
 * burst-aware wakeup preemption must not cost a batch job noticeable
 * throughput. No system calls, no sleeping, a working set that fits in
 * L1, so the result moves only with the CPU time the threads get.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define TOOL		"compute"
#define LIMIT		1000000		/* count primes below this */
#define PRIMES_BELOW	78498		/* pi(10^6 - 1) */
#define SEGMENT		32768		/* bytes: fits in L1 */
#define BASE_MAX	1000		/* sqrt(LIMIT) */

/* Read at run time, so the compiler cannot fold a round into a constant. */
static volatile unsigned int limit = LIMIT;
static int stop_flag;
static pthread_barrier_t start_barrier;

struct thread {
	pthread_t thread;
	unsigned long rounds;
	unsigned int bad;	/* a wrong count, or 0 */
} __attribute__((aligned(64)));

static void usage(void)
{
	printf(
"Usage: " TOOL " [OPTION]...\n"
"Each thread counts the primes below 10^6 with a segmented sieve, over\n"
"and over, checking the count (78498) every round. Reports rounds per\n"
"second over all threads. Exits 1 if a round counts wrong.\n"
"\n"
"  --threads T      sieving threads (default 1)\n"
"  --duration SEC   measured run time in seconds (default 5)\n"
"  --json           print one JSON object instead of the table\n"
"  --help           show this help\n");
}

/* One round: the primes below n, sieved one L1-sized segment at a time. */
static unsigned int count_primes(unsigned int n)
{
	static const unsigned int base_n = BASE_MAX + 1;
	unsigned char small[BASE_MAX + 1], seg[SEGMENT];
	unsigned int base[BASE_MAX], nbase = 0, count = 0;
	unsigned int low, high, i, j, p;

	memset(small, 1, sizeof(small));
	for (i = 2; i < base_n; i++) {
		if (!small[i])
			continue;
		if (i * i < n)
			base[nbase++] = i;
		for (j = i * i; j < base_n; j += i)
			small[j] = 0;
	}
	for (low = 0; low < n; low += SEGMENT) {
		high = low + SEGMENT < n ? low + SEGMENT : n;
		memset(seg, 1, high - low);
		for (i = 0; i < nbase; i++) {
			p = base[i];
			j = (low + p - 1) / p * p;
			if (j < p * p)
				j = p * p;
			for (; j < high; j += p)
				seg[j - low] = 0;
		}
		for (i = low < 2 ? 2 : low; i < high; i++)
			count += seg[i - low];
	}
	return count;
}

static void *thread_fn(void *arg)
{
	struct thread *t = arg;

	pthread_barrier_wait(&start_barrier);
	while (!__atomic_load_n(&stop_flag, __ATOMIC_RELAXED)) {
		unsigned int n = count_primes(limit);

		if (n != PRIMES_BELOW) {
			t->bad = n;
			break;
		}
		t->rounds++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threads",	required_argument,	NULL, 't' },
		{ "duration",	required_argument,	NULL, 'd' },
		{ "json",	no_argument,		NULL, 'j' },
		{ "help",	no_argument,		NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	long nthreads = 1;
	double duration = 5, elapsed, rps;
	bool json = false;
	unsigned long rounds = 0;
	unsigned int bad = 0;
	struct thread *th;
	uint64_t t_start, t_end;
	int c, i;

	while ((c = bench_getopt(TOOL, argc, argv, opts)) != -1) {
		switch (c) {
		case 't':
			nthreads = bench_parse_long(TOOL, "threads", optarg, 1, 4096);
			break;
		case 'd':
			duration = bench_parse_double(TOOL, "duration", optarg,
						      0, true, 1e6);
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage();
			return 0;
		}
	}

	th = calloc(nthreads, sizeof(*th));
	if (!th) {
		perror(TOOL ": calloc");
		return 1;
	}
	pthread_barrier_init(&start_barrier, NULL, nthreads + 1);
	for (i = 0; i < nthreads; i++) {
		errno = pthread_create(&th[i].thread, NULL, thread_fn, &th[i]);
		if (errno) {
			perror(TOOL ": pthread_create");
			return 1;
		}
	}
	pthread_barrier_wait(&start_barrier);
	t_start = bench_now_ns();
	bench_sleep_ns((uint64_t)(duration * 1e9));
	__atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
	t_end = bench_now_ns();
	for (i = 0; i < nthreads; i++) {
		pthread_join(th[i].thread, NULL);
		rounds += th[i].rounds;
		if (th[i].bad)
			bad = th[i].bad;
	}
	free(th);
	if (bad) {
		fprintf(stderr, TOOL ": counted %u primes below %u, expected "
			"%u\n", bad, LIMIT, PRIMES_BELOW);
		return 1;
	}

	elapsed = (double)(t_end - t_start) / 1e9;
	rps = rounds / elapsed;
	if (json) {
		struct bench_json j;

		bench_json_begin(&j, stdout);
		bench_json_str(&j, "tool", TOOL);
		bench_json_int(&j, "threads", nthreads);
		bench_json_num(&j, "rounds_per_s", rps, 2);
		bench_json_num(&j, "duration_s", elapsed, 3);
		bench_json_end(&j);
	} else {
		printf("%s: %ld threads, %.2f s, %u primes below %u per round "
		       "(checked)\n", TOOL, nthreads, elapsed, PRIMES_BELOW,
		       LIMIT);
		printf("%-28s %14lu\n", "rounds", rounds);
		printf("%-28s %14.2f\n", "rounds/s", rps);
		printf("%-28s %14.2f\n", "rounds/s per thread", rps / nthreads);
	}
	return 0;
}
