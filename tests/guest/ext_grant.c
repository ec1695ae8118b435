// SPDX-License-Identifier: GPL-2.0
/*
 * Slice extension grants under wakeup preemption: a thread spends most of
 * its time in request windows on CPU 0 while a noise thread on the same
 * CPU wakes up every few tens of microseconds and preempts it.
 *
 *   ext_grant yield SECONDS    leave each window, yield when granted
 *   ext_grant abort SECONDS    make a syscall (getppid) when granted
 *   ext_grant expire SECONDS   never leave: the grant must expire
 *
 * Prints "key value" lines (windows, grants seen, yields, ...) for the
 * caller to compare with ext/stats, and for expire the time from seeing a
 * grant to losing the CPU. Exit status 0 unless a syscall failed.
 */
#include "test_util.h"
#include "requester.h"

#include <signal.h>
#include <sys/rseq.h>

static volatile sig_atomic_t report;

/* SIGUSR1: print this thread's slice_ctrl and status bits (unload test). */
static void on_usr1(int sig)
{
	report = 1;
}

static struct rseq *area(void)
{
	return (struct rseq *)((char *)__builtin_thread_pointer() +
			       __rseq_offset);
}

int main(int argc, char **argv)
{
	struct requester r = { .max_lost = 1 << 20 };
	volatile struct rseq *rs;
	uint64_t end, t;
	pthread_t th;
	double secs;

	if (argc != 3) {
		fprintf(stderr, "usage: %s yield|abort|expire SECONDS\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "yield"))
		r.leave = LEAVE_YIELD;
	else if (!strcmp(argv[1], "abort"))
		r.leave = LEAVE_ABORT;
	else if (!strcmp(argv[1], "expire"))
		r.leave = LEAVE_EXPIRE;
	else
		return 2;
	secs = atof(argv[2]);

	if (!__rseq_size) {
		fprintf(stderr, "no rseq area\n");
		return 2;
	}
	rs = area();
	if (slice_prctl(PR_RSEQ_SLICE_EXTENSION_SET, PR_RSEQ_SLICE_EXT_ENABLE)) {
		perror("prctl(PR_RSEQ_SLICE_EXTENSION)");
		return 1;
	}
	r.lost = calloc(r.max_lost, sizeof(*r.lost));
	if (!r.lost)
		return 1;

	if (pin_cpu(0)) {
		perror("sched_setaffinity");
		return 2;
	}
	if (pthread_create(&th, NULL, requester_noise, NULL))
		return 1;

	end = now_ns() + secs * 1e9;
	r.last = now_ns();
	signal(SIGUSR1, on_usr1);
	while ((t = now_ns()) < end) {
		if (report) {
			report = 0;
			printf("state request=%u granted=%u status=%#x\n",
			       rs->slice_ctrl.request, rs->slice_ctrl.granted,
			       rs->flags & SLICE_STATUS_BITS);
			fflush(stdout);
			r.last = now_ns();
			continue;
		}
		requester_step(rs, &r, t);
	}
	requester_finish(rs, &r);
	requester_noise_stop = true;
	pthread_join(th, NULL);

	printf("windows %llu\n", (unsigned long long)r.windows);
	printf("grants_seen %llu\n", (unsigned long long)r.seen);
	printf("yields %llu\n", (unsigned long long)r.yields);
	printf("yield_returned_0 %llu\n", (unsigned long long)r.yield_zero);
	printf("granted_after_syscall %llu\n", (unsigned long long)r.left);
	printf("outside_grant_yield %ld\n", syscall(__NR_rseq_slice_yield));
	if (r.nlost) {
		printf("expiries_measured %zu\n", r.nlost);
		printf("grant_to_preempt_p50_ns %llu\n",
		       (unsigned long long)requester_lost_pct(&r, 50));
		printf("grant_to_preempt_p99_ns %llu\n",
		       (unsigned long long)requester_lost_pct(&r, 99));
		printf("grant_to_preempt_max_ns %llu\n",
		       (unsigned long long)requester_lost_pct(&r, 100));
	}
	return 0;
}
