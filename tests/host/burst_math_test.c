// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of module/burst_math.c, the burst-aware scheduling
 * arithmetic (docs/design.md, "The burst score"). Built and run by
 * burst-math.sh; prints TAP.
 * Every expected value is worked out by hand in the comment next to it,
 * from the formulas in burst_math.h, not by running the code under test.
 *
 * Notation: log2p1(v) = 256 * bitlen(v) + (the 8 bits below the top bit).
 * With the default offset 24 the tolerance is 24 << 8 = 6144, and with the
 * default scale 1536 the penalty is floor((greed - 6144) * 1.5).
 */
#include <stdio.h>

#include "../../module/burst_math.c"

#define U64_MAX_	(~0ULL)
#define U32_MAX_	(~0U)
#define LIFETIME	75000000ULL	/* burst/cache_lifetime_ns default */
#define T0		(1024ULL * 1000000)	/* a stamp-aligned "now" */

static int tests, failures;

static void check(const char *what, unsigned long long expected,
		  unsigned long long got)
{
	tests++;
	if (expected == got) {
		printf("ok %d - %s\n", tests, what);
		return;
	}
	failures++;
	printf("not ok %d - %s\n", tests, what);
	printf("# expected %llu (0x%llx), got %llu (0x%llx)\n",
	       expected, expected, got, got);
}

static void test_log2p1(void)
{
	/* No bits at all: defined as 0 (fls64(0) == 0). */
	check("log2p1(0) = 0", 0, burst_log2p1(0));
	/* bitlen 1, nothing below the top bit: 1 << 8. */
	check("log2p1(1) = 1.0 (256)", 256, burst_log2p1(1));
	/* 0b10: bitlen 2, fraction 0: 2 << 8. */
	check("log2p1(2) = 2.0 (512)", 512, burst_log2p1(2));
	/* 0b11: bitlen 2, fraction 0b1000_0000 = 128: 512 + 128. */
	check("log2p1(3) = 2.5 (640)", 640, burst_log2p1(3));
	/* bitlen 11: 11 * 256. */
	check("log2p1(2^10) = 11.0 (2816)", 2816, burst_log2p1(1ULL << 10));
	/* bitlen 25: 25 * 256. */
	check("log2p1(2^24) = 25.0 (6400)", 6400, burst_log2p1(1ULL << 24));
	/* All ones, bitlen 24: 24 * 256 + 0xff. */
	check("log2p1(2^24 - 1) = 6399", 6399, burst_log2p1((1ULL << 24) - 1));
	/* bitlen 64: 64 * 256, the top bit needs no shift. */
	check("log2p1(2^63) = 64.0 (16384)", 16384, burst_log2p1(1ULL << 63));
	/* 0b11 << 20: bitlen 22, fraction 128: 22 * 256 + 128. */
	check("log2p1(3 << 20) = 5760", 5760, burst_log2p1(3ULL << 20));
	/*
	 * 2^29 = 536870912 <= 1e9 < 2^30: bitlen 30. The 9 top bits are
	 * 1e9 >> 21 = 476 (1e9 / 2097152 = 476.8), so the fraction is
	 * 476 - 256 = 220: 30 * 256 + 220.
	 */
	check("log2p1(1e9) = 7900", 7900, burst_log2p1(1000000000ULL));
	/* bitlen 64, fraction 0xff: 64 * 256 + 255, the largest value. */
	check("log2p1(UINT64_MAX) = 16639", 16639, burst_log2p1(U64_MAX_));
}

