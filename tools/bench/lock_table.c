// SPDX-License-Identifier: GPL-2.0
/*
 * lock_table - the "lock table test" (docs/tools.md): threads updating a
 * shared table under a user-space spinlock, optionally asking for time
 * slice extensions around the critical section.
 *
 * The slice extension exists for exactly this: when the scheduler
 * preempts a thread that holds a user-space spinlock, every thread that
 * wants the lock spins (or yields) until the holder runs again. With
 * more runnable threads than CPUs that happens all the time; an
 * extension lets the holder finish its few microseconds first. The
 * numbers to compare between runs with and without --ext are the
 * throughput, the lock-wait tail and how often a holder stalled.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"
#include "rseq_slice.h"

#define TOOL		"lock_table"
#define STATS_PATH	"/sys/kernel/debug/sliceext/ext/stats"

/*
 * A critical section that took longer than this lost its CPU: longer
 * than the longest extension (50 us) plus an interrupt, shorter than the
 * slice any other task runs for once it has the CPU (6.12's base slice
 * is 0.75 ms and more). Timed with the vDSO clock, because any system
 * call inside a live grant ends it and hands the CPU away, the very
 * preemption under test.
 */
#define STALL_NS	(200 * 1000ULL)

#ifndef ENOTSUPP
#define ENOTSUPP	524	/* kernel internal, not in <errno.h> */
#endif

/* Older <elf.h>s lack them; the values are the kernel's. */
#ifndef AT_RSEQ_FEATURE_SIZE
#define AT_RSEQ_FEATURE_SIZE	27
#endif
#ifndef AT_RSEQ_ALIGN
#define AT_RSEQ_ALIGN		28
#endif

/* The abort signature of the rseq selftests; no rseq_cs is ever used. */
#define RSEQ_SIG		0x53053053
#define RSEQ_ORIG_SIZE		32	/* the least any kernel accepts */

/*
 * The shared table: 4 KiB of counters, so a critical section touches a
 * few cache lines that move between CPUs with the lock, as a real
 * lock-protected structure's do.
 */
#define TABLE_SLOTS	512
#define SPIN_TRIES	1000

static uint64_t table[TABLE_SLOTS] __attribute__((aligned(64)));
static int lock_word __attribute__((aligned(64)));
static pthread_mutex_t lock_mutex = PTHREAD_MUTEX_INITIALIZER;

/*
 * --lock: the spinlock below, or a default pthread mutex, which is what
 * an unmodified program takes and what libsliceext-preload.so wraps.
 */
enum lock_kind { LOCK_SPIN, LOCK_MUTEX };
static const char *const lock_names[] = { "spin", "mutex", NULL };
static int lock_kind = LOCK_SPIN;
static struct bench_run run;	/* its stop flag on a line of its own */

static uint64_t cs_iters;	/* table updates per critical section */
static uint64_t out_iters;	/* private updates between sections */

struct client {
	bool ext;		/* --ext given */
	bool ext_on;		/* enabled for this thread */
	void *own_rseq;		/* the area it registers, if glibc has none */
	bool own_registered;
	uint64_t seed;
	uint64_t *priv;		/* thread-private table for outside work */
	unsigned long ops;
	unsigned long stalled;	/* sections longer than STALL_NS */
	unsigned long yields;	/* rseq_slice_yield() inside a live grant */
	struct bench_samples wait;
} __attribute__((aligned(64)));	/* no false sharing between clients */

/* --help: what the tool does, before the options. */
static const char about[] =
"Threads take a lock (a user-space spinlock, or a pthread mutex with\n"
"--lock mutex) guarding a shared table, update the table for --cs-us,\n"
"release it and work --outside-us elsewhere. Reports critical sections\n"
"per second, lock-wait percentiles and how often the lock holder stalled\n"
"(held the lock over 200 us: it lost its CPU).\n";

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

	if (lock_kind == LOCK_MUTEX) {
		pthread_mutex_lock(&lock_mutex);
		return;
	}
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
	if (lock_kind == LOCK_MUTEX) {
		pthread_mutex_unlock(&lock_mutex);
		return;
	}
	__atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
}

/*
 * Where glibc registers no rseq area (GLIBC_TUNABLES=glibc.pthread.rseq=0,
 * or a glibc without rseq support), each thread registers its own, as
 * large as this kernel's AT_RSEQ_FEATURE_SIZE asks (at least the original
 * 32 bytes) and aligned as AT_RSEQ_ALIGN says. Linux 7.x serves the slice
 * extension only to such "v2" registrations, larger than 32 bytes, and
 * glibc's 32-byte one is not; 6.12 with sliceext serves both. Running
 * every kernel this way makes their rows compare like with like.
 */
static size_t own_rseq_len;	/* 0: glibc's areas are used */
static size_t own_rseq_align;

