/* SPDX-License-Identifier: GPL-2.0 */
/*
 * preload_locks: the library's rules for one lock kind at a time (a
 * request while any lock is held, none after the last unlock, a yield
 * there only after a grant), run on each kind of preload_lock_ops.h.
 */
#ifndef _PRELOAD_LOCK_TESTS_H
#define _PRELOAD_LOCK_TESTS_H

#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "preload_area.h"
#include "preload_lock_ops.h"

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

#endif /* _PRELOAD_LOCK_TESTS_H */
