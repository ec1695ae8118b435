// SPDX-License-Identifier: GPL-2.0
/*
 * lock_table - the RFC's "lock table test": threads updating a shared
 * table under a user-space spinlock, optionally asking for time slice
 * extensions around the critical section.
 *
 * The slice extension exists for exactly this: when the scheduler
 * preempts a thread that holds a user-space spinlock, every thread that
 * wants the lock spins (or yields) until the holder runs again. With
 * more runnable threads than CPUs that happens all the time; an
 * extension lets the holder finish its few microseconds first. The
 * numbers to compare between runs with and without --ext are the
 * throughput, the lock-wait tail and how often a holder was preempted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench.h"
#include "rseq_slice.h"

#define TOOL		"lock_table"
#define STATS_PATH	"/sys/kernel/debug/sliceext/ext/stats"

#ifndef ENOTSUPP
#define ENOTSUPP	524	/* kernel internal, not in <errno.h> */
#endif

/*
 * The shared table: 4 KiB of counters, so a critical section touches a
 * few cache lines that move between CPUs with the lock, as a real
 * lock-protected structure's do.
 */
#define TABLE_SLOTS	512
#define SPIN_TRIES	1000

static uint64_t table[TABLE_SLOTS] __attribute__((aligned(64)));
static int lock_word __attribute__((aligned(64)));
static struct bench_run run;	/* its stop flag on a line of its own */

static uint64_t cs_iters;	/* table updates per critical section */
static uint64_t out_iters;	/* private updates between sections */

struct client {
	bool ext;		/* --ext given */
	bool ext_on;		/* enabled for this thread */
	uint64_t seed;
	uint64_t *priv;		/* thread-private table for outside work */
	unsigned long ops;
	unsigned long preempted;
	unsigned long yields;	/* rseq_slice_yield() inside a live grant */
	struct bench_samples wait;
} __attribute__((aligned(64)));	/* no false sharing between clients */

/* --help: what the tool does, before the options. */
static const char about[] =
"Threads take a user-space spinlock guarding a shared table, update the\n"
"table for --cs-us, release it and work --outside-us elsewhere. Reports\n"
"critical sections per second, lock-wait percentiles and how often the\n"
"lock holder was preempted.\n";

/*
 * One "table update": an LCG picks a slot and increments it. Fixed work
 * per iteration, no system call, so a critical section of cs_iters
 * iterations lasts cs-us on an idle CPU and only gets longer when the
 * holder loses the CPU, which is the effect under test.
 */
static inline void table_work(uint64_t *t, uint64_t iters, uint64_t *seed)
{
	uint64_t x = *seed, i;

	for (i = 0; i < iters; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		t[(x >> 33) % TABLE_SLOTS]++;
	}
	*seed = x;
}

/*
 * Test-and-test-and-set: spin reading the word (cache-local) and only
 * try the atomic exchange when it looks free. After SPIN_TRIES failed
 * tries, sched_yield(): a waiter must not burn its whole slice spinning
 * on a preempted holder. Real databases' spinlocks do the same (e.g.
 * PostgreSQL's s_lock() backs off to sleeping, InnoDB's mutexes spin a
 * bounded number of rounds and then yield or wait).
 */
static void lock_acquire(void)
{
	unsigned int tries = 0;

	for (;;) {
		if (!__atomic_load_n(&lock_word, __ATOMIC_RELAXED) &&
		    !__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE))
			return;
		bench_cpu_relax();
		if (++tries >= SPIN_TRIES) {
			sched_yield();
			tries = 0;
		}
	}
}

static void lock_release(void)
{
	__atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
}

static long nivcsw(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nivcsw;
}

