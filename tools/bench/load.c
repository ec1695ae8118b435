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

static void usage(void)
{
	printf(
"Usage: " TOOL " [OPTION]...\n"
"Run background load until SIGTERM or SIGINT, or for --duration seconds,\n"
"then kill and reap every process it started. The processes inherit\n"
"this one's nice value and scheduling policy: run it as\n"
"'nice -n 19 " TOOL " ...' or 'chrt -i 0 " TOOL " ...' for background load.\n"
"Give --hogs, --forkers or both.\n"
"\n"
"  --hogs M         M processes burning CPU in a loop (default 0)\n"
"  --forkers K      K processes that each fork, one after another, a\n"
"                   child doing 2-20 ms of CPU work, like make running\n"
"                   compilers (default 0)\n"
"  --duration SEC   stop after SEC seconds (default: run until signalled)\n"
"  --verbose        print the pid and the number of children on start\n"
"                   (on stderr)\n"
"  --json           print one JSON object instead of the summary\n"
"  --help           show this help\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hogs",	required_argument,	NULL, 'H' },
		{ "forkers",	required_argument,	NULL, 'F' },
		{ "duration",	required_argument,	NULL, 'd' },
		{ "verbose",	no_argument,		NULL, 'v' },
		{ "json",	no_argument,		NULL, 'j' },
		{ "help",	no_argument,		NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	long hogs = 0, forkers = 0;
	double duration = 0, elapsed;
	bool json = false, verbose = false;
	const char *stopped_by = "duration";
	struct bench_load load;
	sigset_t sigs;
	uint64_t t_start;
	int c, sig;

	while ((c = bench_getopt(TOOL, argc, argv, opts)) != -1) {
		switch (c) {
		case 'H':
			hogs = bench_parse_long(TOOL, "hogs", optarg, 0, 4096);
			break;
		case 'F':
			forkers = bench_parse_long(TOOL, "forkers", optarg, 0, 4096);
			break;
		case 'd':
			duration = bench_parse_double(TOOL, "duration", optarg,
						      0, true, 1e7);
			break;
		case 'v':
			verbose = true;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage();
			return 0;
		}
	}
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
	if (bench_load_start(&load, hogs, forkers)) {
		perror(TOOL ": starting the load");
		return 1;
	}
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

	if (json) {
		struct bench_json j;

		bench_json_begin(&j, stdout);
		bench_json_str(&j, "tool", TOOL);
		bench_json_int(&j, "hogs", hogs);
		bench_json_int(&j, "forkers", forkers);
		bench_json_int(&j, "forks", bench_load_forks(&load));
		bench_json_str(&j, "stopped_by", stopped_by);
		bench_json_num(&j, "duration_s", elapsed, 3);
		bench_json_end(&j);
	} else {
		printf("%s: %ld hogs, %ld forkers, %lu children forked, "
		       "ran %.2f s, stopped by %s\n", TOOL, hogs, forkers,
		       bench_load_forks(&load), elapsed, stopped_by);
	}
	return 0;
}
