// SPDX-License-Identifier: GPL-2.0
/*
 * libsliceext-preload.so seen from a program that never heard of it.
 * 84-preload.sh runs this under LD_PRELOAD with sliceext loaded. Every
 * check reads what the library did to this thread's rseq area (glibc's:
 * slice_ctrl.request and .granted, the status bits in flags) and what
 * prctl(PR_RSEQ_SLICE_EXTENSION_GET) says; a perf counter on the
 * raw_syscalls:sys_enter tracepoint, filtered to syscall 471, counts the
 * library's rseq_slice_yield() calls where a test needs them.
 *
 *   preload_locks [HARNESS OPTIONS]   the tests
 *   preload_locks kinds               "KIND 0|1" per kind: whether a lock
 *                                     of it raised a request; "enabled N":
 *                                     prctl GET afterwards, or -errno
 *   preload_locks work SECONDS THREADS HOGS
 *                                     THREADS threads share a mutex on
 *                                     CPU 0 beside HOGS CPU hogs; prints
 *                                     "sections N"
 *
 * The kernel clears slice_ctrl whenever the thread is switched out, so a
 * request can vanish between the library's store and our load. Checks
 * that a request is up therefore retry their whole sequence a few times
 * (nothing but the library ever sets it, so one sighting is proof);
 * checks that it is down never need to.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <linux/rseq.h>

#include "kselftest_harness.h"

#define STATUS_BITS	(RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE | \
			 RSEQ_CS_FLAG_SLICE_EXT_ENABLED)
#define TRIES		20	/* sequences that look for a request */

/* --- what the library did ---------------------------------------------- */

static struct rseq *area(void)
{
	return (struct rseq *)((char *)__builtin_thread_pointer() +
			       __rseq_offset);
}

/* Asking: a request, or the grant that replaced it. */
static int asking(void)
{
	struct rseq *rs = area();

	return __atomic_load_n(&rs->slice_ctrl.request, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&rs->slice_ctrl.granted, __ATOMIC_RELAXED);
}

static unsigned int ctrl(void)
{
	return __atomic_load_n(&area()->slice_ctrl.all, __ATOMIC_RELAXED);
}

/* What the kernel would have left after a grant: no request, granted. */
static void fake_grant(void)
{
	struct rseq *rs = area();

	__atomic_store_n(&rs->slice_ctrl.request, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&rs->slice_ctrl.granted, 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static unsigned int request(void)
{
	return __atomic_load_n(&area()->slice_ctrl.request, __ATOMIC_RELAXED);
}

/* Whatever a fake grant left behind: not the library's to clear. */
static void clear_ctrl(void)
{
	__atomic_store_n(&area()->slice_ctrl.all, 0, __ATOMIC_RELAXED);
}

static int slice_get(void)
{
	int ret = prctl(PR_RSEQ_SLICE_EXTENSION, PR_RSEQ_SLICE_EXTENSION_GET,
			0, 0, 0);

	return ret < 0 ? -errno : ret;
}

static unsigned int status_bits(void)
{
	return area()->flags & STATUS_BITS;
}

/* Whether this program's pthread_mutex_lock() is the library's. */
static int preloaded(void)
{
	Dl_info info;

	return dladdr((void *)pthread_mutex_lock, &info) && info.dli_fname &&
	       strstr(info.dli_fname, "libsliceext-preload");
}

/*
 * rseq_slice_yield() calls by this thread so far, counted by the kernel:
 * a perf counter on raw_syscalls:sys_enter with a filter on the number
 * (the guest kernel has neither seccomp nor per-syscall events). Reading
 * it is a system call, which is harmless where no grant is live, as in
 * the tests that fake one.
 */
static int yield_fd = -1;

static int count_yields(void)
{
	static const char *const ids[] = {
		"/sys/kernel/tracing/events/raw_syscalls/sys_enter/id",
		"/sys/kernel/debug/tracing/events/raw_syscalls/sys_enter/id",
	};
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
	};
	char filter[32];
	unsigned int i;
	FILE *f = NULL;

	for (i = 0; i < ARRAY_SIZE(ids) && !f; i++)
		f = fopen(ids[i], "r");
	if (!f)
		return -ENOENT;
	if (fscanf(f, "%llu", (unsigned long long *)&attr.config) != 1) {
		fclose(f);
		return -EINVAL;
	}
	fclose(f);
	yield_fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1,
			   PERF_FLAG_FD_CLOEXEC);
	if (yield_fd < 0)
		return -errno;
	snprintf(filter, sizeof(filter), "id == %d", __NR_rseq_slice_yield);
	if (ioctl(yield_fd, PERF_EVENT_IOC_SET_FILTER, filter))
		return -errno;
	return 0;
}

