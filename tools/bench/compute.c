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
static struct bench_run run;

/* --help: what the tool does, before the options. */
static const char about[] =
"Each thread counts the primes below 10^6 with a segmented sieve, over\n"
"and over, checking the count (78498) every round. Reports rounds per\n"
"second over all threads. Exits 1 if a round counts wrong.\n";

struct thread {
	unsigned long rounds;
	unsigned int bad;	/* a wrong count, or 0 */
} __attribute__((aligned(64)));

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

	bench_run_ready(&run);
	while (!bench_run_stopped(&run)) {
		unsigned int n = count_primes(limit);

		if (n != PRIMES_BELOW) {
			t->bad = n;
			break;
		}
		t->rounds++;
	}
	return NULL;
}

/* The results, once for both outputs. */
static void report(long nthreads, unsigned long rounds, double elapsed,
		   bool json)
{
	double rps = rounds / elapsed;
	const struct bench_metric m[] = {
		BENCH_M_INT("threads", NULL, nthreads),
		BENCH_M_INT(NULL, "rounds", rounds),
		BENCH_M_NUM("rounds_per_s", "rounds/s", rps, 2),
		BENCH_M_NUM(NULL, "rounds/s per thread", rps / nthreads, 2),
		BENCH_M_NUM("duration_s", NULL, elapsed, 3),
	};

	if (!json)
		printf("%s: %ld threads, %.2f s, %u primes below %u per round "
		       "(checked)\n", TOOL, nthreads, elapsed, PRIMES_BELOW,
		       LIMIT);
	bench_print_metrics(TOOL, m, BENCH_ARRAY_SIZE(m), json);
}

int main(int argc, char **argv)
{
	long nthreads = 1;
	double duration = 5, elapsed;
	bool json = false;
	const struct bench_opt opts[] = {
		BENCH_LONG("threads", "T", &nthreads, 1, 4096,
			   "sieving threads (default 1)"),
		BENCH_OPT_DURATION(&duration),
		BENCH_OPT_JSON(&json),
	};
	unsigned long rounds = 0;
	unsigned int bad = 0;
	struct thread *th;
	int i;

	bench_parse_options(TOOL, about, opts, BENCH_ARRAY_SIZE(opts),
			    argc, argv);

	th = bench_calloc(TOOL, nthreads, sizeof(*th));
	elapsed = bench_run_threads(TOOL, &run, nthreads, thread_fn, th,
				    sizeof(*th), duration);
	if (elapsed < 0)
		return 1;
	for (i = 0; i < nthreads; i++) {
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

	report(nthreads, rounds, elapsed, json);
	return 0;
}
