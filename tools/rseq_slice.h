/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * rseq_slice.h - header-only helpers for the rseq time slice extension
 * (Linux 7.0 ABI; Linux 6.12 with sliceext).
 *
 * Build with the sliceext uapi/ directory first on the include path, so
 * <linux/rseq.h> has struct rseq_slice_ctrl and __NR_rseq_slice_yield.
 *
 * Use from the thread that owns the rseq area:
 *
 *	struct rseq *rs = rseq_slice_area();
 *
 *	if (!rs || rseq_slice_enable())
 *		...run without extensions...
 *	rseq_slice_enter(rs);
 *	...short critical section...
 *	rseq_slice_leave(rs);
 *
 * The prctl() setting is per thread: each thread enables it for itself.
 */
#ifndef _RSEQ_SLICE_H
#define _RSEQ_SLICE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/rseq.h>
#include <linux/prctl.h>
#include <sys/prctl.h>
#include <unistd.h>

#ifdef __has_include
#if __has_include(<sys/rseq.h>)
/* glibc >= 2.35: __rseq_offset, __rseq_size */
#include <sys/rseq.h>
#define RSEQ_SLICE_HAVE_GLIBC_RSEQ
#endif
#endif

#ifdef RSEQ_SLICE_HAVE_GLIBC_RSEQ
#define RSEQ_SLICE_GLIBC_RSEQ_SIZE	__rseq_size
#else
/* Older glibc: maybe no rseq symbols at all; weak so that linking works. */
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));
#define RSEQ_SLICE_GLIBC_RSEQ_SIZE	(&__rseq_size ? __rseq_size : 0)
#endif

#ifndef __NR_rseq_slice_yield
/* x86_64 only, from sliceext's uapi/ ahead of the system headers. */
#error "__NR_rseq_slice_yield unknown: put sliceext's uapi/ first (-I)"
#endif

/* syscall() is only declared with _DEFAULT_SOURCE; -std=c11 lacks it. */
long syscall(long number, ...);

/*
 * The area a thread registered itself, which then overrides glibc's. One
 * weak definition is shared by every file that includes this header.
 */
__attribute__((weak)) _Thread_local struct rseq *rseq_slice_own_area;

#ifdef __has_builtin
#if !__has_builtin(__builtin_thread_pointer) && defined(__x86_64__)
#define RSEQ_SLICE_TP_ASM	/* e.g. GCC < 11 */
#endif
#endif

static inline void *rseq_slice_thread_pointer(void)
{
#ifdef RSEQ_SLICE_TP_ASM
	void *tp;

	/* The x86-64 TCB starts with a pointer to itself. */
	__asm__ ("mov %%fs:0, %0" : "=r" (tp));
	return tp;
#else
	return __builtin_thread_pointer();
#endif
}

/*
 * rseq_slice_set_area - use @rs as the calling thread's rseq area
 *
 * For a thread that registered its own area with rseq(2), e.g. because
 * glibc's registration is off (GLIBC_TUNABLES=glibc.pthread.rseq=0).
 * NULL goes back to glibc's area.
 */
static inline void rseq_slice_set_area(struct rseq *rs)
{
	rseq_slice_own_area = rs;
}

/*
 * rseq_slice_area - the calling thread's rseq area, or NULL if none
 *
 * glibc registers one per thread at the thread pointer plus
 * __rseq_offset. Any nonzero __rseq_size means it is registered: glibc
 * 2.36 reports 20 although it registers 32 bytes, which hold slice_ctrl.
 */
static inline struct rseq *rseq_slice_area(void)
{
	if (rseq_slice_own_area)
		return rseq_slice_own_area;
	if (!RSEQ_SLICE_GLIBC_RSEQ_SIZE)
		return NULL;
	return (struct rseq *)((char *)rseq_slice_thread_pointer() +
			       __rseq_offset);
}

static inline int rseq_slice_prctl(unsigned long op, unsigned long arg)
{
	int ret = prctl(PR_RSEQ_SLICE_EXTENSION, op, arg, 0UL, 0UL);

	return ret < 0 ? -errno : ret;
}

/*
 * rseq_slice_enable - enable the extension for the calling thread
 *
 * Returns 0 or -errno: -ENXIO without a registered rseq area, -ENOTSUPP
 * (524) when disabled or the sliceext module is not loaded, -EINVAL on a
 * kernel without the feature.
 */
static inline int rseq_slice_enable(void)
{
	return rseq_slice_prctl(PR_RSEQ_SLICE_EXTENSION_SET,
				PR_RSEQ_SLICE_EXT_ENABLE);
}

/* rseq_slice_disable - disable it for the calling thread; 0 or -errno */
static inline int rseq_slice_disable(void)
{
	return rseq_slice_prctl(PR_RSEQ_SLICE_EXTENSION_SET, 0);
}

/* rseq_slice_enabled - whether it is enabled for the calling thread */
static inline bool rseq_slice_enabled(void)
{
	return rseq_slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0) ==
	       PR_RSEQ_SLICE_EXT_ENABLE;
}

/*
 * rseq_slice_yield - give the CPU back after a granted extension
 *
 * Returns 1 if the caller yielded inside a live grant, 0 if the grant
 * was already over, -1 with errno on a kernel without the syscall.
 */
static inline long rseq_slice_yield(void)
{
	return syscall(__NR_rseq_slice_yield);
}

/*
 * rseq_slice_enter - ask for an extension before a critical section
 *
 * The kernel reads and writes slice_ctrl only on this thread's CPU, when
 * an interrupt returns to this thread, much like a signal handler: a
 * plain store and a compiler barrier suffice, no atomic instruction. The
 * barrier keeps the critical section from moving above the request.
 */
static inline void rseq_slice_enter(struct rseq *rs)
{
	__atomic_store_n(&rs->slice_ctrl.request, 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/*
 * rseq_slice_leave - withdraw the request after the critical section
 *
 * If the kernel granted an extension meanwhile (it then cleared request
 * and set granted), the thread owes the CPU back at once: call
 * rseq_slice_yield(). Returns true if it yielded inside a live grant.
 */
static inline bool rseq_slice_leave(struct rseq *rs)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&rs->slice_ctrl.request, 0, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&rs->slice_ctrl.granted, __ATOMIC_RELAXED))
		return false;
	return rseq_slice_yield() == 1;
}

#endif /* _RSEQ_SLICE_H */