static void *client_fn(void *arg)
{
	struct client *c = arg;
	struct rseq *rs = NULL;

	if (c->ext) {
		/* The prctl() is per thread: each client enables itself. */
		rs = rseq_slice_area();
		c->ext_on = rs && rseq_slice_enable() == 0;
	}
	bench_run_ready(&run);

	while (!bench_run_stopped(&run)) {
		uint64_t t0, t1;
		bool yielded = false;
		long n0, d;

		t0 = bench_now_ns();
		/* Request before the lock, so the holder is covered. */
		if (c->ext_on)
			rseq_slice_enter(rs);
		lock_acquire();
		t1 = bench_now_ns();
		/*
		 * Involuntary switches while holding the lock. Counted from
		 * here, not from before the wait: a waiter's sched_yield()
		 * and preemptions while spinning are not the holder's. The
		 * system call costs the same with and without --ext; it
		 * ends a grant made while waiting, which had been spent on
		 * the wait anyway.
		 */
		n0 = nivcsw();
		table_work(table, cs_iters, &c->seed);
		lock_release();
		/* Yields at once if the kernel granted an extension. */
		if (c->ext_on)
			yielded = rseq_slice_leave(rs);
		/* The switch of that yield came after the release. */
		d = nivcsw() - n0 - yielded;
		if (d > 0)
			c->preempted++;
		c->yields += yielded;
		bench_samples_add(&c->wait, t1 - t0);
		table_work(c->priv, out_iters, &c->seed);
		c->ops++;
	}
	if (c->ext_on)
		rseq_slice_disable();
	return NULL;
}

/*
 * ns per table update, uncontended: the median of 9 timed batches of at
 * least 50 us each, after 20 ms of warm-up so the CPU has left its idle
 * frequency. The median ignores a batch that was preempted or hit by an
 * interrupt, which matters when the caller already runs load.
 */
static double calibrate(void)
{
	uint64_t seed = 1, batch = 256, t, end;
	double per[9], tmp;
	int i, k;

	end = bench_now_ns() + 20000000;
	while (bench_now_ns() < end)
		table_work(table, batch, &seed);
	for (;;) {
		t = bench_now_ns();
		table_work(table, batch, &seed);
		if (bench_now_ns() - t >= 50000)
			break;
		batch *= 2;
	}
	for (i = 0; i < 9; i++) {
		t = bench_now_ns();
		table_work(table, batch, &seed);
		per[i] = (double)(bench_now_ns() - t) / (double)batch;
	}
	for (i = 1; i < 9; i++)		/* insertion sort of 9 */
		for (k = i; k > 0 && per[k - 1] > per[k]; k--) {
			tmp = per[k];
			per[k] = per[k - 1];
			per[k - 1] = tmp;
		}
	memset(table, 0, sizeof(table));	/* checked at the end */
	return per[4] > 0 ? per[4] : 0.001;
}

/* NULL if this kernel serves the extension, else why not. */
static const char *ext_probe(void)
{
	struct rseq *rs = rseq_slice_area();
	int err;

	if (!rs)
		return "no rseq area registered, e.g. glibc.pthread.rseq=0";
	err = rseq_slice_enable();
	switch (-err) {
	case 0:
		rseq_slice_disable();	/* the main thread runs no section */
		return NULL;
	case ENOTSUPP:
		return "disabled, or the sliceext module is not loaded";
	case EINVAL:
		return "kernel lacks it: needs Linux 7.0 or 6.12 with sliceext";
	case ENXIO:
		return "no rseq area registered for this thread";
	default:
		return strerror(-err);
	}
}

/* sliceext's counters: requested, granted and the denied_* lines. */
struct ext_stats {
	bool ok;
	unsigned long long requested, granted, denied;
};

static struct ext_stats read_ext_stats(void)
{
	struct bench_counter c[32];
	struct ext_stats s = { 0 };
	bool any_denied_x = false;
	int n, i;

