/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The request loop that slice_grant (the kselftest) and ext_grant (the
 * requester other tests run in the background) share: a thread in request
 * windows on CPU 0, preempted by a noise thread that wakes every 30 us on
 * the same CPU, leaving each granted window in one of three ways.
 * Include after test_util.h.
 */
#ifndef _SLICEEXT_REQUESTER_H
#define _SLICEEXT_REQUESTER_H

#include <pthread.h>
#include <stdbool.h>

/* Long enough to be a gap in a spin loop, short against a tick. */
#define REQ_GAP_NS	20000
/* How long a window waits for a grant before giving up. */
#define REQ_WINDOW_NS	3000

enum leave {
	LEAVE_YIELD,	/* rseq_slice_yield() when granted */
	LEAVE_ABORT,	/* another syscall (getppid) when granted */
	LEAVE_EXPIRE,	/* never leave: the grant must expire */
};

struct requester {
	enum leave	leave;
	uint64_t	windows, seen, yields, yield_zero, left;
	/* LEAVE_EXPIRE: time from seeing a grant to losing the CPU. */
	uint64_t	*lost;
	size_t		nlost, max_lost;
	uint64_t	last, granted_at;
};

static volatile bool requester_noise_stop;

static inline void *requester_noise(void *arg)
{
	struct timespec ts = { 0, 30000 };

	pin_cpu(0);
	prctl(PR_SET_TIMERSLACK, 1);
	while (!requester_noise_stop)
		nanosleep(&ts, NULL);
	return NULL;
}

/*
 * Keep a request up and note each grant; a gap in the loop longer than
 * REQ_GAP_NS is the thread having lost the CPU, which ends the grant.
 */
static inline void requester_expire_step(volatile struct rseq *rs,
					 struct requester *r, uint64_t t)
{
	if (t - r->last > REQ_GAP_NS && r->granted_at) {
		if (r->nlost < r->max_lost)
			r->lost[r->nlost++] = r->last - r->granted_at;
		r->granted_at = 0;
	}
	r->last = t;
	if (rs->slice_ctrl.granted) {
		if (!r->granted_at) {
			r->granted_at = t;
			r->seen++;
		}
	} else if (!rs->slice_ctrl.request) {
		rs->slice_ctrl.request = 1;
		r->windows++;
	}
}

/* One pass of the loop at time @t. */
static inline void requester_step(volatile struct rseq *rs,
				  struct requester *r, uint64_t t)
{
	if (r->leave == LEAVE_EXPIRE) {
		requester_expire_step(rs, r, t);
		return;
	}
	r->windows++;
	rs->slice_ctrl.request = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	while (now_ns() - t < REQ_WINDOW_NS && !rs->slice_ctrl.granted)
		;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	rs->slice_ctrl.request = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (!rs->slice_ctrl.granted)
		return;
	r->seen++;
	if (r->leave == LEAVE_ABORT) {
		getppid();
		/* Must stay 0: the grant is cleared on the way into the syscall. */
		if (rs->slice_ctrl.granted)
			r->left++;
	} else if (syscall(__NR_rseq_slice_yield) == 1) {
		r->yields++;
	} else {
		r->yield_zero++;
	}
}

/* Leave the last window properly: whatever the caller does next is a syscall. */
static inline void requester_finish(volatile struct rseq *rs,
				    struct requester *r)
{
	rs->slice_ctrl.request = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (rs->slice_ctrl.granted && syscall(__NR_rseq_slice_yield) == 1)
		r->yields++;
}

static inline int requester_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorts r->lost; returns its @pct-th percentile (r->nlost must be > 0). */
static inline uint64_t requester_lost_pct(struct requester *r, int pct)
{
	qsort(r->lost, r->nlost, sizeof(r->lost[0]), requester_cmp_u64);
	return r->lost[pct >= 100 ? r->nlost - 1 : r->nlost * pct / 100];
}

#endif /* _SLICEEXT_REQUESTER_H */
