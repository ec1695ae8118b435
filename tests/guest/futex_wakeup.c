// SPDX-License-Identifier: GPL-2.0
/*
 * futex_wakeup ROUNDS [pipe]: a waker hands work to a thread sleeping in a
 * futex wait (or, with "pipe", in a read() of a pipe), both pinned to
 * CPU 0, and looks whether that thread has already run when its wake
 * returns. Each round the waker sleeps 3 ms, so
 * that it wakes with a fresh slice, runs 200 us, then wakes the waiter.
 *
 * Prints "ran_first N rounds R": in how many rounds the waiter ran before
 * the waker went on. With burst scheduling on (burst/enabled 1), a futex
 * waiter is placed with no slice and preempts its waker; with it off, the
 * waker keeps its slice protection, unless EEVDF's lag alone makes it
 * ineligible (it ran 200 us alone just before), which is often.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>

#include "test_util.h"

static uint32_t posted;		/* futex: the round handed out */
static uint32_t done;		/* the last round the waiter saw */
static int pipefd[2] = { -1, -1 };	/* "pipe": the waiter reads here */

static void spin_ns(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end)
		;
}

static void pin_cpu0(void)
{
	if (pin_cpu(0)) {
		perror("sched_setaffinity");
		exit(2);
	}
}

static void *waiter(void *arg)
{
	uint32_t seen = 0, s;

	pin_cpu0();
	for (;;) {
		while ((s = __atomic_load_n(&posted, __ATOMIC_ACQUIRE)) == seen) {
			char c;

			if (pipefd[0] < 0)
				syscall(SYS_futex, &posted, FUTEX_WAIT_PRIVATE,
					seen, NULL, NULL, 0);
			else if (read(pipefd[0], &c, 1) < 0)
				exit(2);
		}
		seen = s;
		__atomic_store_n(&done, s, __ATOMIC_RELEASE);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 50, first = 0, r;
	struct timespec nap = { 0, 3000000 };
	pthread_t t;
	uint64_t deadline;

	if (argc > 2 && pipe(pipefd))
		return 2;
	pin_cpu0();
	if (pthread_create(&t, NULL, waiter, NULL))
		return 2;
	for (r = 1; r <= rounds; r++) {
		nanosleep(&nap, NULL);
		spin_ns(200000);
		__atomic_store_n(&posted, r, __ATOMIC_RELEASE);
		if (pipefd[1] < 0)
			syscall(SYS_futex, &posted, FUTEX_WAKE_PRIVATE, 1,
				NULL, NULL, 0);
		else if (write(pipefd[1], "", 1) != 1)
			return 2;
		if (__atomic_load_n(&done, __ATOMIC_ACQUIRE) == (uint32_t)r)
			first++;
		/* Let it run before the next round, whatever the policy. */
		deadline = now_ns() + 1000000000ULL;
		while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) != (uint32_t)r) {
			if (now_ns() > deadline) {
				fprintf(stderr, "round %d: the waiter never ran\n", r);
				return 1;
			}
			sched_yield();
		}
	}
	printf("ran_first %d rounds %d\n", first, rounds);
	return 0;
}