static void test_penalty(void)
{
	/* 2^23: bitlen 24, greed 6144 = tolerance: nothing to pay. */
	check("penalty at 2^(offset-1) ns is 0", 0,
	      burst_penalty(1ULL << 23, 24, 1536));
	/* 2^23 - 1: greed 23 * 256 + 255 = 6143 < 6144: clamped to 0. */
	check("penalty just below the offset is 0", 0,
	      burst_penalty((1ULL << 23) - 1, 24, 1536));
	/*
	 * 2^23 + 2^15: the bit below the top 8 is 2^15, so the fraction is
	 * 1 and greed 6145: (1 * 1536) >> 10 = 1.
	 */
	check("penalty just above the offset is 1", 1,
	      burst_penalty((1ULL << 23) + (1ULL << 15), 24, 1536));
	/*
	 * 1 ms = 1e6 ns: 2^19 <= 1e6 < 2^20, bitlen 20, top 9 bits
	 * 1e6 >> 11 = 488: greed 20 * 256 + 232 = 5352 < 6144.
	 */
	check("penalty(1 ms) = 0", 0, burst_penalty(1000000ULL, 24, 1536));
	/*
	 * 16.7 ms: 2^23 <= 16.7e6 < 2^24, bitlen 24, top 9 bits
	 * 16.7e6 >> 15 = 509: greed 6144 + 253, excess 253,
	 * 253 * 1536 = 388608, >> 10 = 379 (score 1).
	 */
	check("penalty(16.7 ms) = 379", 379,
	      burst_penalty(16700000ULL, 24, 1536));
	/*
	 * 100 ms: 2^26 <= 1e8 < 2^27, bitlen 27, 1e8 >> 18 = 381: greed
	 * 6912 + 125 = 7037, excess 893, 893 * 1536 >> 10 = 1339 (score 5).
	 */
	check("penalty(100 ms) = 1339", 1339,
	      burst_penalty(100000000ULL, 24, 1536));
	/* 1 s: greed 7900 (above), excess 1756, * 1.5 = 2634 (score 10). */
	check("penalty(1 s) = 2634", 2634,
	      burst_penalty(1000000000ULL, 24, 1536));
	/*
	 * 10 s: 2^33 <= 1e10 < 2^34, bitlen 34, 1e10 >> 25 = 298: greed
	 * 8704 + 42 = 8746, excess 2602, * 1.5 = 3903 (score 15).
	 */
	check("penalty(10 s) = 3903", 3903,
	      burst_penalty(10000000000ULL, 24, 1536));
	check("score(penalty(10 s)) = 15", 15,
	      burst_score(burst_penalty(10000000000ULL, 24, 1536)));
	/*
	 * Worst case: greed 16639, offset 0, scale 4095:
	 * 16639 * 4095 >> 10 = 66539, capped to 40 * 256 - 1 = 10239.
	 */
	check("penalty caps at BURST_PENALTY_MAX", 10239,
	      burst_penalty(U64_MAX_, 0, 4095));
	check("capped penalty is score 39", 39,
	      burst_score(burst_penalty(U64_MAX_, 0, 4095)));
	/* Scale 0 multiplies any excess away. */
	check("scale 0 gives 0", 0, burst_penalty(10000000000ULL, 24, 0));
	/* Offset 63: tolerance 16128, UINT64_MAX has excess 511: 766. */
	check("offset 63: penalty(UINT64_MAX) = 766", 766,
	      burst_penalty(U64_MAX_, 63, 1536));
	/* Offset 63: 2^62 has bitlen 63, greed 16128 = tolerance. */
	check("offset 63: penalty(2^62) = 0", 0,
	      burst_penalty(1ULL << 62, 63, 1536));
}