static long yields(void)
{
	uint64_t n;

	if (read(yield_fd, &n, sizeof(n)) != sizeof(n))
		return -1;
	return (long)n;
}

static struct timespec in_ms(clockid_t clock, long ms)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	ts.tv_nsec += ms * 1000000L;
	ts.tv_sec += ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	return ts;
}

/* --- the lock kinds, behind one interface ------------------------------- */

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

/* --- tests on each lock kind ------------------------------------------- */

FIXTURE(locks) {
	union lock a, b, c;
};

FIXTURE_VARIANT(locks) {
	const struct lock_ops *ops;
	/*
	 * glibc marks a write-locked rwlock with the writer's TID, which a
	 * forked child does not have: its copy cannot be unlocked there.
	 */
	bool child_cannot_unlock;
};

FIXTURE_VARIANT_ADD(locks, mutex) { .ops = &mutex_ops };
FIXTURE_VARIANT_ADD(locks, spin) { .ops = &spin_ops };
FIXTURE_VARIANT_ADD(locks, rwlock_rd) { .ops = &rd_ops };
FIXTURE_VARIANT_ADD(locks, rwlock_wr) {
	.ops = &wr_ops,
	.child_cannot_unlock = true,
};

FIXTURE_SETUP(locks)
{
	ASSERT_TRUE(preloaded()) TH_LOG("run under LD_PRELOAD=libsliceext-preload.so");
	ASSERT_NE(0, __rseq_size) TH_LOG("glibc's rseq registration is off");
	variant->ops->init(&self->a);
	variant->ops->init(&self->b);
	variant->ops->init(&self->c);
}

FIXTURE_TEARDOWN(locks)
{
}

TEST_F(locks, first_lock_enables)
{
	const struct lock_ops *ops = variant->ops;
	int i, seen = 0;

	ASSERT_EQ(0, slice_get());
	ASSERT_EQ(0, status_bits() & RSEQ_CS_FLAG_SLICE_EXT_ENABLED);
	ASSERT_EQ(0, ctrl());

	ASSERT_EQ(0, ops->lock(&self->a));
	ASSERT_EQ(PR_RSEQ_SLICE_EXT_ENABLE, slice_get());
	ASSERT_EQ(STATUS_BITS, status_bits());
	seen = asking();
	ASSERT_EQ(0, ops->unlock(&self->a));
	ASSERT_EQ(0, ctrl());

	for (i = 0; i < TRIES && !seen; i++) {
		ASSERT_EQ(0, ops->lock(&self->a));
		seen = asking();
		ASSERT_EQ(0, ops->unlock(&self->a));
		ASSERT_EQ(0, ctrl());
	}
	ASSERT_TRUE(seen) TH_LOG("no request while the lock was held");
	ASSERT_EQ(PR_RSEQ_SLICE_EXT_ENABLE, slice_get());
}

TEST_F(locks, nesting)
{
	const struct lock_ops *ops = variant->ops;
	int i, ok = 0;

	for (i = 0; i < TRIES && !ok; i++) {
		ASSERT_EQ(0, ops->lock(&self->a));
		ASSERT_EQ(0, ops->lock(&self->b));
		ASSERT_EQ(0, ops->lock(&self->c));
		ASSERT_EQ(0, ops->unlock(&self->c));
		ok = asking();
		ASSERT_EQ(0, ops->unlock(&self->b));
		ok &= asking();
		ASSERT_EQ(0, ops->unlock(&self->a));
		ASSERT_EQ(0, ctrl());
	}
	ASSERT_TRUE(ok) TH_LOG("request gone before the outermost unlock");
}

