// SPDX-License-Identifier: GPL-2.0
/*
 * fork_loop - the cost of fork() at the bottom of a deep process chain
 *
 * Burst-aware scheduling gives a new child a penalty inherited from its
 * relatives, and to find them it may walk up the process tree: a shell
 * running a shell running a build is a chain of single-child processes.
 * The walk is bounded, so a fork at the bottom of a chain of any depth
 * should cost what it costs with the module unloaded. This measures it:
 * DEPTH processes, each the only child of the one before, and at the
 * bottom a loop of forks whose children exit at once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define TOOL	"fork_loop"

/* --help: what the tool does, before the options. */
static const char about[] =
"Builds a chain of --depth processes, each the only child of the one\n"
"before, and at its bottom forks children that exit at once, one at a\n"
"time, for --duration seconds or --forks times. Reports forks per second.\n";

static void fork_failed(void)
{
	fprintf(stderr, TOOL ": fork: %s\n", strerror(errno));
	exit(1);
}

/* Fork and reap one child that exits at once. */
static void fork_one(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		fork_failed();
	if (!pid)
		_exit(0);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		fprintf(stderr, TOOL ": child %d did not exit\n", (int)pid);
		exit(1);
	}
}

/*
 * Make this process the bottom of a chain of @depth single-child
 * processes. Every process above it waits for its child and exits with
 * its status, so the first one exits as the bottom does.
 */
static void descend(long depth)
{
	int status;
	pid_t pid, self;

	for (; depth > 0; depth--) {
		self = getpid();
		pid = fork();
		if (pid < 0)
			fork_failed();
		if (!pid) {
			/* Killed from the top, the chain dies level by level. */
			bench_die_with_parent(self, SIGKILL);
			continue;
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
			_exit(1);
		_exit(WEXITSTATUS(status));
	}
}

/* The results, once for both outputs. */
static void report(long depth, long forks, double elapsed, bool json)
{
	const struct bench_metric m[] = {
		BENCH_M_INT("depth", NULL, depth),
		BENCH_M_INT("forks", "forks", forks),
		BENCH_M_NUM("forks_per_s", "forks/s", forks / elapsed, 1),
		BENCH_M_NUM("us_per_fork", "µs/fork (fork, exit, wait)",
			    elapsed * 1e6 / forks, 2),
		BENCH_M_NUM("duration_s", NULL, elapsed, 3),
	};

	if (!json)
		printf("%s: depth %ld, %.2f s\n", TOOL, depth, elapsed);
	bench_print_metrics(TOOL, m, BENCH_ARRAY_SIZE(m), json);
}

int main(int argc, char **argv)
{
	long depth = 0, forks = 0, n = 0;
	double duration = 5;
	bool json = false;
	const struct bench_opt opts[] = {
		BENCH_LONG("depth", "N", &depth, 0, 100000,
			   "processes above the forking one, each the only\n"
			   "child of the one before (default 0)"),
		BENCH_LONG("forks", "N", &forks, 0, 1e9,
			   "stop after N forks instead of --duration\n"
			   "(default 0: run --duration seconds)"),
		BENCH_OPT_DURATION(&duration),
		BENCH_OPT_JSON(&json),
	};
	uint64_t t0, end, now;

	bench_parse_options(TOOL, about, opts, BENCH_ARRAY_SIZE(opts),
			    argc, argv);
	/* Nothing buffered may be written once per level of the chain. */
	fflush(NULL);
	descend(depth);

	t0 = bench_now_ns();
	end = t0 + (uint64_t)(duration * BENCH_NSEC_PER_SEC);
	do {
		fork_one();
		n++;
		now = bench_now_ns();
	} while (forks ? n < forks : now < end);
	report(depth, n, (now - t0) / 1e9, json);
	return 0;
}
