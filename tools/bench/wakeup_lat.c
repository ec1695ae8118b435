// SPDX-License-Identifier: GPL-2.0
/*
 * wakeup_lat - wakeup latency of short CPU bursts, schbench style
 *
 * Message threads wake their workers once per interval; each worker
 * measures how long it took from the wake to actually running, does a
 * burst of CPU work and reports back. Under CPU load this is the latency
 * a request handler sees, and what burst-aware scheduling aims to cut:
 * the workers sleep most of the time and run short bursts, the load does
 * the opposite. The message threads' own timer wakeups are measured too:
 * a periodic task woken by a timer, not by another thread, is the other
 * kind of interactive wakeup, and a rule that favours one kind of wakeup
 * may cost the other.
 *
 * --wake pipe wakes each worker by a write to a pipe it blocks reading
 * instead of through a futex: the kernel wakes a pipe's reader with a
 * sync wakeup (WF_SYNC, the waker said to be about to sleep), which the
 * scheduler weighs in choosing the reader's CPU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"

#define TOOL	"wakeup_lat"

/* --wake: how a message thread wakes its workers. */
enum wake { WAKE_FUTEX, WAKE_PIPE };
static const char *const wake_names[] = { "futex", "pipe", NULL };

/*
 * The workers' metrics, named for their wake: the futex's keep the names
 * they had before --wake (samples, lat_*), the pipe's take its name as a
 * prefix, as the timer's do (pipe_samples, pipe_*; "pipe latency ...").
 */
struct wake_metrics {
	const char *samples, *p50, *p90, *p99, *p999, *max, *over, *crossed,
		   *cdf;
	const char *l_samples, *l_p50, *l_p90, *l_p99, *l_p999, *l_max,
		   *l_over, *l_crossed;
};

#define WAKE_METRICS(_samples, _key, _l_samples, _label)		\
	{ .samples = (_samples), .p50 = _key "_p50_us",			\
	  .p90 = _key "_p90_us", .p99 = _key "_p99_us",			\
	  .p999 = _key "_p999_us", .max = _key "_max_us",		\
	  .over = _key "_over_500us_pct", .crossed = _key "_crossed_pct",	\
	  .cdf = _key "_cdf_us", .l_samples = (_l_samples),		\
	  .l_p50 = _label "latency p50 (us)",				\
	  .l_p90 = _label "latency p90 (us)",				\
	  .l_p99 = _label "latency p99 (us)",				\
	  .l_p999 = _label "latency p99.9 (us)",			\
	  .l_max = _label "latency max (us)",				\
	  .l_over = _label "latency over 500 us (%)",			\
	  .l_crossed = _label "woken on another CPU than the waker's (%)" }

static const struct wake_metrics wake_metrics[] = {
	[WAKE_FUTEX] = WAKE_METRICS("samples", "lat", "wakeups", ""),
	[WAKE_PIPE] = WAKE_METRICS("pipe_samples", "pipe", "pipe wakeups",
				   "pipe "),
};

struct msg;

struct worker {
	pthread_t thread;
	struct msg *msg;
	uint32_t seq;		/* futex: the last round posted */
	int exit;		/* set before the final seq bump */
	int pipe[2];		/* --wake pipe: read end, write end */
	uint64_t wake_ns;	/* when the message thread woke us */
	int wake_cpu;		/* and from which CPU */
	unsigned long crossed;	/* wakeups first run on another CPU */
	struct bench_samples lat;
	struct bench_schedstat st0, st1;
	bool st_ok;
} __attribute__((aligned(64)));

struct msg {
	pthread_t thread;
	struct worker *workers;
	int nworkers;
	uint32_t pending;	/* futex: workers still busy this round */
	unsigned long rounds;
	struct bench_samples timer;	/* timer expiry to running */
} __attribute__((aligned(64)));

static struct bench_run run;
static uint64_t work_ns, interval_ns;
static int wake = WAKE_FUTEX;

/* --help: what the tool does, before the options. */
static const char about[] =
"Message threads wake their workers every --interval-us; each worker\n"
"records its wakeup latency (wake to running), works --work-us and\n"
"reports back. Reports latency percentiles and the workers' run delay\n"
"per switch (from /proc/self/task/<tid>/schedstat), and the latency of\n"
"the message threads' own timer wakeups. A worker is woken through a\n"
"futex, or with --wake pipe by a one-byte write(2) to a pipe of its own\n"
"that it blocks in read(2) on (its latency is then reported as pipe_*);\n"
"either way it reports back through a futex.\n";

