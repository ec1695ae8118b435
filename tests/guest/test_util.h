/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the guest test programs: the rseq area, pinning,
 * sliceext's counters. Header-only; each program includes it once.
 */
#ifndef _SLICEEXT_TEST_UTIL_H
#define _SLICEEXT_TEST_UTIL_H

#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/rseq.h>

#ifndef ENOTSUPP
#define ENOTSUPP	524	/* the kernel's, which the 7.0 ABI returns */
#endif
#define RSEQ_TEST_SIG	0x53053053
#define SLICE_STATUS_BITS (RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE | \
			   RSEQ_CS_FLAG_SLICE_EXT_ENABLED)

static inline int sys_rseq(void *rs, uint32_t len, int flags)
{
	return syscall(__NR_rseq, rs, len, flags, RSEQ_TEST_SIG);
}

static inline int slice_prctl(unsigned long op, unsigned long arg)
{
	return prctl(PR_RSEQ_SLICE_EXTENSION, op, arg, 0, 0);
}

/* A zeroed area of @len bytes (32 or more), aligned as rseq(2) wants. */
static inline struct rseq *rseq_area_alloc(uint32_t len)
{
	void *p = aligned_alloc(32, len < 32 ? 32 : (len + 31) & ~31U);

	if (p)
		memset(p, 0, len);
	return p;
}

static inline int pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* One counter of /sys/kernel/debug/sliceext/@file ("name value" lines). */
static inline long long sliceext_counter(const char *file, const char *name)
{
	char path[128], key[64];
	long long val, ret = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/sliceext/%s", file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &val) == 2) {
		if (!strcmp(key, name)) {
			ret = val;
			break;
		}
	}
	fclose(f);
	return ret;
}

/* Write @val to /sys/kernel/debug/sliceext/@knob; 0 or -errno. */
static inline int sliceext_set(const char *knob, const char *val)
{
	char path[128];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/sys/kernel/debug/sliceext/%s", knob);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	if (fputs(val, f) < 0)
		ret = -EIO;
	if (fclose(f))
		ret = -errno;
	return ret;
}

#endif /* _SLICEEXT_TEST_UTIL_H */
