/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - helpers shared by the sliceext benchmark programs
 *
 * Every tool has the same shape: parse options (bad input exits 2), run
 * for --duration seconds, print a table or one JSON line. What they have
 * in common lives here so that the numbers are measured the same way in
 * each of them (the clock, the measured run, busy work, percentiles, the
 * kernel's counters and the background load) and so that their options,
 * --help and output read alike.
 *
 * opts.c	the option table: getopt_long(), value checks, --help
 * output.c	the metrics table: one JSON object or the text table
 * loadgen.c	the background load (CPU hogs and forkers)
 * bench.c	the measured run, the clock, samples, kernel counters
 */
#ifndef SLICEEXT_BENCH_H
#define SLICEEXT_BENCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define BENCH_NSEC_PER_SEC	1000000000ULL
#define BENCH_NSEC_PER_USEC	1000ULL

/* --- options (opts.c) ------------------------------------------------ */

/*
 * Each tool describes its options in a table of struct bench_opt, and
 * bench_parse_options() derives getopt_long()'s table, the value checks
 * and the --help text from it: an option cannot be accepted without being
 * documented, and a bad value is refused with the same words everywhere.
 */
enum bench_opt_kind {
	BENCH_OPT_FLAG,		/* no value: sets *to.flag */
	BENCH_OPT_LONG,		/* an integer in [min, max] */
	BENCH_OPT_DOUBLE,	/* a finite number, [min, max] or (min, max] */
	BENCH_OPT_CHOICE,	/* one of choices[]: *to.choice is its index */
};

struct bench_opt {
	const char *name;		/* without the leading "--" */
	enum bench_opt_kind kind;
	/* One member per kind, so that a wrong variable does not compile. */
	union {
		bool *flag;
		long *l;
		double *d;
		int *choice;
	} to;
	double min, max;		/* LONG (whole numbers) and DOUBLE */
	bool min_open;			/* DOUBLE: min itself is refused */
	const char *const *choices;	/* CHOICE: NULL-terminated */
	const char *arg;		/* the value in --help: "N", "SEC" */
	const char *help;		/* '\n' starts an indented line */
};

#define BENCH_FLAG(_name, _p, _help)					\
	{ .name = (_name), .kind = BENCH_OPT_FLAG, .to.flag = (_p),	\
	  .help = (_help) }
#define BENCH_LONG(_name, _arg, _p, _min, _max, _help)			\
	{ .name = (_name), .kind = BENCH_OPT_LONG, .to.l = (_p),	\
	  .min = (_min), .max = (_max), .arg = (_arg), .help = (_help) }
#define BENCH_DOUBLE(_name, _arg, _p, _min, _max, _help)		\
	{ .name = (_name), .kind = BENCH_OPT_DOUBLE, .to.d = (_p),	\
	  .min = (_min), .max = (_max), .arg = (_arg), .help = (_help) }
/* (0, max]: a length or duration for which zero makes no sense. */
#define BENCH_POSITIVE(_name, _arg, _p, _max, _help)			\
	{ .name = (_name), .kind = BENCH_OPT_DOUBLE, .to.d = (_p),	\
	  .min = 0, .min_open = true, .max = (_max), .arg = (_arg),	\
	  .help = (_help) }
#define BENCH_CHOICE(_name, _arg, _p, _choices, _help)			\
	{ .name = (_name), .kind = BENCH_OPT_CHOICE, .to.choice = (_p),	\
	  .choices = (_choices), .arg = (_arg), .help = (_help) }

/* The options every measuring tool has, worded the same in each. */
#define BENCH_OPT_DURATION(_p)						\
	BENCH_POSITIVE("duration", "SEC", _p, 1e6,			\
		       "measured run time in seconds (default 5)")
#define BENCH_OPT_JSON(_p)						\
	BENCH_FLAG("json", _p, "print one JSON object instead of the table")

#define BENCH_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * bench_parse_options - set the variables of @opts (@n entries) from the
 * command line, in order, so a repeated option's last value counts.
 * --help (or -h) prints "Usage: TOOL [OPTION]...", @about, a blank line
 * and the options with their help on stdout, and exits 0. An unknown
 * option, a missing or bad value or a stray argument prints a message on
 * stderr and exits 2. Abbreviations getopt_long() accepts are accepted.
 */
void bench_parse_options(const char *tool, const char *about,
			 const struct bench_opt *opts, size_t n,
			 int argc, char **argv);

/* Print "TOOL: message" and a --help hint on stderr, then exit(2). */
void bench_usage_error(const char *tool, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* --- setup (bench.c) -------------------------------------------------- */

/* Online CPUs, at least 1. */
int bench_online_cpus(void);

/*
 * calloc(), or "TOOL: calloc: reason" on stderr and exit(1). Only for
 * the setup, before any load or thread is started that would outlive it.
 */
void *bench_calloc(const char *tool, size_t n, size_t size);

/* --- the measured run (bench.c) --------------------------------------- */

/*
 * The threaded tools measure alike: each thread sets itself up, then
 * waits in bench_run_ready() until all are ready, so that the clock
 * starts with every thread running; they work until bench_run_stopped(),
 * raised after --duration.
 */
struct bench_run {
	pthread_barrier_t start;
	/* Polled by every thread in its loop: a cache line of its own. */
	int stop __attribute__((aligned(64)));
};

/* Prepare @run for @nthreads threads besides the main thread. */
void bench_run_init(struct bench_run *run, unsigned int nthreads);

/*
 * pthread_create(), with "TOOL: pthread_create: reason" on stderr and
 * -1 when it fails; 0 on success.
 */
int bench_run_thread(const char *tool, pthread_t *thread,
		     void *(*fn)(void *), void *arg);

static inline void bench_run_ready(struct bench_run *run)
{
	pthread_barrier_wait(&run->start);
}

static inline bool bench_run_stopped(struct bench_run *run)
{
	return __atomic_load_n(&run->stop, __ATOMIC_RELAXED);
}

/*
 * In the main thread, once every thread is created: release them, sleep
 * @duration seconds and raise the stop flag. Returns the seconds from
 * release to stop; the caller joins the threads.
 */
double bench_run_measure(struct bench_run *run, double duration);

/*
 * bench_run_threads - the above for @n threads that are all alike: start
 * @fn in each, thread i given @args + i * @size, measure @duration
 * seconds and join them. Returns the seconds measured, or -1 after a
 * message on stderr when a thread cannot be started (the caller then
 * exits; threads already started wait at the barrier until it does).
 */
double bench_run_threads(const char *tool, struct bench_run *run,
			 unsigned int n, void *(*fn)(void *), void *args,
			 size_t size, double duration);

/* --- time and busy work (bench.c) ------------------------------------- */

/* CLOCK_MONOTONIC in ns: through the vDSO on x86, no system call. */
uint64_t bench_now_ns(void);

/* Sleep for @ns of CLOCK_MONOTONIC, resuming after signals. */
void bench_sleep_ns(uint64_t ns);
/* Sleep until bench_now_ns() reads @deadline_ns. */
void bench_sleep_until_ns(uint64_t deadline_ns);

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

/* A fast, not cryptographic, 64-bit generator; any seed, 0 included. */
static inline uint64_t bench_xorshift64(uint64_t *state)
{
	uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ULL;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

/* The spin-wait hint: PAUSE on x86, nothing elsewhere. */
static inline void bench_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* --- samples and percentiles (bench.c) -------------------------------- */

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
 * bench_percentile - the nearest-rank @pct percentile (0 <= pct <= 100;
 * 0 gives the minimum) of the ascending array @v of @n values; 0 when n
 * is 0. Nearest rank
 * returns a real sample and is monotonic in pct, so p50 <= p99 <= max.
 */
uint64_t bench_percentile(const uint64_t *v, size_t n, double pct);

/* The @pct percentile of @s, sorted with bench_sort_u64(), in us. */
double bench_samples_pct_us(const struct bench_samples *s, double pct);
/*
 * The share of the values held, in percent, above @limit_ns. Where slow
 * events are about 1% of all, a p99 jumps between the fast and the slow
 * mode from run to run, and this share only moves by their number
 * (docs/tools.md, lat_over_500us_pct).
 */
double bench_samples_over_pct(const struct bench_samples *s,
			      uint64_t limit_ns);

/* --- results (output.c) ----------------------------------------------- */

/*
 * Each tool lists its results once, in a table of struct bench_metric,
 * and bench_print_metrics() prints that table either as the --json object
 * or as the text table, so the two outputs cannot drift apart. @key is
 * the JSON name (NULL: the text table only), @label the text row (NULL:
 * JSON only, e.g. the options echoed back, which the text table shows in
 * its heading line instead).
 */
enum bench_value_kind {
	BENCH_VAL_INT,		/* v.i */
	BENCH_VAL_NUM,		/* v.d with @decimals; NaN or infinity: unknown */
	BENCH_VAL_BOOL,		/* v.b */
	BENCH_VAL_STR,		/* v.s */
	BENCH_VAL_CDF,		/* v.cdf, sorted: percentiles, see below */
};

struct bench_metric {
	const char *key;
	const char *label;
	enum bench_value_kind kind;
	int decimals;
	bool unknown;		/* not measured: JSON null, text "n/a" */
	union {
		long long i;
		double d;
		bool b;
		const char *s;
		const struct bench_samples *cdf;
	} v;
};

#define BENCH_M_INT(_key, _label, _v)					\
	{ .key = (_key), .label = (_label), .kind = BENCH_VAL_INT,	\
	  .v.i = (long long)(_v) }
/* An integer that may not have been measured (@_known false). */
#define BENCH_M_INT_IF(_key, _label, _v, _known)			\
	{ .key = (_key), .label = (_label), .kind = BENCH_VAL_INT,	\
	  .v.i = (long long)(_v), .unknown = !(_known) }
#define BENCH_M_NUM(_key, _label, _v, _decimals)			\
	{ .key = (_key), .label = (_label), .kind = BENCH_VAL_NUM,	\
	  .v.d = (_v), .decimals = (_decimals) }
/* The @_pct percentile of @_samples (sorted, ns), in us. */
#define BENCH_M_PCT(_key, _label, _samples, _pct)			\
	BENCH_M_NUM(_key, _label, bench_samples_pct_us(_samples, _pct), 3)
#define BENCH_M_BOOL(_key, _label, _v)					\
	{ .key = (_key), .label = (_label), .kind = BENCH_VAL_BOOL,	\
	  .v.b = (_v) }
#define BENCH_M_STR(_key, _label, _v)					\
	{ .key = (_key), .label = (_label), .kind = BENCH_VAL_STR,	\
	  .v.s = (_v) }
/*
 * The distribution of @_samples (sorted ascending, in ns), JSON only:
 * [[pct, us], ...] at the percentiles of bench_cdf_pcts[], for plotting
 * the whole distribution rather than three points of it.
 */
#define BENCH_M_CDF(_key, _samples)					\
	{ .key = (_key), .kind = BENCH_VAL_CDF, .v.cdf = (_samples) }

extern const double bench_cdf_pcts[];
extern const size_t bench_cdf_npcts;

/*
 * bench_print_metrics - print @m (@n entries) as one JSON object on one
 * line ({"tool": @tool, key: value, ...}, in table order) when @json, else
 * as text rows: the label left-aligned, the value right-aligned, in the
 * same columns in every tool so that outputs printed one after another
 * line up. The caller prints the table's heading line itself.
 */
void bench_print_metrics(const char *tool, const struct bench_metric *m,
			 size_t n, bool json);

#define BENCH_LABEL_W	28
#define BENCH_VALUE_W	14

/* --- kernel counters (bench.c) ---------------------------------------- */

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

/* --- background load (loadgen.c) -------------------------------------- */

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

/*
 * 0, or -1 with "TOOL: starting the load: reason" on stderr after
 * stopping what was started.
 */
int bench_load_start(const char *tool, struct bench_load *l, int hogs,
		     int forkers);

/*
 * Stop and reap every child: hogs get SIGKILL, forkers SIGTERM so that
 * each kills and reaps its current child first. When it returns, no
 * process of the load is left.
 */
void bench_load_stop(struct bench_load *l);

/* Children forked by the forkers so far. */
unsigned long bench_load_forks(const struct bench_load *l);

/*
 * In a child just forked by @parent: get @sig when the parent dies, so
 * that no process outlives a benchmark killed with SIGKILL; exit at once
 * if the parent died before this call.
 */
void bench_die_with_parent(pid_t parent, int sig);

#endif /* SLICEEXT_BENCH_H */