static void test_smooth(void)
{
	u32 s, p, steps, over;

	/* Smoothness 0: 2^0 = 1, the whole rise at once. */
	check("smooth s0: 100 -> 300 gives 300", 300, burst_smooth(100, 300, 0));
	/* Smoothness 1: half of 200. */
	check("smooth s1: 100 -> 300 gives 200", 200, burst_smooth(100, 300, 1));
	/* Half of 201 is 100.5, rounded up: 101. */
	check("smooth s1: 100 -> 301 gives 201 (ceil)", 201,
	      burst_smooth(100, 301, 1));
	/* A quarter of 10 is 2.5, rounded up: 3. */
	check("smooth s2: 0 -> 10 gives 3 (ceil)", 3, burst_smooth(0, 10, 2));
	/* A quarter of 8 is exactly 2. */
	check("smooth s2: 0 -> 8 gives 2", 2, burst_smooth(0, 8, 2));
	/* An eighth of 1 is 0.125, rounded up: 1, so it cannot stall. */
	check("smooth s3: 0 -> 1 gives 1 (ceil)", 1, burst_smooth(0, 1, 3));
	/* An eighth of 8000 is 1000. */
	check("smooth s3: 1000 -> 9000 gives 2000", 2000,
	      burst_smooth(1000, 9000, 3));
	/* A drop is taken at once, whatever the smoothness. */
	for (s = 0; s <= 3; s++) {
		char what[64];

		snprintf(what, sizeof(what),
			 "smooth s%u: 5000 -> 100 drops to 100", s);
		check(what, 100, burst_smooth(5000, 100, s));
	}
	check("smooth s1: no change stays", 500, burst_smooth(500, 500, 1));
	/* Half of 2^32 - 1, rounded up: 2^31, with no overflow. */
	check("smooth s1: 0 -> U32_MAX gives 2^31", 1U << 31,
	      burst_smooth(0, U32_MAX_, 1));
	/*
	 * With s1 the distance left goes d -> floor(d / 2), so it reaches
	 * 0 after bitlen(d) restarts: 10239 < 2^14, 14 of them.
	 */
	for (p = 0, steps = 0; p != 10239 && steps < 100; steps++)
		p = burst_smooth(p, 10239, 1);
	check("smooth s1: 0 reaches 10239 in 14 restarts", 14, steps);
	/* s3 gets there too, and never overshoots on the way. */
	for (p = 0, steps = 0, over = 0; steps < 100; steps++) {
		p = burst_smooth(p, 10239, 3);
		over += p > 10239;
	}
	check("smooth s3: converges to 10239 without overshoot", 10239,
	      over ? 0 : p);
}

static void test_prio(void)
{
	/* Index = nice + 20 + score, clamped to 0..39. */
	check("prio(nice -20, score 0) = 0", 0, burst_prio(-20, 0));
	check("prio(nice -20, score 10) = 10", 10, burst_prio(-20, 10));
	check("prio(nice -20, score 39) = 39", 39, burst_prio(-20, 39));
	check("prio(nice 0, score 0) = 20", 20, burst_prio(0, 0));
	check("prio(nice 0, score 10) = 30", 30, burst_prio(0, 10));
	/* 0 + 20 + 39 = 59, clamped. */
	check("prio(nice 0, score 39) = 39 (clamped)", 39, burst_prio(0, 39));
	check("prio(nice 5, score 0) = 25", 25, burst_prio(5, 0));
	check("prio(nice 5, score 10) = 35", 35, burst_prio(5, 10));
	check("prio(nice 19, score 0) = 39", 39, burst_prio(19, 0));
	/* 19 + 20 + 10 = 49, clamped. */
	check("prio(nice 19, score 10) = 39 (clamped)", 39, burst_prio(19, 10));
	/* An out-of-range nice: -25 + 20 = -5, clamped to 0. */
	check("prio(nice -25, score 0) = 0 (clamped)", 0, burst_prio(-25, 0));
	/* A score that would wrap 32-bit arithmetic still clamps. */
	check("prio(nice 5, score U32_MAX) = 39", 39, burst_prio(5, U32_MAX_));
	/* 255 is 0.996 of a score: the fraction never counts. */
	check("score(255) = 0", 0, burst_score(255));
	check("score(256) = 1", 1, burst_score(256));
}

static void test_avg(void)
{
	struct burst_avg avg = { 0, 0 };
	u32 i, accepted = 0;

	check("avg of nothing is 0", 0, burst_avg_get(&avg));
	/* (100 + 200 + 301) / 3 = 601 / 3 = 200.33, rounded down. */
	burst_avg_add(&avg, 100);
	burst_avg_add(&avg, 200);
	burst_avg_add(&avg, 301);
	check("avg(100, 200, 301) = 200", 200, burst_avg_get(&avg));

	/* 64 tries at the maximum: 63 accepted, sum 63 * 10239. */
	avg = (struct burst_avg){ 0, 0 };
	for (i = 0; i < 64; i++)
		accepted += burst_avg_add(&avg, BURST_PENALTY_MAX);
	check("avg takes 63 samples", 63, accepted);
	/* A 64th sample of 0 would pull the average down: ignored. */
	check("avg refuses a 64th sample", 0, burst_avg_add(&avg, 0));
	check("avg of 63 maxima is the maximum", 10239, burst_avg_get(&avg));

	/* Over-range samples count as the maximum: no sum overflow. */
	avg = (struct burst_avg){ 0, 0 };
	burst_avg_add(&avg, U32_MAX_);
	burst_avg_add(&avg, 1);
	/* (10239 + 1) / 2 = 5120. */
	check("avg clamps samples to the maximum", 5120, burst_avg_get(&avg));
}

