// SPDX-License-Identifier: GPL-2.0
/*
 * sliceext: the arithmetic of burst-aware scheduling, with no kernel or
 * libc dependency (see burst_math.h). Every 64-bit value here is only
 * shifted, added or multiplied, never divided, so that the code needs no
 * 64-bit division helper on any architecture.
 */
#include "burst_math.h"

/*
 * Cache word layout (burst_math.h): penalty in bits 14..0, the valid bit
 * just above it, and the stamp, in 1024 ns units, from bit 16 up.
 */
#define BURST_CACHE_PENALTY_MASK	0x7fffU
#define BURST_CACHE_VALID		(BURST_CACHE_PENALTY_MASK + 1)
#define BURST_CACHE_STAMP_SHIFT		10
#define BURST_CACHE_STAMP_POS		16
#define BURST_CACHE_STAMP_MASK		(~0ULL << BURST_CACHE_STAMP_POS)

u32 burst_prio(int nice, u32 score)
{
	s64 prio = (s64)nice + 20 + score;

	/* The score spans the whole nice range, so 39 is also its top. */
	if (prio < 0)
		return 0;
	if (prio > BURST_SCORE_MAX)
		return BURST_SCORE_MAX;
	return (u32)prio;
}

bool burst_avg_add(struct burst_avg *avg, u32 penalty)
{
	if (avg->count >= BURST_CACHE_SAMPLES)
		return false;
	/* Clamped, so 63 samples can never overflow the sum. */
	avg->sum += penalty < BURST_PENALTY_MAX ? penalty : BURST_PENALTY_MAX;
	avg->count++;
	return true;
}

u32 burst_avg_get(const struct burst_avg *avg)
{
	return avg->count ? avg->sum / avg->count : 0;
}

u64 burst_cache_pack(u32 penalty, u64 now_ns)
{
	if (penalty > BURST_PENALTY_MAX)
		penalty = BURST_PENALTY_MAX;
	/* The shift up drops the stamp's top 6 bits: it wraps at 2^48. */
	return (now_ns >> BURST_CACHE_STAMP_SHIFT) << BURST_CACHE_STAMP_POS |
	       BURST_CACHE_VALID | penalty;
}

bool burst_cache_lookup(u64 cache, u64 now_ns, u64 lifetime_ns, u32 *penalty)
{
	u64 age, age_ns;

	if (!(cache & BURST_CACHE_VALID) || !lifetime_ns)
		return false;
	/*
	 * Subtract the stamps where they sit, in the top 48 bits: the
	 * difference then wraps exactly as the stamp does, and bit 63 is
	 * its sign. A negative age is a stamp from a clock slightly ahead
	 * of ours (another CPU's): fresh.
	 */
	age = ((now_ns >> BURST_CACHE_STAMP_SHIFT) << BURST_CACHE_STAMP_POS) -
	      (cache & BURST_CACHE_STAMP_MASK);
	if (!(age >> 63)) {
		/*
		 * now_ns minus the stamp in ns, exactly: the stamp had its
		 * low 10 bits cleared, now_ns keeps them. So the entry
		 * expires up to 1023 ns early, never late.
		 */
		age_ns = (age >> BURST_CACHE_STAMP_POS << BURST_CACHE_STAMP_SHIFT) |
			 (now_ns & ((1U << BURST_CACHE_STAMP_SHIFT) - 1));
		if (age_ns >= lifetime_ns)
			return false;
	}
	*penalty = (u32)(cache & BURST_CACHE_PENALTY_MASK);
	return true;
}