	n = bench_read_counters(STATS_PATH, c, 32);
	if (n <= 0)
		return s;
	s.ok = true;
	s.requested = bench_counter_get(c, n, "requested", 0);
	s.granted = bench_counter_get(c, n, "granted", 0);
	/* "denied" is itself the sum of the denied_* lines. */
	for (i = 0; i < n; i++)
		if (!strncmp(c[i].name, "denied_", 7)) {
			s.denied += c[i].value;
			any_denied_x = true;
		}
	if (!any_denied_x)
		s.denied = bench_counter_get(c, n, "denied", 0);
	return s;
}

int main(int argc, char **argv)
{
	int ncpu = bench_online_cpus();
	long clients = 3L * ncpu, hogs = 0;
	double cs_us = 5, outside_us = 20, duration = 5, ns_per_iter;
	bool ext = false, json = false, ext_available, stats_ok;
	const struct bench_opt opts[] = {
		BENCH_LONG("clients", "N", &clients, 1, 4096,
			   "threads taking the lock (default: 3 x online CPUs)"),
		BENCH_POSITIVE("cs-us", "US", &cs_us, 1e6,
			       "critical section length in microseconds, as a\n"
			       "calibrated number of table updates (default 5)"),
		BENCH_DOUBLE("outside-us", "US", &outside_us, 0, 1e6,
			     "work between critical sections in us (default 20)"),
		BENCH_FLAG("ext", &ext,
			   "ask for a time slice extension around each critical\n"
			   "section (rseq slice_ctrl, Linux 7.0 ABI); without\n"
			   "kernel support the run goes on without requests"),
		BENCH_LONG("hogs", "M", &hogs, 0, 4096,
			   "also run M CPU-hog processes during the run (default 0)"),
		BENCH_OPT_DURATION(&duration),
		BENCH_OPT_JSON(&json),
	};
	const char *ext_reason;
	struct ext_stats st0, st1;
	struct bench_samples wait = { 0 };
	struct bench_load load;
	struct client *cl;
	unsigned long ops = 0, preempted = 0, yields = 0;
	uint64_t sum = 0;
	double elapsed, ops_per_s, frac, p50, p99, max;
	int i;

	bench_parse_options(TOOL, about, opts, BENCH_ARRAY_SIZE(opts),
			    argc, argv);

	ext_reason = ext_probe();
	ext_available = !ext_reason;
	if (ext && !ext_available)
		fprintf(stderr, TOOL ": slice extension unavailable (%s): "
			"running without requests\n", ext_reason);

	/* Before the hogs start: calibrate on a quiet CPU if there is one. */
	ns_per_iter = calibrate();
	cs_iters = (uint64_t)(cs_us * 1000.0 / ns_per_iter + 0.5);
	if (!cs_iters)
		cs_iters = 1;
	out_iters = (uint64_t)(outside_us * 1000.0 / ns_per_iter + 0.5);

	cl = bench_calloc(TOOL, clients, sizeof(*cl));
	for (i = 0; i < clients; i++) {
		cl[i].ext = ext;
		cl[i].seed = (uint64_t)i * 0x9e3779b97f4a7c15ULL + 1;
		cl[i].priv = bench_calloc(TOOL, TABLE_SLOTS, sizeof(uint64_t));
	}

	st0 = read_ext_stats();
	/* Fork the hogs before any thread exists. */
	if (bench_load_start(TOOL, &load, hogs, 0))
		return 1;
	elapsed = bench_run_threads(TOOL, &run, clients, client_fn, cl,
				    sizeof(*cl), duration);
	if (elapsed < 0) {
		bench_load_stop(&load);
		return 1;
	}
	for (i = 0; i < clients; i++) {
		ops += cl[i].ops;
		preempted += cl[i].preempted;
		yields += cl[i].yields;
		if (ext && !cl[i].ext_on)
			ext_available = false;
		bench_samples_merge(&wait, &cl[i].wait);
		bench_samples_free(&cl[i].wait);
		free(cl[i].priv);
	}
	bench_load_stop(&load);
	st1 = read_ext_stats();
	stats_ok = st0.ok && st1.ok && st1.requested >= st0.requested &&
		   st1.granted >= st0.granted && st1.denied >= st0.denied;

	/* Every section added cs_iters to the table: the lock held. */
	for (i = 0; i < TABLE_SLOTS; i++)
		sum += table[i];
	if (sum != (uint64_t)ops * cs_iters) {
		fprintf(stderr, TOOL ": table sum %llu, expected %llu: the "
			"lock failed to exclude\n", (unsigned long long)sum,
			(unsigned long long)ops * cs_iters);
		return 1;
	}

	ops_per_s = ops / elapsed;
	frac = ops ? (double)preempted / ops : 0;
	bench_sort_u64(wait.v, wait.n);
	p50 = bench_samples_pct_us(&wait, 50);
	p99 = bench_samples_pct_us(&wait, 99);
	max = wait.max / 1e3;

	if (json) {
		struct bench_json j;

		bench_json_begin(&j, TOOL);
		bench_json_int(&j, "clients", clients);
		bench_json_int(&j, "hogs", hogs);
		bench_json_num(&j, "cs_us", cs_us, 3);
		bench_json_num(&j, "outside_us", outside_us, 3);
		bench_json_bool(&j, "ext", ext);
		bench_json_bool(&j, "ext_available", ext_available);
		bench_json_num(&j, "duration_s", elapsed, 3);
		bench_json_num(&j, "ops_per_s", ops_per_s, 1);
		bench_json_num(&j, "wait_p50_us", p50, 3);
		bench_json_num(&j, "wait_p99_us", p99, 3);
		bench_json_num(&j, "wait_max_us", max, 3);
		bench_json_int(&j, "holder_preempted", preempted);
		bench_json_num(&j, "holder_preempted_frac", frac, 6);
		bench_json_int(&j, "yields", yields);
		if (stats_ok) {
			bench_json_int(&j, "requested",
				       st1.requested - st0.requested);
			bench_json_int(&j, "granted",
				       st1.granted - st0.granted);
			bench_json_int(&j, "denied", st1.denied - st0.denied);
		} else {
			bench_json_null(&j, "requested");
			bench_json_null(&j, "granted");
			bench_json_null(&j, "denied");
		}
		bench_json_int(&j, "calib_iters", cs_iters);
		bench_json_end(&j);
	} else {
		printf("%s: %ld clients on %d CPUs, %ld hogs, %.2f s\n", TOOL,
		       clients, ncpu, hogs, elapsed);
		printf("  critical section %.1f us = %llu table updates "
		       "(%.2f ns each), outside %.1f us\n", cs_us,
		       (unsigned long long)cs_iters, ns_per_iter, outside_us);
		if (!ext)
			printf("  slice extension: not requested (%s)\n",
			       ext_available ? "available" : ext_reason);
		else if (ext_available)
			printf("  slice extension: requested\n");
		else
			printf("  slice extension unavailable (%s): ran "
			       "without requests\n",
			       ext_reason ? ext_reason : "a thread's prctl() failed");
		bench_row_num("critical sections/s", ops_per_s, 1);
		bench_row_num("lock wait p50 (us)", p50, 3);
		bench_row_num("lock wait p99 (us)", p99, 3);
		bench_row_num("lock wait max (us)", max, 3);
		/* More than a value: out of how many, and the share. */
		printf("%-*s %*lu  of %lu (%.4f)\n", BENCH_LABEL_W,
		       "holder preempted", BENCH_VALUE_W, preempted, ops, frac);
		bench_row_uint("yields after a grant", yields);
		if (stats_ok) {
			bench_row_uint("ext/stats requested",
				       st1.requested - st0.requested);
			bench_row_uint("ext/stats granted",
				       st1.granted - st0.granted);
			bench_row_uint("ext/stats denied",
				       st1.denied - st0.denied);
		} else {
			bench_row_str("ext/stats", "unreadable");
		}
	}
	bench_samples_free(&wait);
	free(cl);
	return 0;
}