static void own_rseq_setup(void)
{
	unsigned long feature = getauxval(AT_RSEQ_FEATURE_SIZE);
	unsigned long align = getauxval(AT_RSEQ_ALIGN);

	if (RSEQ_SLICE_GLIBC_RSEQ_SIZE)
		return;
	own_rseq_len = feature > RSEQ_ORIG_SIZE ? feature : RSEQ_ORIG_SIZE;
	own_rseq_align = align > RSEQ_ORIG_SIZE ? align : RSEQ_ORIG_SIZE;
}

/* A zeroed area for one thread, or NULL after a message. */
static void *own_rseq_alloc(void)
{
	size_t size = (own_rseq_len + own_rseq_align - 1) &
		      ~(own_rseq_align - 1);
	void *p = NULL;
	int err;

	err = posix_memalign(&p, own_rseq_align, size);
	if (err) {
		fprintf(stderr, TOOL ": rseq area: %s\n", strerror(err));
		return NULL;
	}
	memset(p, 0, size);
	return p;
}

/* Register @area for the calling thread; 0 or -errno. */
static int own_rseq_register(void *area)
{
	if (syscall(__NR_rseq, area, (unsigned int)own_rseq_len, 0, RSEQ_SIG))
		return -errno;
	rseq_slice_set_area(area);
	return 0;
}

/* Before the area is freed: the kernel writes to it until then. */
static void own_rseq_unregister(void *area)
{
	rseq_slice_set_area(NULL);
	syscall(__NR_rseq, area, (unsigned int)own_rseq_len,
		RSEQ_FLAG_UNREGISTER, RSEQ_SIG);
}