static void futex_wait(uint32_t *uaddr, uint32_t val)
{
	/* EAGAIN (value changed) and EINTR both mean: look again. */
	syscall(SYS_futex, uaddr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(uint32_t *uaddr)
{
	syscall(SYS_futex, uaddr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* A pipe that fails under us leaves no measurement to make. */
static void __attribute__((noreturn)) pipe_failed(const char *call, ssize_t n)
{
	fprintf(stderr, TOOL ": %s on a worker's pipe: %s\n", call,
		n < 0 ? strerror(errno) : "end of file");
	exit(1);
}

/* Block until the message thread posts a round after @seen. */
static void wait_wake(struct worker *w, uint32_t seen)
{
	ssize_t n;
	char c;

	if (wake == WAKE_PIPE) {
		while ((n = read(w->pipe[0], &c, 1)) != 1)
			if (n >= 0 || errno != EINTR)
				pipe_failed("read", n);
		return;
	}
	while (__atomic_load_n(&w->seq, __ATOMIC_ACQUIRE) == seen)
		futex_wait(&w->seq, seen);
}

/* Wake @w for the round just posted in its seq. */
static void wake_worker(struct worker *w)
{
	static const char byte;
	ssize_t n;

	if (wake == WAKE_PIPE) {
		while ((n = write(w->pipe[1], &byte, 1)) != 1)
			if (n >= 0 || errno != EINTR)
				pipe_failed("write", n);
		return;
	}
	futex_wake(&w->seq);
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	struct msg *m = w->msg;
	uint32_t seen = 0;

	/* From the start of our own life: run delay is per thread. */
	w->st_ok = !bench_read_schedstat(bench_gettid(), &w->st0);
	bench_run_ready(&run);

	for (;;) {
		uint64_t now;

		wait_wake(w, seen);
		now = bench_now_ns();
		/* Acquire: wake_ns and exit were written before the seq. */
		seen = __atomic_load_n(&w->seq, __ATOMIC_ACQUIRE);
		if (__atomic_load_n(&w->exit, __ATOMIC_RELAXED))
			break;
		bench_samples_add(&w->lat, now - w->wake_ns);
		/*
		 * A wakeup sent to another CPU is a different path (an
		 * IPI, a remote preemption) from one beside the waker: a
		 * run's latency depends on which it got (docs/tools.md).
		 */
		if (sched_getcpu() != w->wake_cpu)
			w->crossed++;
		bench_spin_ns(work_ns);
		if (__atomic_sub_fetch(&m->pending, 1, __ATOMIC_RELEASE) == 0)
			futex_wake(&m->pending);
	}
	/* Before exiting: the /proc entry goes away with the thread. */
	if (w->st_ok)
		w->st_ok = !bench_read_schedstat(bench_gettid(), &w->st1);
	return NULL;
}

static void *msg_fn(void *arg)
{
	struct msg *m = arg;
	uint32_t round = 0, p;
	int i;

	/*
	 * With the default 50 us of timer slack the expiry could fall
	 * anywhere in that window: 1 ns leaves the scheduler's part.
	 */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	bench_run_ready(&run);
	while (!bench_run_stopped(&run)) {
		uint64_t due = bench_now_ns() + interval_ns;

		bench_sleep_until_ns(due);
		if (bench_run_stopped(&run))
			break;
		bench_samples_add(&m->timer, bench_now_ns() - due);
		round++;
		__atomic_store_n(&m->pending, m->nworkers, __ATOMIC_RELAXED);
		for (i = 0; i < m->nworkers; i++) {
			struct worker *w = &m->workers[i];

			/*
			 * A timestamp per worker, taken just before its
			 * wake: the time spent waking the workers before it
			 * is not that worker's latency.
			 */
			w->wake_cpu = sched_getcpu();
			w->wake_ns = bench_now_ns();
			__atomic_store_n(&w->seq, round, __ATOMIC_RELEASE);
			wake_worker(w);
		}
		/* The next round starts only when all are done. */
		while ((p = __atomic_load_n(&m->pending, __ATOMIC_ACQUIRE)))
			futex_wait(&m->pending, p);
		m->rounds++;
	}
	for (i = 0; i < m->nworkers; i++) {
		struct worker *w = &m->workers[i];

		__atomic_store_n(&w->exit, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&w->seq, round + 1, __ATOMIC_RELEASE);
		wake_worker(w);
	}
	return NULL;
}

struct result {
	long nmsg, nwork, hogs, forkers;
	double work_us, interval_us;
	const struct bench_samples *lat;	/* sorted */
	const struct bench_samples *timer;	/* sorted */
	unsigned long crossed;			/* over all workers */
	double per_switch;			/* us, NaN: no schedstat */
	double elapsed;
};

/* The results, once for both outputs. */
static void report(const struct result *r, bool json)
{
	const struct bench_samples *lat = r->lat, *timer = r->timer;
	const struct wake_metrics *wm = &wake_metrics[wake];
	const struct bench_metric m[] = {
		BENCH_M_INT("message_threads", NULL, r->nmsg),
		BENCH_M_INT("workers", NULL, r->nwork),
		BENCH_M_STR("wake", NULL, wake_names[wake]),
		BENCH_M_NUM("work_us", NULL, r->work_us, 3),
		BENCH_M_NUM("interval_us", NULL, r->interval_us, 3),
		BENCH_M_INT("hogs", NULL, r->hogs),
		BENCH_M_INT("forkers", NULL, r->forkers),
		BENCH_M_INT(wm->samples, wm->l_samples, lat->count),
		BENCH_M_PCT(wm->p50, wm->l_p50, lat, 50),
		BENCH_M_PCT(wm->p90, wm->l_p90, lat, 90),
		BENCH_M_PCT(wm->p99, wm->l_p99, lat, 99),
		BENCH_M_PCT(wm->p999, wm->l_p999, lat, 99.9),
		BENCH_M_NUM(wm->max, wm->l_max, lat->max / 1e3, 3),
		BENCH_M_NUM(wm->over, wm->l_over,
			    bench_samples_over_pct(lat, 500 * 1000), 3),
		BENCH_M_NUM(wm->crossed, wm->l_crossed,
			    lat->count ? 100.0 * r->crossed / lat->count : 0, 3),
		BENCH_M_NUM("run_delay_per_switch_us",
			    "run delay per switch (us)", r->per_switch, 3),
		BENCH_M_CDF(wm->cdf, lat),
		BENCH_M_INT("timer_samples", "timer wakeups", timer->count),
		BENCH_M_PCT("timer_p50_us", "timer latency p50 (us)",
			    timer, 50),
		BENCH_M_PCT("timer_p90_us", "timer latency p90 (us)",
			    timer, 90),
		BENCH_M_PCT("timer_p99_us", "timer latency p99 (us)",
			    timer, 99),
		BENCH_M_NUM("timer_max_us", "timer latency max (us)",
			    timer->max / 1e3, 3),
		BENCH_M_NUM("duration_s", NULL, r->elapsed, 3),
	};

	if (!json)
		printf("%s: %ld message threads x %ld workers woken by %s, "
		       "work %.0f us, interval %.0f us, %ld hogs, %ld forkers, "
		       "%.2f s\n", TOOL, r->nmsg, r->nwork, wake_names[wake],
		       r->work_us, r->interval_us, r->hogs, r->forkers,
		       r->elapsed);
	bench_print_metrics(TOOL, m, BENCH_ARRAY_SIZE(m), json);
}

int main(int argc, char **argv)
{
	long nmsg = 2, nwork = 4, hogs = 0, forkers = 0;
	double work_us = 300, interval_us = 2000, duration = 5;
	bool json = false, st_ok = true;
	const struct bench_opt opts[] = {
		BENCH_LONG("message-threads", "M", &nmsg, 1, 1024,
			   "message threads (default 2)"),
		BENCH_LONG("workers", "W", &nwork, 1, 1024,
			   "workers per message thread (default 4)"),
		BENCH_DOUBLE("work-us", "U", &work_us, 0, 1e7,
			     "busy work per wakeup in microseconds of wall time\n"
			     "(default 300)"),
		BENCH_DOUBLE("interval-us", "I", &interval_us, 0, 1e7,
			     "sleep between rounds in microseconds (default 2000)"),
		BENCH_CHOICE("wake", "KIND", &wake, wake_names,
			     "how a message thread wakes each worker: futex\n"
			     "(default), FUTEX_WAKE on a word the worker waits\n"
			     "on; pipe, a one-byte write(2) to a pipe of the\n"
			     "worker's own that it blocks in read(2) on. The\n"
			     "round's end comes back through a futex either way"),
		BENCH_LONG("hogs", "H", &hogs, 0, 4096,
			   "also run H CPU-hog processes (default 0)"),
		BENCH_LONG("forkers", "K", &forkers, 0, 4096,
			   "also run K build-like forking processes (default 0)"),
		BENCH_OPT_DURATION(&duration),
		BENCH_OPT_JSON(&json),
	};
	struct bench_samples lat = { 0 }, timer = { 0 };
	struct bench_load load;
	struct result r;
	struct worker *workers;
	struct msg *msgs;
	uint64_t delay = 0, slices = 0;
	unsigned long crossed = 0;
	double elapsed, per_switch = NAN;
	int i, k;

	bench_parse_options(TOOL, about, opts, BENCH_ARRAY_SIZE(opts),
			    argc, argv);
	work_ns = (uint64_t)(work_us * 1e3);
	interval_ns = (uint64_t)(interval_us * 1e3);

	msgs = bench_calloc(TOOL, nmsg, sizeof(*msgs));
	workers = bench_calloc(TOOL, nmsg * nwork, sizeof(*workers));
	for (i = 0; i < nmsg; i++) {
		msgs[i].workers = &workers[i * nwork];
		msgs[i].nworkers = nwork;
		for (k = 0; k < nwork; k++)
			workers[i * nwork + k].msg = &msgs[i];
	}

	/* Fork the load before any thread exists. */
	if (bench_load_start(TOOL, &load, hogs, forkers))
		return 1;
	/* The pipes after it: the load's processes need not hold them. */
	for (i = 0; wake == WAKE_PIPE && i < nmsg * nwork; i++) {
		if (pipe2(workers[i].pipe, O_CLOEXEC)) {
			fprintf(stderr, TOOL ": pipe: %s\n", strerror(errno));
			goto fail;
		}
	}
	bench_run_init(&run, nmsg * nwork + nmsg);
	for (i = 0; i < nmsg * nwork; i++) {
		if (bench_run_thread(TOOL, &workers[i].thread, worker_fn,
				     &workers[i]))
			goto fail;
	}
	for (i = 0; i < nmsg; i++)
		if (bench_run_thread(TOOL, &msgs[i].thread, msg_fn, &msgs[i]))
			goto fail;
	elapsed = bench_run_measure(&run, duration);
	for (i = 0; i < nmsg; i++) {
		pthread_join(msgs[i].thread, NULL);
		bench_samples_merge(&timer, &msgs[i].timer);
		bench_samples_free(&msgs[i].timer);
	}
	for (i = 0; i < nmsg * nwork; i++) {
		struct worker *w = &workers[i];

		pthread_join(w->thread, NULL);
		if (wake == WAKE_PIPE) {
			close(w->pipe[0]);
			close(w->pipe[1]);
		}
		bench_samples_merge(&lat, &w->lat);
		bench_samples_free(&w->lat);
		crossed += w->crossed;
		if (!w->st_ok) {
			st_ok = false;
			continue;
		}
		delay += w->st1.run_delay_ns - w->st0.run_delay_ns;
		slices += w->st1.timeslices - w->st0.timeslices;
	}
	bench_load_stop(&load);

	if (st_ok && slices)
		per_switch = (double)delay / (double)slices / 1e3;
	bench_sort_u64(lat.v, lat.n);
	bench_sort_u64(timer.v, timer.n);
	r = (struct result){
		.nmsg = nmsg, .nwork = nwork, .work_us = work_us,
		.interval_us = interval_us, .hogs = hogs, .forkers = forkers,
		.lat = &lat, .timer = &timer, .crossed = crossed,
		.per_switch = per_switch,
		.elapsed = elapsed,
	};
	report(&r, json);
	bench_samples_free(&lat);
	bench_samples_free(&timer);
	free(workers);
	free(msgs);
	return 0;

fail:
	bench_load_stop(&load);
	return 1;
}