TEST_F(locks, unlock_order_differs)
{
	const struct lock_ops *ops = variant->ops;
	int i, ok = 0;

	for (i = 0; i < TRIES && !ok; i++) {
		ASSERT_EQ(0, ops->lock(&self->a));
		ASSERT_EQ(0, ops->lock(&self->b));
		ASSERT_EQ(0, ops->unlock(&self->a));
		ok = asking();
		ASSERT_EQ(0, ops->unlock(&self->b));
		ASSERT_EQ(0, ctrl());
	}
	ASSERT_TRUE(ok) TH_LOG("request gone while b was still held");
}

/*
 * The kernel clears slice_ctrl when it switches the thread out (a sleep
 * inside the section, a lock that had to wait): the next lock, and an
 * unlock that leaves a lock held, ask again.
 */
TEST_F(locks, asks_again_after_switch)
{
	const struct lock_ops *ops = variant->ops;
	struct timespec ms = { 0, 1000000 };
	int i, cleared = 1, ok = 0;

	for (i = 0; i < TRIES && !ok; i++) {
		ASSERT_EQ(0, ops->lock(&self->a));
		nanosleep(&ms, NULL);
		cleared &= !asking();
		ASSERT_EQ(0, ops->lock(&self->b));
		ok = asking();
		nanosleep(&ms, NULL);
		cleared &= !asking();
		ASSERT_EQ(0, ops->unlock(&self->b));
		ok &= asking();
		ASSERT_EQ(0, ops->unlock(&self->a));
		ASSERT_EQ(0, ctrl());
	}
	EXPECT_TRUE(cleared) TH_LOG("the kernel left slice_ctrl set across a sleep");
	ASSERT_TRUE(ok) TH_LOG("no request again after a switch");
}

TEST_F(locks, trylock)
{
	const struct lock_ops *ops = variant->ops;
	struct holder h;
	int i, ok = 0;

	/* A successful trylock counts like a lock. */
	for (i = 0; i < TRIES && !ok; i++) {
		ASSERT_EQ(0, ops->trylock(&self->a));
		ok = asking();
		ASSERT_EQ(0, ops->unlock(&self->a));
		ASSERT_EQ(0, ctrl());
	}
	ASSERT_TRUE(ok);

	/* A failed one does not: the count must come back to zero. */
	ASSERT_EQ(0, hold(&h, ops, &self->a));
	ASSERT_EQ(EBUSY, ops->trylock(&self->a));
	ASSERT_EQ(0, ctrl());
	ASSERT_EQ(0, ops->lock(&self->b));
	ASSERT_EQ(EBUSY, ops->trylock(&self->a));
	ASSERT_EQ(0, ops->unlock(&self->b));
	ASSERT_EQ(0, ctrl()) TH_LOG("a failed trylock was counted");
	let_go(&h);
}

TEST_F(locks, timedlock_timeout)
{
	const struct lock_ops *ops = variant->ops;
	struct timespec t;
	struct holder h;
	int i, ok = 0;

	if (!ops->timedlock)
		SKIP(return, "this kind has no timed lock");
	ASSERT_EQ(0, hold(&h, ops, &self->a));
	ASSERT_EQ(0, ops->lock(&self->b));
	t = in_ms(CLOCK_REALTIME, 2);
	ASSERT_EQ(ETIMEDOUT, ops->timedlock(&self->a, &t));
	t = in_ms(CLOCK_MONOTONIC, 2);
	ASSERT_EQ(ETIMEDOUT, ops->clocklock(&self->a, &t));
	ASSERT_EQ(0, ops->unlock(&self->b));
	ASSERT_EQ(0, ctrl()) TH_LOG("a timed-out lock was counted");
	let_go(&h);

	/* Taken in time, it counts. */
	for (i = 0; i < TRIES && !ok; i++) {
		t = in_ms(CLOCK_REALTIME, 1000);
		ASSERT_EQ(0, ops->timedlock(&self->a, &t));
		ok = asking();
		ASSERT_EQ(0, ops->unlock(&self->a));
		ASSERT_EQ(0, ctrl());
		t = in_ms(CLOCK_MONOTONIC, 1000);
		ASSERT_EQ(0, ops->clocklock(&self->a, &t));
		ok &= asking();
		ASSERT_EQ(0, ops->unlock(&self->a));
		ASSERT_EQ(0, ctrl());
	}
	ASSERT_TRUE(ok);
}

