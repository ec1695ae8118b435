/* SPDX-License-Identifier: GPL-2.0 */
/*
 * preload_locks: condition variables, whose waits release and retake a
 * mutex inside glibc, where the library cannot see the lock calls.
 */
#ifndef _PRELOAD_COND_TESTS_H
#define _PRELOAD_COND_TESTS_H

#include <pthread.h>
#include <time.h>

#include "kselftest_harness.h"
#include "preload_area.h"

FIXTURE(cond) {
	pthread_mutex_t m;
	pthread_cond_t c;
	pthread_spinlock_t s;
	int flag;
};

FIXTURE_SETUP(cond)
{
	pthread_condattr_t attr;

	ASSERT_TRUE(preloaded());
	ASSERT_NE(0, __rseq_size);
	pthread_mutex_init(&self->m, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&self->c, &attr);
	pthread_spin_init(&self->s, PTHREAD_PROCESS_PRIVATE);
}

FIXTURE_TEARDOWN(cond)
{
}

/*
 * The count drops for the wait: a wait whose mutex was the only lock
 * held is a last unlock, and with granted set it yields first. The
 * wait times out (a deadline in the past), though the kernel may still
 * switch away until the already expired timer fires, which clears
 * slice_ctrl: a fake grant is made again after the wait. The count
 * comes back with the mutex.
 */
TEST_F(cond, wait_drops_count)
{
	struct timespec past = { 0, 0 };
	int i, ok = 0;
	long before;

	ASSERT_EQ(0, count_yields());
	for (i = 0; i < TRIES && !ok; i++) {
		before = yields();
		ASSERT_EQ(0, pthread_mutex_lock(&self->m));
		fake_grant();
		ASSERT_EQ(ETIMEDOUT, pthread_cond_timedwait(&self->c, &self->m,
							    &past));
		ok = asking() && yields() == before + 1;
		ASSERT_EQ(0, pthread_mutex_unlock(&self->m));
		ASSERT_EQ(0, request());
		clear_ctrl();
	}
	ASSERT_TRUE(ok) TH_LOG("the wait did not give the count back, or "
			       "did not take it again");

	/* With another lock held, it is not the last: no yield. */
	for (i = 0, ok = 0; i < TRIES && !ok; i++) {
		before = yields();
		ASSERT_EQ(0, pthread_spin_lock(&self->s));
		ASSERT_EQ(0, pthread_mutex_lock(&self->m));
		fake_grant();
		ASSERT_EQ(ETIMEDOUT, pthread_cond_timedwait(&self->c, &self->m,
							    &past));
		ok = yields() == before;
		fake_grant();
		ASSERT_EQ(0, pthread_mutex_unlock(&self->m));
		ok &= yields() == before;
		ASSERT_EQ(0, pthread_spin_unlock(&self->s));
		ASSERT_EQ(0, request());
		ok &= yields() == before + 1;	/* the grant, still live */
		clear_ctrl();
	}
	ASSERT_TRUE(ok);
}

/*
 * A wait that sleeps: the switch clears slice_ctrl, and the library asks
 * again as the wait returns with the mutex.
 */
TEST_F(cond, wait_asks_again)
{
	struct timespec t;
	int i, ok = 0;

	for (i = 0; i < TRIES && !ok; i++) {
		ASSERT_EQ(0, pthread_mutex_lock(&self->m));
		t = in_ms(CLOCK_MONOTONIC, 2);
		ASSERT_EQ(ETIMEDOUT, pthread_cond_timedwait(&self->c, &self->m,
							    &t));
		ok = asking();
		ASSERT_EQ(0, pthread_mutex_unlock(&self->m));
		ASSERT_EQ(0, ctrl());
	}
	ASSERT_TRUE(ok);

	for (i = 0, ok = 0; i < TRIES && !ok; i++) {
		ASSERT_EQ(0, pthread_mutex_lock(&self->m));
		t = in_ms(CLOCK_MONOTONIC, 2);
		ASSERT_EQ(ETIMEDOUT, pthread_cond_clockwait(&self->c, &self->m,
							    CLOCK_MONOTONIC,
							    &t));
		ok = asking();
		ASSERT_EQ(0, pthread_mutex_unlock(&self->m));
		ASSERT_EQ(0, ctrl());
	}
	ASSERT_TRUE(ok);
}

static void *signaller(void *arg)
{
	FIXTURE_DATA(cond) *f = arg;
	struct timespec ts = { 0, 2000000 };

	nanosleep(&ts, NULL);
	pthread_mutex_lock(&f->m);
	f->flag = 1;
	pthread_cond_signal(&f->c);
	pthread_mutex_unlock(&f->m);
	return NULL;
}

/* Woken by another thread, nested in a spinlock: the counts balance. */
TEST_F(cond, signalled_wait_nested)
{
	pthread_t th;
	int i, ok = 0;

	for (i = 0; i < TRIES && !ok; i++) {
		self->flag = 0;
		ASSERT_EQ(0, pthread_spin_lock(&self->s));
		ASSERT_EQ(0, pthread_mutex_lock(&self->m));
		ASSERT_EQ(0, pthread_create(&th, NULL, signaller, self));
		while (!self->flag)
			ASSERT_EQ(0, pthread_cond_wait(&self->c, &self->m));
		ASSERT_EQ(0, pthread_mutex_unlock(&self->m));
		ok = asking();		/* the spinlock is still held */
		ASSERT_EQ(0, pthread_spin_unlock(&self->s));
		ASSERT_EQ(0, ctrl());
		ASSERT_EQ(0, pthread_join(th, NULL));
	}
	ASSERT_TRUE(ok);
}

#endif /* _PRELOAD_COND_TESTS_H */
