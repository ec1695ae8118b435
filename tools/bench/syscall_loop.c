// SPDX-License-Identifier: GPL-2.0
/*
 * syscall_loop - the cost of a system call, in a tight loop
 *
 * sliceext hooks the system call entry (to end a live grant when its
 * holder makes any other system call) behind a static key that is on only
 * while the module is loaded. This measures what that costs every
 * program: compare calls/s with the module loaded, unloaded and on the
 * stock kernel. rseq_yield measures the extension's own syscall, 471,
 * which stock kernels before 7.0 do not have (ENOSYS).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/rseq.h>		/* sliceext's uapi/: __NR_rseq_slice_yield */

#include "bench.h"

#define TOOL	"syscall_loop"
#define BATCH	256		/* calls between looks at the stop flag */

static const struct {
	const char *name;
	long nr;
} calls[] = {
	{ "getppid",	SYS_getppid },		/* the cheapest real call */
	{ "yield",	SYS_sched_yield },	/* enters the scheduler */
	{ "rseq_yield",	__NR_rseq_slice_yield },
};

static long call_nr;
static int stop_flag;
static pthread_barrier_t start_barrier;

struct thread {
	pthread_t thread;
	unsigned long calls;
} __attribute__((aligned(64)));

static void usage(void)
{
	printf(
"Usage: " TOOL " [OPTION]...\n"
"Each thread makes one system call over and over. Reports calls per\n"
"second over all threads and the time per call in one thread.\n"
"\n"
"  --syscall NAME   getppid (default), yield (sched_yield) or rseq_yield\n"
"                   (rseq_slice_yield, syscall %d: 0 outside a grant;\n"
"                   ENOSYS on kernels without it, reported)\n"
"  --threads T      calling threads (default 1)\n"
"  --duration SEC   measured run time in seconds (default 5)\n"
"  --json           print one JSON object instead of the table\n"
"  --help           show this help\n", __NR_rseq_slice_yield);
}

static void *thread_fn(void *arg)
{
	struct thread *t = arg;
	int i;

	pthread_barrier_wait(&start_barrier);
	while (!__atomic_load_n(&stop_flag, __ATOMIC_RELAXED)) {
		/* syscall() itself: no libc caching or wrapper logic. */
		for (i = 0; i < BATCH; i++)
			syscall(call_nr);
		t->calls += BATCH;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "syscall",	required_argument,	NULL, 's' },
		{ "threads",	required_argument,	NULL, 't' },
		{ "duration",	required_argument,	NULL, 'd' },
		{ "json",	no_argument,		NULL, 'j' },
		{ "help",	no_argument,		NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *name = calls[0].name;
	long nthreads = 1;
	double duration = 5, elapsed, cps, ns_per_call;
	bool json = false, enosys;
	unsigned long total = 0;
	struct thread *th;
	uint64_t t_start, t_end;
	unsigned int k;
	int c, i;

	call_nr = calls[0].nr;
	while ((c = bench_getopt(TOOL, argc, argv, opts)) != -1) {
		switch (c) {
		case 's':
			for (k = 0; k < sizeof(calls) / sizeof(calls[0]); k++)
				if (!strcmp(optarg, calls[k].name))
					break;
			if (k == sizeof(calls) / sizeof(calls[0]))
				bench_usage_error(TOOL, "--syscall: '%s' is not "
						  "getppid, yield or rseq_yield",
						  optarg);
			name = calls[k].name;
			call_nr = calls[k].nr;
			break;
		case 't':
			nthreads = bench_parse_long(TOOL, "threads", optarg, 1, 4096);
			break;
		case 'd':
			duration = bench_parse_double(TOOL, "duration", optarg,
						      0, true, 1e6);
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage();
			return 0;
		}
	}

	/* Not a failure: the loop then measures the ENOSYS path. */
	enosys = syscall(call_nr) < 0 && errno == ENOSYS;
	if (enosys)
		fprintf(stderr, TOOL ": %s (syscall %ld): ENOSYS, this kernel "
			"lacks it; measuring the ENOSYS path\n", name, call_nr);

	th = calloc(nthreads, sizeof(*th));
	if (!th) {
		perror(TOOL ": calloc");
		return 1;
	}
	pthread_barrier_init(&start_barrier, NULL, nthreads + 1);
	for (i = 0; i < nthreads; i++) {
		errno = pthread_create(&th[i].thread, NULL, thread_fn, &th[i]);
		if (errno) {
			perror(TOOL ": pthread_create");
			return 1;
		}
	}
	pthread_barrier_wait(&start_barrier);
	t_start = bench_now_ns();
	bench_sleep_ns((uint64_t)(duration * 1e9));
	__atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
	t_end = bench_now_ns();
	for (i = 0; i < nthreads; i++) {
		pthread_join(th[i].thread, NULL);
		total += th[i].calls;
	}
	free(th);

	elapsed = (double)(t_end - t_start) / 1e9;
	cps = total / elapsed;
	/* Per thread: what one call costs its caller. */
	ns_per_call = total ? elapsed * 1e9 * nthreads / total : 0;
	if (json) {
		struct bench_json j;

		bench_json_begin(&j, stdout);
		bench_json_str(&j, "tool", TOOL);
		bench_json_str(&j, "syscall", name);
		bench_json_int(&j, "threads", nthreads);
		bench_json_num(&j, "calls_per_s", cps, 1);
		bench_json_num(&j, "ns_per_call", ns_per_call, 2);
		bench_json_bool(&j, "enosys", enosys);
		bench_json_num(&j, "duration_s", elapsed, 3);
		bench_json_end(&j);
	} else {
		printf("%s: %s (syscall %ld)%s, %ld threads, %.2f s\n", TOOL,
		       name, call_nr, enosys ? " returns ENOSYS here" : "",
		       nthreads, elapsed);
		printf("%-28s %14lu\n", "calls", total);
		printf("%-28s %14.1f\n", "calls/s", cps);
		printf("%-28s %14.2f\n", "ns/call (per thread)", ns_per_call);
	}
	return 0;
}
