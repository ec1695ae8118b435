// SPDX-License-Identifier: GPL-2.0
/*
 * bench.c - the measured run, the clock and busy work, samples and
 * percentiles, and the kernel's counters, as every benchmark tool takes
 * them (bench.h)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

/* --- setup ------------------------------------------------------------ */

int bench_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* calloc(), or NULL after a message on stderr. */
/*
 * Zeroed and cache-line aligned: per-thread structs are declared 64-byte
 * aligned so that threads do not share lines, which calloc() alone does
 * not honour.
 */
static void *calloc_or_say(const char *tool, size_t n, size_t size)
{
	size_t bytes = n * size;
	void *p = NULL;

	if (size && bytes / size != n)
		errno = ENOMEM;
	else
		errno = posix_memalign(&p, 64, bytes ? (bytes + 63) & ~(size_t)63 : 64);
	if (!p) {
		fprintf(stderr, "%s: allocation: %s\n", tool, strerror(errno));
		return NULL;
	}
	memset(p, 0, bytes);
	return p;
}

void *bench_calloc(const char *tool, size_t n, size_t size)
{
	void *p = calloc_or_say(tool, n, size);

	if (!p)
		exit(1);
	return p;
}

/* --- the measured run ------------------------------------------------- */

void bench_run_init(struct bench_run *run, unsigned int nthreads)
{
	pthread_barrier_init(&run->start, NULL, nthreads + 1);
	run->stop = 0;
}

int bench_run_thread(const char *tool, pthread_t *thread,
		     void *(*fn)(void *), void *arg)
{
	int err = pthread_create(thread, NULL, fn, arg);

	if (err) {
		fprintf(stderr, "%s: pthread_create: %s\n", tool,
			strerror(err));
		return -1;
	}
	return 0;
}

double bench_run_measure(struct bench_run *run, double duration)
{
	uint64_t t_start, t_end;

	bench_run_ready(run);
	t_start = bench_now_ns();
	bench_sleep_ns((uint64_t)(duration * 1e9));
	__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
	t_end = bench_now_ns();
	return (double)(t_end - t_start) / 1e9;
}

double bench_run_threads(const char *tool, struct bench_run *run,
			 unsigned int n, void *(*fn)(void *), void *args,
			 size_t size, double duration)
{
	/* Not bench_calloc(): the caller's load may be running, to stop. */
	pthread_t *threads = calloc_or_say(tool, n, sizeof(*threads));
	double elapsed;
	unsigned int i;

	if (!threads)
		return -1;
	bench_run_init(run, n);
	for (i = 0; i < n; i++) {
		if (bench_run_thread(tool, &threads[i], fn,
				     (char *)args + i * size))
			return -1;
	}
	elapsed = bench_run_measure(run, duration);
	for (i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	return elapsed;
}

/* --- time and busy work ----------------------------------------------- */

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * BENCH_NSEC_PER_SEC + ts.tv_nsec;
}

void bench_sleep_ns(uint64_t ns)
{
	bench_sleep_until_ns(bench_now_ns() + ns);
}

void bench_sleep_until_ns(uint64_t deadline_ns)
{
	struct timespec ts = {
		.tv_sec = deadline_ns / BENCH_NSEC_PER_SEC,
		.tv_nsec = deadline_ns % BENCH_NSEC_PER_SEC,
	};

	/* Absolute, so a signal handler does not stretch the sleep. */
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

void bench_spin_ns(uint64_t ns)
{
	uint64_t end = bench_now_ns() + ns;

	while (bench_now_ns() < end)
		;
}

static uint64_t cpu_time_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * BENCH_NSEC_PER_SEC + ts.tv_nsec;
}

void bench_spin_cpu_ns(uint64_t ns)
{
	uint64_t end = cpu_time_ns() + ns;
	volatile uint64_t x = 0;
	int i;

	/*
	 * Reading the CPU clock is a real system call: do a little work
	 * between reads so the load is mostly user time, as a compiler's.
	 */
	while (cpu_time_ns() < end)
		for (i = 0; i < 1000; i++)
			x = x + i;
}

/* --- samples and percentiles ------------------------------------------ */

static bool samples_grow(struct bench_samples *s)
{
	size_t cap = s->cap ? s->cap * 2 : 1024;
	uint64_t *v;

	if (s->cap >= BENCH_SAMPLES_MAX)
		return false;
	if (cap > BENCH_SAMPLES_MAX)
		cap = BENCH_SAMPLES_MAX;
	v = realloc(s->v, cap * sizeof(*v));
	if (!v)
		return false;	/* keep what we have, sample from now on */
	s->v = v;
	s->cap = cap;
	return true;
}

void bench_samples_add(struct bench_samples *s, uint64_t x)
{
	uint64_t j;

	s->count++;
	if (x > s->max)
		s->max = x;
	if (s->n < s->cap || samples_grow(s)) {
		s->v[s->n++] = x;
		return;
	}
	/* Algorithm R: keep each of the count values with chance n/count. */
	j = bench_xorshift64(&s->rng) % s->count;
	if (j < s->n)
		s->v[j] = x;
}

void bench_samples_merge(struct bench_samples *dst,
			 const struct bench_samples *src)
{
	size_t i;

	for (i = 0; i < src->n; i++)
		bench_samples_add(dst, src->v[i]);
	/* Values src dropped still count, and its max is exact. */
	dst->count += src->count - src->n;
	if (src->max > dst->max)
		dst->max = src->max;
}

void bench_samples_free(struct bench_samples *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void bench_sort_u64(uint64_t *v, size_t n)
{
	if (n)
		qsort(v, n, sizeof(*v), cmp_u64);
}

uint64_t bench_percentile(const uint64_t *v, size_t n, double pct)
{
	double r = pct / 100.0 * (double)n;
	size_t rank = (size_t)r;

	if (!n)
		return 0;
	if ((double)rank < r)
		rank++;		/* ceil() without libm */
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return v[rank - 1];
}

double bench_samples_pct_us(const struct bench_samples *s, double pct)
{
	return bench_percentile(s->v, s->n, pct) / 1e3;
}

double bench_samples_over_pct(const struct bench_samples *s,
			      uint64_t limit_ns)
{
	size_t i, over = 0;

	for (i = 0; i < s->n; i++)
		over += s->v[i] > limit_ns;
	return s->n ? 100.0 * over / s->n : 0;
}

/* --- kernel counters -------------------------------------------------- */

pid_t bench_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

int bench_read_schedstat(pid_t tid, struct bench_schedstat *st)
{
	char path[64];
	unsigned long long run, delay, slices;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fscanf(f, "%llu %llu %llu", &run, &delay, &slices);
	fclose(f);
	if (n != 3) {
		errno = EINVAL;
		return -1;
	}
	st->run_ns = run;
	st->run_delay_ns = delay;
	st->timeslices = slices;
	return 0;
}

int bench_read_counters(const char *path, struct bench_counter *c, int max)
{
	char line[128], name[BENCH_COUNTER_NAME];
	unsigned long long v;
	FILE *f;
	int n = 0;

	f = fopen(path, "r");
	if (!f)
		return -1;
	while (n < max && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%31s %llu", name, &v) != 2)
			continue;	/* not a counter line */
		strcpy(c[n].name, name);
		c[n].value = v;
		n++;
	}
	if (ferror(f)) {
		fclose(f);
		errno = EIO;
		return -1;
	}
	fclose(f);
	return n;
}

unsigned long long bench_counter_get(const struct bench_counter *c, int n,
				     const char *name,
				     unsigned long long def)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(c[i].name, name))
			return c[i].value;
	return def;
}
