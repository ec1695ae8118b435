/* SPDX-License-Identifier: GPL-2.0 */
/*
 * preload_locks: what libsliceext-preload.so did to this thread, read
 * where the kernel reads it (the rseq area glibc registered, prctl) and
 * counted where the kernel counts it (its rseq_slice_yield() calls).
 *
 * The kernel clears slice_ctrl whenever the thread is switched out, so a
 * request can vanish between the library's store and our load. Checks
 * that a request is up therefore retry their whole sequence TRIES times
 * (nothing but the library ever sets it, so one sighting is proof);
 * checks that it is down never need to.
 */
#ifndef _PRELOAD_AREA_H
#define _PRELOAD_AREA_H

#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <linux/rseq.h>

#include "kselftest_harness.h"

#define STATUS_BITS	(RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE | \
			 RSEQ_CS_FLAG_SLICE_EXT_ENABLED)
#define TRIES		20	/* sequences that look for a request */

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

#endif /* _PRELOAD_AREA_H */
