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
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/rseq.h>		/* sliceext's uapi/: __NR_rseq_slice_yield */

#include "bench.h"

#define TOOL	"syscall_loop"
#define BATCH	256		/* calls between looks at the stop flag */

/* The --syscall choices, and in the same order the calls they make. */
static const char *const call_names[] = {
	"getppid", "yield", "rseq_yield", NULL
};

static const long call_nrs[] = {
	SYS_getppid,		/* the cheapest real call */
	SYS_sched_yield,	/* enters the scheduler */
	__NR_rseq_slice_yield,
};

static_assert(BENCH_ARRAY_SIZE(call_nrs) + 1 == BENCH_ARRAY_SIZE(call_names),
	      "a --syscall name without a number or the reverse");

static long call_nr;
static struct bench_run run;

struct thread {
	unsigned long calls;
} __attribute__((aligned(64)));

/* --help: what the tool does, before the options. */
static const char about[] =
"Each thread makes one system call over and over. Reports calls per\n"
"second over all threads and the time per call in one thread.\n";

static void *thread_fn(void *arg)
{
	struct thread *t = arg;
	int i;

	bench_run_ready(&run);
	while (!bench_run_stopped(&run)) {
		/* syscall() itself: no libc caching or wrapper logic. */
		for (i = 0; i < BATCH; i++)
			syscall(call_nr);
		t->calls += BATCH;
	}
	return NULL;
}

/* The results, once for both outputs. */
static void report(int call, long nthreads, unsigned long total, bool enosys,
		   double elapsed, bool json)
{
	double cps = total / elapsed;
	/* Per thread: what one call costs its caller. */
	double ns_per_call = total ? elapsed * 1e9 * nthreads / total : 0;
	const struct bench_metric m[] = {
		BENCH_M_STR("syscall", NULL, call_names[call]),
		BENCH_M_INT("threads", NULL, nthreads),
		BENCH_M_INT(NULL, "calls", total),
		BENCH_M_NUM("calls_per_s", "calls/s", cps, 1),
		BENCH_M_NUM("ns_per_call", "ns/call (per thread)", ns_per_call, 2),
		BENCH_M_BOOL("enosys", NULL, enosys),
		BENCH_M_NUM("duration_s", NULL, elapsed, 3),
	};

	if (!json)
		printf("%s: %s (syscall %ld)%s, %ld threads, %.2f s\n", TOOL,
		       call_names[call], call_nrs[call],
		       enosys ? " returns ENOSYS here" : "", nthreads, elapsed);
	bench_print_metrics(TOOL, m, BENCH_ARRAY_SIZE(m), json);
}

int main(int argc, char **argv)
{
	char syscall_help[256];
	long nthreads = 1;
	double duration = 5, elapsed;
	bool json = false, enosys;
	int call = 0;
	const struct bench_opt opts[] = {
		BENCH_CHOICE("syscall", "NAME", &call, call_names,
			     syscall_help),
		BENCH_LONG("threads", "T", &nthreads, 1, 4096,
			   "calling threads (default 1)"),
		BENCH_OPT_DURATION(&duration),
		BENCH_OPT_JSON(&json),
	};
	unsigned long total = 0;
	struct thread *th;
	int i;

	/* Formatted, not pasted: the header's macro need not be a literal. */
	snprintf(syscall_help, sizeof(syscall_help),
		 "getppid (default), yield (sched_yield) or rseq_yield\n"
		 "(rseq_slice_yield, syscall %d: 0 outside a grant;\n"
		 "ENOSYS on kernels without it, reported)",
		 __NR_rseq_slice_yield);
	bench_parse_options(TOOL, about, opts, BENCH_ARRAY_SIZE(opts),
			    argc, argv);
	call_nr = call_nrs[call];

	/* Not a failure: the loop then measures the ENOSYS path. */
	enosys = syscall(call_nr) < 0 && errno == ENOSYS;
	if (enosys)
		fprintf(stderr, TOOL ": %s (syscall %ld): ENOSYS, this kernel "
			"lacks it; measuring the ENOSYS path\n",
			call_names[call], call_nr);

	th = bench_calloc(TOOL, nthreads, sizeof(*th));
	elapsed = bench_run_threads(TOOL, &run, nthreads, thread_fn, th,
				    sizeof(*th), duration);
	if (elapsed < 0)
		return 1;
	for (i = 0; i < nthreads; i++)
		total += th[i].calls;
	free(th);

	report(call, nthreads, total, enosys, elapsed, json);
	return 0;
}
