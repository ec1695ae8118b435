/* SPDX-License-Identifier: GPL-2.0 */
/*
 * preload_locks: the opt-in and the lock count are per thread; a program
 * that takes no lock never opts in.
 */
#ifndef _PRELOAD_THREAD_TESTS_H
#define _PRELOAD_THREAD_TESTS_H

#include <pthread.h>
#include <stdio.h>

#include "kselftest_harness.h"
#include "preload_area.h"

struct thread_seen {
	pthread_barrier_t *go;
	pthread_mutex_t *m;
	int get_before, enabled_bit_before, get_after, asked, ctrl_after;
};

static void *thread_locks(void *arg)
{
	struct thread_seen *s = arg;
	int i;

	if (s->go)
		pthread_barrier_wait(s->go);	/* main has locked by now */
	s->get_before = slice_get();
	s->enabled_bit_before = status_bits() & RSEQ_CS_FLAG_SLICE_EXT_ENABLED;
	for (i = 0; i < TRIES && !s->asked; i++) {
		pthread_mutex_lock(s->m);
		s->asked = asking();
		pthread_mutex_unlock(s->m);
	}
	s->ctrl_after = ctrl();
	s->get_after = slice_get();
	return NULL;
}

/*
 * The opt-in is per thread, on each thread's first lock; a thread's
 * count is its own, whatever other threads hold.
 */
TEST(threads_before_and_after_first_lock)
{
	pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	struct thread_seen before = { .m = &m }, after = { .m = &m };
	pthread_barrier_t go;
	pthread_t t1, t2;
	int i, ok = 0;

	ASSERT_TRUE(preloaded());
	pthread_barrier_init(&go, NULL, 2);
	before.go = &go;
	ASSERT_EQ(0, pthread_create(&t1, NULL, thread_locks, &before));

	ASSERT_EQ(0, slice_get());
	ASSERT_EQ(0, pthread_mutex_lock(&held));
	ASSERT_EQ(PR_RSEQ_SLICE_EXT_ENABLE, slice_get());
	pthread_barrier_wait(&go);
	ASSERT_EQ(0, pthread_create(&t2, NULL, thread_locks, &after));
	ASSERT_EQ(0, pthread_join(t1, NULL));
	ASSERT_EQ(0, pthread_join(t2, NULL));

	for (i = 0; i < 2; i++) {
		struct thread_seen *s = i ? &after : &before;

		TH_LOG("thread created %s main's first lock",
		       i ? "after" : "before");
		EXPECT_EQ(0, s->get_before);
		EXPECT_EQ(0, s->enabled_bit_before);
		EXPECT_TRUE(s->asked);
		EXPECT_EQ(0, s->ctrl_after);
		EXPECT_EQ(PR_RSEQ_SLICE_EXT_ENABLE, s->get_after);
	}

	/* Main still holds one lock. */
	for (i = 0; i < TRIES && !ok; i++) {
		ASSERT_EQ(0, pthread_mutex_lock(&m));
		ASSERT_EQ(0, pthread_mutex_unlock(&m));
		ok = asking();
	}
	ASSERT_TRUE(ok);
	ASSERT_EQ(0, pthread_mutex_unlock(&held));
	ASSERT_EQ(0, ctrl());
}

static void *no_locks(void *arg)
{
	*(int *)arg = slice_get();
	return NULL;
}

/* A program that takes no pthread lock never turns the extension on. */
TEST(never_locks)
{
	pthread_t th;
	int get = -1;

	ASSERT_TRUE(preloaded());
	printf("# stdio, threads and joins take no pthread lock\n");
	fflush(stdout);
	ASSERT_EQ(0, pthread_create(&th, NULL, no_locks, &get));
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(0, get);
	EXPECT_EQ(0, slice_get());
	EXPECT_EQ(0, status_bits() & RSEQ_CS_FLAG_SLICE_EXT_ENABLED);
	EXPECT_EQ(0, ctrl());
}

#endif /* _PRELOAD_THREAD_TESTS_H */
