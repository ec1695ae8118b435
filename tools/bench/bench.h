/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - helpers shared by the sliceext benchmark programs
 *
 * Every tool has the same shape: parse options (bad input exits 2), run
 * for --duration seconds, print a table or one JSON line. What they have
 * in common lives here so that the numbers are measured the same way in
 * each of them: the clock, busy work, percentiles, the kernel's counters
 * and the background load.
 */
#ifndef SLICEEXT_BENCH_H
#define SLICEEXT_BENCH_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define BENCH_NSEC_PER_SEC	1000000000ULL
#define BENCH_NSEC_PER_USEC	1000ULL

/* --- options ---------------------------------------------------------- */

/*
 * bench_getopt - getopt_long() for long options only, with the common
 * error handling: an unknown option, a missing value or a leftover
 * argument prints a message on stderr and exits 2. Returns the option's
 * val, or -1 when all options are parsed.
 */
int bench_getopt(const char *tool, int argc, char **argv,
		 const struct option *opts);

/* Print "TOOL: message" and a --help hint on stderr, then exit(2). */
void bench_usage_error(const char *tool, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* An integer in [min, max], or exit 2 naming the option. */
long bench_parse_long(const char *tool, const char *opt, const char *arg,
		      long min, long max);

/*
 * A finite number in [min, max] (min excluded when min_open), or exit 2
 * naming the option. Durations and microsecond sizes take fractions.
 */
double bench_parse_double(const char *tool, const char *opt, const char *arg,
			  double min, bool min_open, double max);

/* Online CPUs, at least 1. */
int bench_online_cpus(void);

/* --- time and busy work ----------------------------------------------- */

/* CLOCK_MONOTONIC in ns: through the vDSO on x86, no system call. */
uint64_t bench_now_ns(void);

/* Sleep for @ns of CLOCK_MONOTONIC, resuming after signals. */
void bench_sleep_ns(uint64_t ns);

/*
 * Burn the CPU for @ns of wall time. Calibrated by the clock itself, so
 * there is no loop count to go stale when the CPU frequency changes or
 * the program runs under emulation. Time spent preempted counts: the
 * caller asked for "busy until then", as a request handler with a
 * deadline would be.
 */
void bench_spin_ns(uint64_t ns);

/*
 * Burn @ns of this process's CPU time (not wall time): a compiler that
 * needs 10 ms of CPU takes longer on a busy machine, and so does this.
 */
void bench_spin_cpu_ns(uint64_t ns);

/* The spin-wait hint: PAUSE on x86, nothing elsewhere. */
static inline void bench_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* --- samples and percentiles ------------------------------------------ */

/*
 * A growable array of samples (ns). Past BENCH_SAMPLES_MAX values it
 * keeps a uniform random subset (reservoir sampling), so a long run
 * cannot exhaust memory and still gives unbiased percentiles; count and
 * max stay exact.
 */
#define BENCH_SAMPLES_MAX	(4u << 20)	/* 32 MiB per array */

struct bench_samples {
	uint64_t *v;
	size_t n;		/* values held in v */
	size_t cap;
	uint64_t count;		/* values ever added */
	uint64_t max;
	uint64_t rng;
};

void bench_samples_add(struct bench_samples *s, uint64_t x);
/* Append every value of @src to @dst (for merging per-thread arrays). */
void bench_samples_merge(struct bench_samples *dst,
			 const struct bench_samples *src);
void bench_samples_free(struct bench_samples *s);

/* Sort ascending, then read percentiles with bench_percentile(). */
void bench_sort_u64(uint64_t *v, size_t n);

/*
 * bench_percentile - the nearest-rank @pct percentile (0 < pct <= 100)
 * of the ascending array @v of @n values; 0 when n is 0. Nearest rank
 * returns a real sample and is monotonic in pct, so p50 <= p99 <= max.
 */
uint64_t bench_percentile(const uint64_t *v, size_t n, double pct);

/* --- JSON output (one object on one line) ----------------------------- */

struct bench_json {
	FILE *f;
	bool first;
};

void bench_json_begin(struct bench_json *j, FILE *f);
void bench_json_str(struct bench_json *j, const char *key, const char *val);
void bench_json_int(struct bench_json *j, const char *key, long long val);
/* A number with @decimals after the point; NaN and infinities as null. */
void bench_json_num(struct bench_json *j, const char *key, double val,
		    int decimals);
void bench_json_bool(struct bench_json *j, const char *key, bool val);
void bench_json_null(struct bench_json *j, const char *key);
void bench_json_end(struct bench_json *j);

/* --- kernel counters -------------------------------------------------- */

pid_t bench_gettid(void);

/*
 * /proc/self/task/<tid>/schedstat: time on the CPU, time waiting on a
 * runqueue (run delay) and the number of times the task ran, since it
 * started. Needs CONFIG_SCHED_INFO (Debian's kernels have it).
 */
struct bench_schedstat {
	uint64_t run_ns;
	uint64_t run_delay_ns;
	uint64_t timeslices;
};

int bench_read_schedstat(pid_t tid, struct bench_schedstat *st);

/*
 * A debugfs file of "name value" lines, like sliceext's ext/stats.
 * Returns the number of counters read (up to @max), or -1 with errno
 * when the file cannot be read (no debugfs, not root, module unloaded).
 */
#define BENCH_COUNTER_NAME	32

struct bench_counter {
	char name[BENCH_COUNTER_NAME];
	unsigned long long value;
};

int bench_read_counters(const char *path, struct bench_counter *c, int max);

/* The value of counter @name, or @def when absent. */
unsigned long long bench_counter_get(const struct bench_counter *c, int n,
				     const char *name,
				     unsigned long long def);

/* --- background load --------------------------------------------------- */

/*
 * CPU hogs (each a process spinning forever) and forkers (each a process
 * that, like make running compilers, forks a child doing 2-20 ms of CPU
 * work, waits for it and starts the next). They are processes, not
 * threads, so they compete as separate tasks and inherit the caller's
 * nice value and policy: run the tool under "nice -n 19" or "chrt -i 0"
 * to make the load background load.
 *
 * Call bench_load_start() before creating any thread: the children are
 * forked, and each is killed when the thread that forked it exits.
 */
struct bench_load {
	pid_t *pids;			/* hogs first, then forkers */
	int hogs;
	int forkers;
	int started;			/* pids filled in */
	unsigned long *forks;		/* per forker, shared memory */
	unsigned long forks_done;	/* their sum, once stopped */
};

/* 0, or -1 with errno after stopping what was started. */
int bench_load_start(struct bench_load *l, int hogs, int forkers);

/*
 * Stop and reap every child: hogs get SIGKILL, forkers SIGTERM so that
 * each kills and reaps its current child first. When it returns, no
 * process of the load is left.
 */
void bench_load_stop(struct bench_load *l);

/* Children forked by the forkers so far. */
unsigned long bench_load_forks(const struct bench_load *l);

#endif /* SLICEEXT_BENCH_H */
