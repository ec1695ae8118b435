// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * slice_ext_example.c - ask for time slice extensions around a spinlock
 *
 * Written against the Linux 7.0 user ABI; runs unchanged on 6.12 with
 * sliceext. Build from the sliceext checkout:
 *
 *	gcc -O2 -Wall -pthread -I uapi -I tools \
 *		-o slice_ext_example tools/examples/slice_ext_example.c
 *
 * Each thread enables the extension for itself, then takes a shared
 * spinlock 1000 times. A thread preempted while holding a spinlock
 * makes every other thread spin until it runs again; with a request
 * pending the kernel may instead let it run a little longer, and it then
 * gives the CPU back at once through rseq_slice_yield().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <linux/rseq.h>

#include "rseq_slice.h"

#define NR_THREADS	2
#define NR_SECTIONS	1000

#ifndef ENOTSUPP
#define ENOTSUPP	524	/* kernel internal, not in <errno.h> */
#endif

static pthread_spinlock_t lock;
static unsigned long counter;

struct worker {
	pthread_t thread;
	int err;		/* errno of the prctl(), 0 if enabled */
	unsigned int yields;	/* sections that ended in a granted yield */
};

/* Enable the extension for the calling thread: 0 or errno. */
static int slice_ext_enable(void)
{
	/* The same as rseq_slice_enable(), spelled out with 7.0's names. */
	if (prctl(PR_RSEQ_SLICE_EXTENSION, PR_RSEQ_SLICE_EXTENSION_SET,
		  PR_RSEQ_SLICE_EXT_ENABLE, 0, 0))
		return errno;
	return 0;
}

static const char *slice_ext_error(int err)
{
	switch (err) {
	case ENOTSUPP:	/* disabled, or sliceext not loaded */
		return "slice extension disabled: is sliceext loaded?";
	case ENXIO:	/* e.g. GLIBC_TUNABLES=glibc.pthread.rseq=0 */
		return "no rseq area registered for this thread";
	case EINVAL:	/* older kernel: unknown prctl() */
		return "kernel lacks slice extension: needs 7.0 or sliceext";
	default:
		return strerror(err);
	}
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	struct rseq *rs = rseq_slice_area();
	int i;

	w->err = rs ? slice_ext_enable() : ENXIO;
	if (w->err)
		return NULL;

	for (i = 0; i < NR_SECTIONS; i++) {
		/* Request before the lock, so the holder is covered. */
		rseq_slice_enter(rs);
		pthread_spin_lock(&lock);
		counter++;		/* the short critical section */
		pthread_spin_unlock(&lock);
		/* Withdraw it after; yields if the kernel granted one. */
		if (rseq_slice_leave(rs))
			w->yields++;
	}
	return NULL;
}

int main(void)
{
	struct worker w[NR_THREADS] = { 0 };
	unsigned int yields = 0;
	int i, err;

	/* Check once up front for a clear message, then in every thread. */
	err = rseq_slice_area() ? slice_ext_enable() : ENXIO;
	if (err) {
		fprintf(stderr, "slice_ext_example: %s\n",
			slice_ext_error(err));
		return 1;
	}

	pthread_spin_init(&lock, PTHREAD_PROCESS_PRIVATE);
	for (i = 0; i < NR_THREADS; i++) {
		if (pthread_create(&w[i].thread, NULL, worker_fn, &w[i])) {
			perror("pthread_create");
			return 1;
		}
	}
	for (i = 0; i < NR_THREADS; i++) {
		pthread_join(w[i].thread, NULL);
		if (w[i].err) {
			fprintf(stderr, "slice_ext_example: thread %d: %s\n",
				i, slice_ext_error(w[i].err));
			return 1;
		}
		yields += w[i].yields;
	}

	printf("%lu critical sections in %d threads, yielded %u times\n",
	       counter, NR_THREADS, yields);
	return 0;
}
