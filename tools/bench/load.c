// SPDX-License-Identifier: GPL-2.0
/*
 * load - background load for the other benchmarks: CPU hogs and
 * build-like forking processes, until a signal or --duration.
 *
 * A separate program, so that its nice value and policy are the
 * caller's choice ("nice -n 19 load ..." or "chrt -i 0 load ..."), and so
 * that the measured program's threads are not its children. The same
 * code is behind the other tools' --hogs and --forkers (bench.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#define TOOL	"load"

/* --help: what the tool does, before the options. */
static const char about[] =
"Run background load until SIGTERM or SIGINT, or for --duration seconds,\n"
"then kill and reap every process it started. The processes inherit\n"
"this one's nice value and scheduling policy: run it as\n"
"'nice -n 19 " TOOL " ...' or 'chrt -i 0 " TOOL " ...' for background load.\n"
"Give --hogs, --forkers or both.\n";

/* The results, once for both outputs. */
static void report(long hogs, long forkers, unsigned long forks,
		   const char *stopped_by, double elapsed, bool json)
{
	const struct bench_metric m[] = {
		BENCH_M_INT("hogs", NULL, hogs),
		BENCH_M_INT("forkers", NULL, forkers),
		BENCH_M_INT("forks", NULL, forks),
		BENCH_M_STR("stopped_by", NULL, stopped_by),
		BENCH_M_NUM("duration_s", NULL, elapsed, 3),
	};

	/* One line, not a table: it ends a background job's life. */
	if (!json)
		printf("%s: %ld hogs, %ld forkers, %lu children forked, ran "
		       "%.2f s, stopped by %s\n", TOOL, hogs, forkers, forks,
		       elapsed, stopped_by);
	bench_print_metrics(TOOL, m, BENCH_ARRAY_SIZE(m), json);
}

int main(int argc, char **argv)
{
	long hogs = 0, forkers = 0;
	double duration = 0, elapsed;
	bool json = false, verbose = false;
	const struct bench_opt opts[] = {
		BENCH_LONG("hogs", "M", &hogs, 0, 4096,
			   "M processes burning CPU in a loop (default 0)"),
		BENCH_LONG("forkers", "K", &forkers, 0, 4096,
			   "K processes that each fork, one after another, a\n"
			   "child doing 2-20 ms of CPU work, like make running\n"
			   "compilers (default 0)"),
		/* Not BENCH_OPT_DURATION: no default, and a larger bound. */
		BENCH_POSITIVE("duration", "SEC", &duration, 1e7,
			       "stop after SEC seconds (default: run until signalled)"),
		BENCH_FLAG("verbose", &verbose,
			   "print the pid and the number of children on start\n"
			   "(on stderr)"),
		BENCH_FLAG("json", &json,
			   "print one JSON object instead of the summary"),
	};
	const char *stopped_by = "duration";
	struct bench_load load;
	sigset_t sigs;
	uint64_t t_start;
	int sig;

	bench_parse_options(TOOL, about, opts, BENCH_ARRAY_SIZE(opts),
			    argc, argv);
	if (!hogs && !forkers)
		bench_usage_error(TOOL, "nothing to run: give --hogs and/or "
				  "--forkers");

	/*
	 * Block the stop signals before forking, and wait for them with
	 * sigtimedwait(): no handler, no race between the last check and
	 * the wait. The children unblock them again.
	 */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigprocmask(SIG_BLOCK, &sigs, NULL);

	fflush(NULL);
	if (bench_load_start(TOOL, &load, hogs, forkers))
		return 1;
	t_start = bench_now_ns();
	if (verbose)
		fprintf(stderr, TOOL ": pid %d, %ld hogs, %ld forkers, "
			"%ld child processes\n", (int)getpid(), hogs, forkers,
			hogs + forkers);

	for (;;) {
		struct timespec ts;
		uint64_t left, now;

		if (!duration) {
			sig = sigwaitinfo(&sigs, NULL);
		} else {
			now = bench_now_ns() - t_start;
			left = (uint64_t)(duration * 1e9);
			if (now >= left)
				break;
			left -= now;
			ts.tv_sec = left / BENCH_NSEC_PER_SEC;
			ts.tv_nsec = left % BENCH_NSEC_PER_SEC;
			sig = sigtimedwait(&sigs, NULL, &ts);
		}
		if (sig == SIGTERM || sig == SIGINT) {
			stopped_by = sig == SIGTERM ? "SIGTERM" : "SIGINT";
			break;
		}
		/* EAGAIN: time is up, checked above; EINTR: wait again. */
	}
	bench_load_stop(&load);
	elapsed = (double)(bench_now_ns() - t_start) / 1e9;

	report(hogs, forkers, bench_load_forks(&load), stopped_by, elapsed,
	       json);
	return 0;
}