static void *client_fn(void *arg)
{
	struct client *c = arg;
	struct rseq *rs = NULL;

	c->own_registered = c->own_rseq && !own_rseq_register(c->own_rseq);
	if (c->ext) {
		/* The prctl() is per thread: each client enables itself. */
		rs = rseq_slice_area();
		c->ext_on = rs && rseq_slice_enable() == 0;
	}
	bench_run_ready(&run);

	while (!bench_run_stopped(&run)) {
		uint64_t t0, t1, t2;
		bool yielded = false;

		t0 = bench_now_ns();
		/* Request before the lock, so the holder is covered. */
		if (c->ext_on)
			rseq_slice_enter(rs);
		lock_acquire();
		t1 = bench_now_ns();
		table_work(table, cs_iters, &c->seed);
		lock_release();
		t2 = bench_now_ns();
		/* Yields at once if the kernel granted an extension. */
		if (c->ext_on)
			yielded = rseq_slice_leave(rs);
		if (t2 - t1 > STALL_NS)
			c->stalled++;
		c->yields += yielded;
		bench_samples_add(&c->wait, t1 - t0);
		table_work(c->priv, out_iters, &c->seed);
		c->ops++;
	}
	if (c->ext_on)
		rseq_slice_disable();
	if (c->own_registered)
		own_rseq_unregister(c->own_rseq);
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
	static char why[128];
	void *own = NULL;
	struct rseq *rs;
	int err;

	if (own_rseq_len) {
		own = own_rseq_alloc();
		if (!own)
			return "no memory for an rseq area";
		err = own_rseq_register(own);
		if (err) {
			free(own);
			snprintf(why, sizeof(why), "rseq(2) registration of "
				 "%zu bytes: %s", own_rseq_len, strerror(-err));
			return why;
		}
	}
	rs = rseq_slice_area();
	err = rs ? rseq_slice_enable() : -ENXIO;
	if (!err)
		rseq_slice_disable();	/* the main thread runs no section */
	if (own) {
		own_rseq_unregister(own);
		free(own);
	}
	switch (-err) {
	case 0:
		return NULL;
	case ENOTSUPP:
		/* sliceext's ext/enabled 0 or no module; 7.x's v1 refusal */
		return own_rseq_len ?
		       "disabled, or the sliceext module is not loaded" :
		       "disabled, the sliceext module is not loaded, or (Linux "
		       "7.x) glibc's 32-byte rseq area: run with "
		       "GLIBC_TUNABLES=glibc.pthread.rseq=0";
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

/* What a run measured, once for both outputs. */
struct result {
	long clients, hogs;
	double cs_us, outside_us, ns_per_iter, elapsed;
	bool ext, ext_available;
	const char *ext_reason;		/* why not available, or NULL */
	unsigned long ops, stalled, yields;
	const struct bench_samples *wait;	/* sorted */
	bool stats_ok;
	struct ext_stats d;		/* ext/stats over the run */
};

static void report(const struct result *r, bool json)
{
	const struct bench_samples *w = r->wait;
	const char *area = own_rseq_len ? "own" :
			   RSEQ_SLICE_GLIBC_RSEQ_SIZE ? "glibc" : "none";
	const struct bench_metric m[] = {
		BENCH_M_INT("clients", NULL, r->clients),
		BENCH_M_INT("hogs", NULL, r->hogs),
		BENCH_M_NUM("cs_us", NULL, r->cs_us, 3),
		BENCH_M_NUM("outside_us", NULL, r->outside_us, 3),
		BENCH_M_STR("lock", NULL, lock_names[lock_kind]),
		BENCH_M_BOOL("ext", NULL, r->ext),
		BENCH_M_BOOL("ext_available", NULL, r->ext_available),
		BENCH_M_STR("rseq_area", NULL, area),
		BENCH_M_INT_IF("rseq_len", NULL, own_rseq_len, own_rseq_len),
		BENCH_M_NUM("duration_s", NULL, r->elapsed, 3),
		BENCH_M_NUM("ops_per_s", "critical sections/s",
			    r->ops / r->elapsed, 1),
		BENCH_M_PCT("wait_p50_us", "lock wait p50 (us)", w, 50),
		BENCH_M_PCT("wait_p99_us", "lock wait p99 (us)", w, 99),
		BENCH_M_NUM("wait_max_us", "lock wait max (us)", w->max / 1e3, 3),
		BENCH_M_INT(NULL, "critical sections", r->ops),
		BENCH_M_INT("holder_stalled", "holder stalled (over 200 us)",
			    r->stalled),
		BENCH_M_NUM("holder_stalled_frac", "holder stalled (share)",
			    r->ops ? (double)r->stalled / r->ops : 0, 6),
		BENCH_M_INT("yields", "yields after a grant", r->yields),
		BENCH_M_INT_IF("requested", "ext/stats requested",
			       r->d.requested, r->stats_ok),
		BENCH_M_INT_IF("granted", "ext/stats granted", r->d.granted,
			       r->stats_ok),
		BENCH_M_INT_IF("denied", "ext/stats denied", r->d.denied,
			       r->stats_ok),
		BENCH_M_INT("calib_iters", NULL, cs_iters),
		BENCH_M_CDF("wait_cdf_us", w),
	};

	if (!json) {
		printf("%s: %ld clients on %d CPUs, %ld hogs, %.2f s\n", TOOL,
		       r->clients, bench_online_cpus(), r->hogs, r->elapsed);
		printf("  critical section %.1f us = %llu table updates "
		       "(%.2f ns each), outside %.1f us\n", r->cs_us,
		       (unsigned long long)cs_iters, r->ns_per_iter,
		       r->outside_us);
		printf("  rseq area: %s", area);
		if (own_rseq_len)
			printf(", %zu bytes per thread", own_rseq_len);
		printf("\n");
		if (!r->ext)
			printf("  slice extension: not requested (%s)\n",
			       r->ext_available ? "available" : r->ext_reason);
		else if (r->ext_available)
			printf("  slice extension: requested\n");
		else
			printf("  slice extension unavailable (%s): ran "
			       "without requests\n", r->ext_reason ?
			       r->ext_reason : "a thread's prctl() failed");
	}
	bench_print_metrics(TOOL, m, BENCH_ARRAY_SIZE(m), json);
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
		BENCH_CHOICE("lock", "KIND", &lock_kind, lock_names,
			     "spin (default): a test-and-test-and-set spinlock;\n"
			     "mutex: a default pthread_mutex_t, as an unmodified\n"
			     "program takes it (see tools/preload)"),
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
	unsigned long ops = 0, stalled = 0, yields = 0;
	struct result r;
	uint64_t sum = 0;
	double elapsed;
	int i;

	bench_parse_options(TOOL, about, opts, BENCH_ARRAY_SIZE(opts),
			    argc, argv);

	own_rseq_setup();
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
		if (own_rseq_len && !(cl[i].own_rseq = own_rseq_alloc()))
			return 1;
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
		stalled += cl[i].stalled;
		yields += cl[i].yields;
		if (ext && !cl[i].ext_on)
			ext_available = false;
		bench_samples_merge(&wait, &cl[i].wait);
		bench_samples_free(&cl[i].wait);
		free(cl[i].priv);
		free(cl[i].own_rseq);
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

	bench_sort_u64(wait.v, wait.n);
	r = (struct result){
		.clients = clients, .hogs = hogs, .cs_us = cs_us,
		.outside_us = outside_us, .ns_per_iter = ns_per_iter,
		.elapsed = elapsed, .ext = ext, .ext_available = ext_available,
		.ext_reason = ext_reason, .ops = ops, .stalled = stalled,
		.yields = yields, .wait = &wait, .stats_ok = stats_ok,
		.d = {
			.requested = st1.requested - st0.requested,
			.granted = st1.granted - st0.granted,
			.denied = st1.denied - st0.denied,
		},
	};
	report(&r, json);
	bench_samples_free(&wait);
	free(cl);
	return 0;
}