/*
 * Only the last unlock yields, and only with granted set. The grant is
 * faked (the kernel's state: request cleared, granted set); a switch
 * before the unlock clears it, so that sequence is retried.
 */
TEST_F(locks, yield_only_when_granted)
{
	const struct lock_ops *ops = variant->ops;
	int i, ok = 0;
	long before;

	ASSERT_EQ(0, count_yields());

	for (i = 0; i < TRIES && !ok; i++) {
		before = yields();
		ASSERT_EQ(0, ops->lock(&self->a));
		ASSERT_EQ(0, ops->unlock(&self->a));
		ok = yields() == before;
	}
	ASSERT_TRUE(ok) TH_LOG("yielded without a grant");

	for (i = 0, ok = 0; i < TRIES && !ok; i++) {
		before = yields();
		ASSERT_EQ(0, ops->lock(&self->a));
		fake_grant();
		ASSERT_EQ(0, ops->unlock(&self->a));
		ASSERT_EQ(0, request());
		ok = yields() == before + 1;
		clear_ctrl();
	}
	ASSERT_TRUE(ok) TH_LOG("no yield after a granted section");

	/* Nested: the inner unlock neither yields nor asks beside a grant. */
	for (i = 0, ok = 0; i < TRIES && !ok; i++) {
		before = yields();
		ASSERT_EQ(0, ops->lock(&self->a));
		ASSERT_EQ(0, ops->lock(&self->b));
		fake_grant();
		ASSERT_EQ(0, ops->unlock(&self->b));
		ASSERT_EQ(before, yields());
		ok = ctrl() == (1U << 8);	/* granted, no request */
		ASSERT_EQ(0, ops->unlock(&self->a));
		ASSERT_EQ(0, request());
		ok &= yields() == before + 1;
		clear_ctrl();
	}
	ASSERT_TRUE(ok) TH_LOG("nested unlock inside a grant misbehaved");
}

/*
 * fork() inside a locked region: the child holds what the parent held
 * (its copy of the lock, and the same count), and the kernel kept its
 * opt-in. Failures in the child come back as bits of its exit status.
 */
TEST_F(locks, fork_in_locked_region)
{
	const struct lock_ops *ops = variant->ops;
	int status, i, ok;
	pid_t pid;

	if (variant->child_cannot_unlock)
		SKIP(return, "a child cannot release its parent's write lock");
	ASSERT_EQ(0, ops->lock(&self->a));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int fail = 0;

		if (slice_get() != PR_RSEQ_SLICE_EXT_ENABLE)
			fail |= 1;
		/* Still one lock held: a nested pair leaves a request. */
		for (i = 0, ok = 0; i < TRIES && !ok; i++) {
			ops->lock(&self->b);
			ops->unlock(&self->b);
			ok = asking();
		}
		if (!ok)
			fail |= 2;
		if (ops->unlock(&self->a) || ctrl())
			fail |= 4;
		for (i = 0, ok = 0; i < TRIES && !ok; i++) {
			ops->lock(&self->a);
			ok = asking();
			ops->unlock(&self->a);
		}
		if (!ok || ctrl())
			fail |= 8;
		_exit(fail);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) {
		TH_LOG("child: 1 opt-in lost, 2 count lost, 4 unlock left a "
		       "request, 8 no request after");
	}

	for (i = 0, ok = 0; i < TRIES && !ok; i++) {
		ASSERT_EQ(0, ops->lock(&self->b));
		ASSERT_EQ(0, ops->unlock(&self->b));
		ok = asking();
	}
	ASSERT_TRUE(ok) TH_LOG("parent lost its count across fork()");
	ASSERT_EQ(0, ops->unlock(&self->a));
	ASSERT_EQ(0, ctrl());
	ASSERT_EQ(PR_RSEQ_SLICE_EXT_ENABLE, slice_get());
}