/* The looked-up penalty, or 99999 when the lookup misses. */
static u32 lookup(u64 cache, u64 now, u64 lifetime)
{
	u32 p = 99999;

	return burst_cache_lookup(cache, now, lifetime, &p) ? p : 99999;
}

static void test_cache(void)
{
	u64 c = burst_cache_pack(1234, T0);

	/* 2048 ns is stamp 2: (2 << 16) | valid (0x8000) | 5 = 0x28005. */
	check("cache word layout", 0x28005, burst_cache_pack(5, 2048));
	check("cache fresh after 1 us", 1234, lookup(c, T0 + 1000, LIFETIME));
	check("cache fresh 1 ns before its lifetime", 1234,
	      lookup(c, T0 + LIFETIME - 1, LIFETIME));
	check("cache expires exactly at its lifetime", 99999,
	      lookup(c, T0 + LIFETIME, LIFETIME));
	check("cache lifetime 0 is never valid", 99999, lookup(c, T0, 0));
	check("cache lifetime 0 beats a future stamp", 99999,
	      lookup(c, T0 - 5000, 0));
	check("all-zero cache word is invalid", 99999,
	      lookup(0, T0, LIFETIME));
	/* The valid bit sets a word of penalty 0 at time 0 apart from 0. */
	check("cache of penalty 0 at time 0 is valid", 0,
	      lookup(burst_cache_pack(0, 0), 0, 1));
	/* A stamp 5 us ahead of now (another CPU's clock): fresh. */
	check("cache stamp in the future is fresh", 1234,
	      lookup(c, T0 - 5000, LIFETIME));
	/* now_ns >> 10: T0 + 1023 shares T0's stamp, T0 + 1024 does not. */
	check("cache stamp granularity is 1024 ns", 1,
	      burst_cache_pack(7, T0 + 1023) == burst_cache_pack(7, T0) &&
	      burst_cache_pack(7, T0 + 1024) != burst_cache_pack(7, T0));
	/*
	 * Packed at T0 + 1023 the stamp is T0: the entry ages from T0,
	 * so it expires 1023 ns early, at T0 + lifetime, never late.
	 */
	c = burst_cache_pack(77, T0 + 1023);
	check("rounded stamp: fresh 1 ns before T0 + lifetime", 77,
	      lookup(c, T0 + LIFETIME - 1, LIFETIME));
	check("rounded stamp: expired at T0 + lifetime", 99999,
	      lookup(c, T0 + LIFETIME, LIFETIME));
	check("cache keeps BURST_PENALTY_MAX", 10239,
	      lookup(burst_cache_pack(BURST_PENALTY_MAX, T0), T0, LIFETIME));
	/* An over-range penalty must not spill into the valid bit. */
	check("cache pack clamps the penalty", 10239,
	      lookup(burst_cache_pack(U32_MAX_, T0), T0, LIFETIME));
	/*
	 * The stamp is 48 bits of 1024 ns: it wraps at 2^58 ns. Packed at
	 * 2^58 - 1024 (stamp 2^48 - 1), looked up at 2^58 + 1000 (stamp 0):
	 * the age is 1024 + 1000 ns, fresh; 2^58 - 1024 + lifetime is the
	 * first expired instant.
	 */
	c = burst_cache_pack(42, (1ULL << 58) - 1024);
	check("cache age across the stamp wrap: fresh", 42,
	      lookup(c, (1ULL << 58) + 1000, LIFETIME));
	check("cache age across the stamp wrap: expired", 99999,
	      lookup(c, (1ULL << 58) - 1024 + LIFETIME, LIFETIME));
}

int main(void)
{
	printf("TAP version 13\n");
	test_log2p1();
	test_penalty();
	test_smooth();
	test_prio();
	test_avg();
	test_cache();
	/* A trailing plan: the count is whatever ran, so it cannot drift. */
	printf("1..%d\n", tests);
	return failures ? 1 : 0;
}
