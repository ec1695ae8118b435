/* SPDX-License-Identifier: GPL-2.0 */
/*
 * preload_locks: the pthread lock kinds the library wraps, behind one
 * interface, so that each test runs on every kind; and a thread that
 * holds a lock while a test shows that ours must wait or fail.
 */
#ifndef _PRELOAD_LOCK_OPS_H
#define _PRELOAD_LOCK_OPS_H

#include <pthread.h>
#include <time.h>

union lock {
	pthread_mutex_t m;
	pthread_spinlock_t s;
	pthread_rwlock_t rw;
};

struct lock_ops {
	void (*init)(union lock *l);
	int (*lock)(union lock *l);
	int (*trylock)(union lock *l);
	/* NULL where the kind has none */
	int (*timedlock)(union lock *l, const struct timespec *abstime);
	int (*clocklock)(union lock *l, const struct timespec *abstime);
	int (*unlock)(union lock *l);
	/* How another thread holds it so that ours must fail. */
	int (*exclusive)(union lock *l);
};

static void mutex_init(union lock *l)
{
	pthread_mutex_init(&l->m, NULL);
}

static int mutex_lock(union lock *l) { return pthread_mutex_lock(&l->m); }
static int mutex_trylock(union lock *l) { return pthread_mutex_trylock(&l->m); }
static int mutex_unlock(union lock *l) { return pthread_mutex_unlock(&l->m); }

static int mutex_timedlock(union lock *l, const struct timespec *t)
{
	return pthread_mutex_timedlock(&l->m, t);
}

static int mutex_clocklock(union lock *l, const struct timespec *t)
{
	return pthread_mutex_clocklock(&l->m, CLOCK_MONOTONIC, t);
}

static void spin_init(union lock *l)
{
	pthread_spin_init(&l->s, PTHREAD_PROCESS_PRIVATE);
}

static int spin_lock(union lock *l) { return pthread_spin_lock(&l->s); }
static int spin_trylock(union lock *l) { return pthread_spin_trylock(&l->s); }
static int spin_unlock(union lock *l) { return pthread_spin_unlock(&l->s); }

static void rw_init(union lock *l)
{
	pthread_rwlock_init(&l->rw, NULL);
}

static int rd_lock(union lock *l) { return pthread_rwlock_rdlock(&l->rw); }
static int rd_trylock(union lock *l) { return pthread_rwlock_tryrdlock(&l->rw); }
static int wr_lock(union lock *l) { return pthread_rwlock_wrlock(&l->rw); }
static int wr_trylock(union lock *l) { return pthread_rwlock_trywrlock(&l->rw); }
static int rw_unlock(union lock *l) { return pthread_rwlock_unlock(&l->rw); }

static int rd_timedlock(union lock *l, const struct timespec *t)
{
	return pthread_rwlock_timedrdlock(&l->rw, t);
}

static int rd_clocklock(union lock *l, const struct timespec *t)
{
	return pthread_rwlock_clockrdlock(&l->rw, CLOCK_MONOTONIC, t);
}

static int wr_timedlock(union lock *l, const struct timespec *t)
{
	return pthread_rwlock_timedwrlock(&l->rw, t);
}

static int wr_clocklock(union lock *l, const struct timespec *t)
{
	return pthread_rwlock_clockwrlock(&l->rw, CLOCK_MONOTONIC, t);
}

static const struct lock_ops mutex_ops = {
	mutex_init, mutex_lock, mutex_trylock, mutex_timedlock,
	mutex_clocklock, mutex_unlock, mutex_lock,
};

static const struct lock_ops spin_ops = {
	spin_init, spin_lock, spin_trylock, NULL, NULL, spin_unlock, spin_lock,
};

static const struct lock_ops rd_ops = {
	rw_init, rd_lock, rd_trylock, rd_timedlock, rd_clocklock, rw_unlock,
	wr_lock,
};

static const struct lock_ops wr_ops = {
	rw_init, wr_lock, wr_trylock, wr_timedlock, wr_clocklock, rw_unlock,
	wr_lock,
};

/* Another thread holding a lock until told to let go. */
struct holder {
	const struct lock_ops *ops;
	union lock *l;
	pthread_barrier_t taken, release;
	pthread_t th;
};

static void *holder_fn(void *arg)
{
	struct holder *h = arg;

	h->ops->exclusive(h->l);
	pthread_barrier_wait(&h->taken);
	pthread_barrier_wait(&h->release);
	h->ops->unlock(h->l);
	return NULL;
}

static int hold(struct holder *h, const struct lock_ops *ops, union lock *l)
{
	h->ops = ops;
	h->l = l;
	pthread_barrier_init(&h->taken, NULL, 2);
	pthread_barrier_init(&h->release, NULL, 2);
	if (pthread_create(&h->th, NULL, holder_fn, h))
		return -1;
	pthread_barrier_wait(&h->taken);
	return 0;
}

static void let_go(struct holder *h)
{
	pthread_barrier_wait(&h->release);
	pthread_join(h->th, NULL);
}

#endif /* _PRELOAD_LOCK_OPS_H */