/* --- condition variables ----------------------------------------------- */

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

/* --- threads ------------------------------------------------------------ */

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

/* --- modes for 84-preload.sh -------------------------------------------- */

/* Whether holding a lock of this kind ever shows a request. */
static int kind_asks(const struct lock_ops *ops)
{
	union lock l;
	int i, seen = 0;

	ops->init(&l);
	for (i = 0; i < TRIES && !seen; i++) {
		ops->lock(&l);
		seen = asking();
		ops->unlock(&l);
	}
	return seen;
}

/* After a wait that slept (which clears slice_ctrl): asked again? */
static int cond_asks(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec t;
	int i, seen = 0;

	for (i = 0; i < TRIES && !seen; i++) {
		pthread_mutex_lock(&m);
		t = in_ms(CLOCK_REALTIME, 2);
		pthread_cond_timedwait(&c, &m, &t);
		seen = asking();
		pthread_mutex_unlock(&m);
	}
	return seen;
}

static int kinds_main(void)
{
	if (!__rseq_size) {
		fprintf(stderr, "preload_locks: no rseq area\n");
		return 2;
	}
	printf("mutex %d\n", kind_asks(&mutex_ops));
	printf("spin %d\n", kind_asks(&spin_ops));
	printf("rwlock %d\n", kind_asks(&rd_ops) | kind_asks(&wr_ops));
	printf("cond %d\n", cond_asks());
	printf("enabled %d\n", slice_get());
	return 0;
}

static pthread_mutex_t work_lock = PTHREAD_MUTEX_INITIALIZER;
static int work_stop;
static unsigned long work_sections;

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("preload_locks: sched_setaffinity");
		exit(1);
	}
}

/* Fixed work, no system call: a clock read may be one in the guest. */
static void busy(unsigned long n)
{
	while (n--)
		__asm__ __volatile__("" ::: "memory");
}

static void *worker(void *arg)
{
	unsigned long n = 0;

	(void)arg;
	pin_cpu0();
	while (!__atomic_load_n(&work_stop, __ATOMIC_RELAXED)) {
		/*
		 * Most of the loop inside, so that preemptions land there;
		 * short sections, so that a grant usually outlasts the rest
		 * of one and ends in a yield, even under emulation.
		 */
		pthread_mutex_lock(&work_lock);
		busy(4000);
		work_sections++;
		pthread_mutex_unlock(&work_lock);
		busy(1000);
		n++;
	}
	return (void *)n;
}

static int work_main(int argc, char **argv)
{
	int secs, threads, hogs, i;
	pthread_t th[64];
	pid_t pid[64];

	if (argc != 3) {
		fprintf(stderr, "usage: preload_locks work SECONDS THREADS HOGS\n");
		return 2;
	}
	secs = atoi(argv[0]);
	threads = atoi(argv[1]);
	hogs = atoi(argv[2]);
	if (secs <= 0 || threads <= 0 || threads > 64 || hogs < 0 || hogs > 64) {
		fprintf(stderr, "preload_locks: work: bad SECONDS, THREADS or HOGS\n");
		return 2;
	}
	/* Hogs first, as processes: they take no lock. */
	for (i = 0; i < hogs; i++) {
		pid[i] = fork();
		if (pid[i] < 0) {
			perror("preload_locks: fork");
			return 1;
		}
		if (!pid[i]) {
			pin_cpu0();
			for (;;)
				busy(1000000);
		}
	}
	for (i = 0; i < threads; i++)
		if (pthread_create(&th[i], NULL, worker, NULL)) {
			fprintf(stderr, "preload_locks: pthread_create failed\n");
			return 1;
		}
	sleep((unsigned int)secs);
	__atomic_store_n(&work_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < hogs; i++) {
		kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}
	printf("sections %lu\n", work_sections);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "kinds"))
		return kinds_main();
	if (argc > 1 && !strcmp(argv[1], "work"))
		return work_main(argc - 2, argv + 2);
	return test_harness_run(argc, argv);
}
