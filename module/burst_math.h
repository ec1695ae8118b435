/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sliceext: the arithmetic of burst-aware scheduling (BORE semantics,
 * docs/design.md), kept free of any kernel dependency so that the same
 * file builds into the module and into a host unit test
 * (tests/host/burst-math.sh).
 *
 * A task's burst time is the CPU time it has run since it last slept or
 * yielded. Its penalty grows with the logarithm of that time, so a task
 * that runs 10x longer than another is only a few priority steps worse
 * off, not 10x: interactive tasks (short bursts) keep their nice level and
 * CPU hogs drift towards nice 19.
 *
 * burst_math.c includes nothing but this header, which includes only
 * type definitions; both divide only by 32-bit values, so they need
 * neither libc nor the kernel's 64-bit division helpers.
 */
#ifndef _SLICEEXT_BURST_MATH_H
#define _SLICEEXT_BURST_MATH_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
/*
 * The kernel's own definitions (asm-generic/int-ll64.h) rather than
 * <stdint.h>'s: u64 is unsigned long long in both builds, so the same
 * format strings and overflow reasoning hold in the module and the test.
 */
#include <stdbool.h>
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed int s32;
typedef signed long long s64;
#endif

/*
 * Penalties are in 1/256 score units: the 8 fraction bits let smoothing
 * move a remembered penalty by less than a whole priority step, and keep
 * the rounding of the scale factor out of the score.
 */
#define BURST_PENALTY_SHIFT	8
/* Forty scores, 0..39: the width of the nice range. */
#define BURST_SCORE_MAX		39
#define BURST_PENALTY_MAX	((40U << BURST_PENALTY_SHIFT) - 1)
/* BORE samples at most this many children for the inherited average. */
#define BURST_CACHE_SAMPLES	63

/* The penalty scale is in 1/1024 units: 1024 is one score per doubling. */
#define BURST_SCALE_SHIFT	10

/*
 * The three below run in the scheduler hooks at every runtime update and
 * every sleep, so they are inline, as BORE's own arithmetic is; the rest
 * runs at fork or in tracing (burst_math.c).
 */

/*
 * log2(v) + 1 in 8.8 fixed point: the bit length of v as the integer part
 * and the 8 bits below the top bit as the fraction (a piecewise linear
 * log2, exact at powers of two); 0 for v == 0. Fixed point because the
 * scheduler cannot use floating point, and 8.8 because 8 bits of fraction
 * are more than the 1/256 score resolution needs.
 */
static inline u32 burst_log2p1(u64 v)
{
	u32 bits, frac;

	if (!v)
		return 0;
	/*
	 * __builtin_clzll() is a compiler builtin, not a library call:
	 * one instruction on x86_64, and what the kernel's own generic
	 * fls64() is built on.
	 */
	bits = 64 - (u32)__builtin_clzll(v);
	/*
	 * Move the top bit to bit 63, keep it and the 8 bits below it, then
	 * drop it: what is left is the fraction.
	 */
	frac = (u32)((v << (64 - bits)) >> 55) & 0xff;
	return bits << BURST_PENALTY_SHIFT | frac;
}

/*
 * The penalty for a burst of burst_ns:
 * clamp(((burst_log2p1(burst_ns) - (offset << 8)) * scale) >> 10,
 *       0, BURST_PENALTY_MAX).
 * Bursts up to 2^(offset - 1) ns cost nothing; each doubling beyond costs
 * scale / 1024 score points (1.5 with the defaults offset 24, scale 1536).
 */
static inline u32 burst_penalty(u64 burst_ns, u32 offset, u32 scale)
{
	/* Signed and 64-bit: any offset or scale is safe, not only 0..63. */
	s64 excess = (s64)burst_log2p1(burst_ns) -
		     ((s64)offset << BURST_PENALTY_SHIFT);
	u64 penalty;

	if (excess <= 0)
		return 0;
	/* excess < 2^15 and scale < 2^32: the product fits in 47 bits. */
	penalty = ((u64)excess * scale) >> BURST_SCALE_SHIFT;
	return penalty < BURST_PENALTY_MAX ? (u32)penalty : BURST_PENALTY_MAX;
}

/*
 * The remembered penalty at a burst restart: rises towards new by
 * ceil((new - old) / 2^smoothness), drops to new at once. One long burst
 * then does not ruin a task's score, a task that keeps running long
 * bursts gets there in a few rounds, and a task that turns interactive is
 * forgiven at once.
 */
static inline u32 burst_smooth(u32 old, u32 new, u32 smoothness)
{
	u32 rise;

	if (new <= old)
		return new;
	/* Only 0..3 is meaningful; this just keeps the shift defined. */
	if (smoothness > 31)
		smoothness = 31;
	rise = new - old;
	/*
	 * Round up: rounding down would leave a remembered penalty stuck
	 * up to 2^smoothness - 1 below a steady current one for ever.
	 * Written without (rise + 2^s - 1) so that it cannot overflow.
	 */
	return old + (rise >> smoothness) +
	       !!(rise & ((1U << smoothness) - 1));
}

static inline u32 burst_score(u32 penalty)
{
	return penalty >> BURST_PENALTY_SHIFT;
}

/*
 * The effective static priority index (0 for nice -20 .. 39 for nice 19):
 * clamp(nice + 20 + score, 0, 39). The score only ever lowers priority.
 */
u32 burst_prio(int nice, u32 score);

/*
 * Average of sampled penalties, for what a new task inherits at fork. At
 * most BURST_CACHE_SAMPLES samples count (the walk that takes them has a
 * bound of its own, for the tasks it skips); the sum cannot overflow since
 * every sample is clamped to BURST_PENALTY_MAX.
 */
struct burst_avg {
	u32 sum;
	u32 count;
};

/* Adds a sample; false, and the sample ignored, once the average is full. */
bool burst_avg_add(struct burst_avg *avg, u32 penalty);
/* sum / count rounded down, 0 if empty. */
u32 burst_avg_get(const struct burst_avg *avg);

/*
 * A cached average, packed into one u64 so that it can be read and
 * written with READ_ONCE()/WRITE_ONCE() without a lock and can never be
 * seen half-updated: bits 63..16 hold now_ns >> 10, bit 15 says valid and
 * bits 14..0 hold the penalty (at most BURST_PENALTY_MAX). The stamp's
 * 1024 ns granularity is far finer than any useful lifetime, and its 48
 * bits wrap only after 9 years; an all-zero word is invalid.
 */
u64 burst_cache_pack(u32 penalty, u64 now_ns);

/*
 * True, with *penalty set, if cache is valid and
 * now_ns - stamp < lifetime_ns. A lifetime of 0 disables the cache, and a
 * stamp in the future (another CPU's clock a little ahead) counts as
 * fresh. *penalty is left alone when false.
 */
bool burst_cache_lookup(u64 cache, u64 now_ns, u64 lifetime_ns, u32 *penalty);

#endif /* _SLICEEXT_BURST_MATH_H */
