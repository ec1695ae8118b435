// SPDX-License-Identifier: LGPL-2.1 OR MIT
/*
 * libsliceext-preload.so - time slice extensions for unmodified programs
 *
 *	LD_PRELOAD=libsliceext-preload.so program ...
 *
 * Wraps the pthread lock functions. Each thread counts the locks it
 * holds; while the count is above zero its rseq slice_ctrl.request is
 * set, so that the kernel lets a lock holder finish its critical section
 * instead of preempting it (Linux 7.0 ABI, or 6.12 with sliceext). On the
 * last unlock the request is withdrawn and, if the kernel granted an
 * extension meanwhile, the CPU is given back with rseq_slice_yield().
 *
 * A thread turns the extension on for itself (the prctl() is per thread)
 * when it first takes a lock of a kind that is tracked. Where that fails
 * (no sliceext, module not loaded, ext/enabled 0, no rseq area) the
 * thread remembers it, and from then on each call costs one test and
 * branch before it jumps to the C library's function. So do lock kinds
 * not tracked: SLICEEXT_PRELOAD_LOCKS selects them; see docs/preload.md
 * for that and for the limits.
 *
 * The grant is not ours to manage beyond that: a system call made inside
 * a grant (a lock that blocks in futex(), a write()) ends it in the
 * kernel, which then clears slice_ctrl, as does any context switch. The
 * count stays right either way: a request the kernel cleared is set
 * again at the next lock or nested unlock.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rseq_slice.h"

#define LIB_NAME	"libsliceext-preload"
#define LOCKS_ENV	"SLICEEXT_PRELOAD_LOCKS"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define EXPORT		__attribute__((visibility("default")))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Lock kinds, as SLICEEXT_PRELOAD_LOCKS names them. */
enum {
	KIND_MUTEX	= 1 << 0,
	KIND_SPIN	= 1 << 1,
	KIND_RWLOCK	= 1 << 2,
	KIND_COND	= 1 << 3,	/* the waits give back a mutex */
	KIND_ALL	= KIND_MUTEX | KIND_SPIN | KIND_RWLOCK | KIND_COND,
	KINDS_READ	= 1 << 7,	/* in tracked: the environment was read */
};

/*
 * Everything: the library exists to cover the locks of programs nobody
 * changed, a lock/unlock pair costs about 40 instructions more, and a
 * request only ever buys slice_ext_nsec (at most 50 us) once per
 * preemption, which the kernel denies while an RT task waits.
 */
#define KINDS_DEFAULT	KIND_ALL

static const struct {
	const char *name;
	unsigned int kinds;
} kind_names[] = {
	{ "mutex",	KIND_MUTEX },
	{ "spin",	KIND_SPIN },
	{ "rwlock",	KIND_RWLOCK },
	{ "cond",	KIND_COND },
	{ "all",	KIND_ALL },
};

/*
 * The kinds tracked, with KINDS_READ once the environment is read. Until
 * then nothing is counted: a lock taken that early (from another
 * library's constructor) is not, and its unlock finds nothing held and
 * leaves the count alone.
 */
static unsigned int tracked;

enum {
	THREAD_NEW	= 0,	/* no tracked lock taken yet */
	THREAD_ON	= 1,	/* enabled: requests go to ->rs */
	THREAD_OFF	= 2,	/* the kernel does not serve this thread */
};

/*
 * Per thread, zero-filled at thread creation. fork() copies it with the
 * rest of memory, and the child keeps the parent's rseq registration and
 * opt-in (mainline's rseq_fork() and sliceext alike), so a child forked
 * inside a locked region holds the same locks and the same count.
 * Initial-exec: %fs-relative accesses at an offset fixed at load time,
 * no __tls_get_addr() call.
 *
 * ->skip holds the kinds whose calls go straight to the C library: none
 * while the thread is new, the untracked ones once it is on, all once it
 * is known to be off. The wrappers test it first, and then jump.
 */
struct preload_thread {
	struct rseq *rs;
	unsigned int held;	/* tracked locks held */
	unsigned char skip;
	unsigned char state;
};

static __thread struct preload_thread self
	__attribute__((tls_model("initial-exec")));

/*
 * Every wrapped function, once: its kind, what a successful call means
 * for the count (ACQUIRE, RELEASE, or WAIT: a condition wait gives the
 * mutex back while it sleeps), its name, the symbol version to look up
 * (NULL: the default one), its parameters and arguments. The list
 * declares the pointers to the real functions, their bootstrap stubs,
 * their lookup and the exported wrappers; nm -D of the library must show
 * exactly these names (tests/host/preload.sh).
 *
 * The cond_wait and cond_timedwait of glibc 2.3.2 and later are asked
 * for by version: older glibcs' dlsym() could return the 2.2.5 compat
 * ones, which take a different pthread_cond_t.
 */
#define PRELOAD_FUNCS(F)						\
	F(MUTEX, ACQUIRE, pthread_mutex_lock, NULL,			\
	  (pthread_mutex_t *m), (m))					\
	F(MUTEX, ACQUIRE, pthread_mutex_trylock, NULL,			\
	  (pthread_mutex_t *m), (m))					\
	F(MUTEX, ACQUIRE, pthread_mutex_timedlock, NULL,		\
	  (pthread_mutex_t *restrict m, const struct timespec *restrict ts),\
	  (m, ts))							\
	F(MUTEX, ACQUIRE, pthread_mutex_clocklock, NULL,		\
	  (pthread_mutex_t *restrict m, clockid_t c,			\
	   const struct timespec *restrict ts), (m, c, ts))		\
	F(MUTEX, RELEASE, pthread_mutex_unlock, NULL,			\
	  (pthread_mutex_t *m), (m))					\
	F(SPIN, ACQUIRE, pthread_spin_lock, NULL,			\
	  (pthread_spinlock_t *l), (l))					\
	F(SPIN, ACQUIRE, pthread_spin_trylock, NULL,			\
	  (pthread_spinlock_t *l), (l))					\
	F(SPIN, RELEASE, pthread_spin_unlock, NULL,			\
	  (pthread_spinlock_t *l), (l))					\
	F(RWLOCK, ACQUIRE, pthread_rwlock_rdlock, NULL,			\
	  (pthread_rwlock_t *l), (l))					\
	F(RWLOCK, ACQUIRE, pthread_rwlock_tryrdlock, NULL,		\
	  (pthread_rwlock_t *l), (l))					\
	F(RWLOCK, ACQUIRE, pthread_rwlock_timedrdlock, NULL,		\
	  (pthread_rwlock_t *restrict l, const struct timespec *restrict ts),\
	  (l, ts))							\
	F(RWLOCK, ACQUIRE, pthread_rwlock_clockrdlock, NULL,		\
	  (pthread_rwlock_t *restrict l, clockid_t c,			\
	   const struct timespec *restrict ts), (l, c, ts))		\
	F(RWLOCK, ACQUIRE, pthread_rwlock_wrlock, NULL,			\
	  (pthread_rwlock_t *l), (l))					\
	F(RWLOCK, ACQUIRE, pthread_rwlock_trywrlock, NULL,		\
	  (pthread_rwlock_t *l), (l))					\
	F(RWLOCK, ACQUIRE, pthread_rwlock_timedwrlock, NULL,		\
	  (pthread_rwlock_t *restrict l, const struct timespec *restrict ts),\
	  (l, ts))							\
	F(RWLOCK, ACQUIRE, pthread_rwlock_clockwrlock, NULL,		\
	  (pthread_rwlock_t *restrict l, clockid_t c,			\
	   const struct timespec *restrict ts), (l, c, ts))		\
	F(RWLOCK, RELEASE, pthread_rwlock_unlock, NULL,			\
	  (pthread_rwlock_t *l), (l))					\
	F(COND, WAIT, pthread_cond_wait, "GLIBC_2.3.2",			\
	  (pthread_cond_t *restrict c, pthread_mutex_t *restrict m),	\
	  (c, m))							\
	F(COND, WAIT, pthread_cond_timedwait, "GLIBC_2.3.2",		\
	  (pthread_cond_t *restrict c, pthread_mutex_t *restrict m,	\
	   const struct timespec *restrict ts), (c, m, ts))		\
	F(COND, WAIT, pthread_cond_clockwait, NULL,			\
	  (pthread_cond_t *restrict c, pthread_mutex_t *restrict m,	\
	   clockid_t k, const struct timespec *restrict ts), (c, m, k, ts))

/*
 * Each real_<name> starts out pointing to boot_<name>, which finishes
 * the setup and calls on: a wrapper may run before our constructor, from
 * an earlier library's constructor or from a thread it started, and then
 * works all the same. After the setup, a wrapper reaches the C library's
 * function with one indirect jump, or call.
 */
#define DECLARE_REAL(kind, op, name, ver, params, args)			\
	static int boot_##name params;					\
	static int (*real_##name) params = boot_##name;
PRELOAD_FUNCS(DECLARE_REAL)

static void preload_init(void);

static void __attribute__((noreturn)) preload_missing(const char *name)
{
	char msg[160];
	int n;

	n = snprintf(msg, sizeof(msg), LIB_NAME ": %s not found in the C "
		     "library: cannot run this program\n", name);
	if (n > 0)
		n = write(STDERR_FILENO, msg, (size_t)n);
	abort();
}

#define DEFINE_BOOT(kind, op, name, ver, params, args)			\
	static int boot_##name params					\
	{								\
		int (*fn) params;					\
									\
		preload_init();						\
		fn = __atomic_load_n(&real_##name, __ATOMIC_RELAXED);	\
		if (fn == boot_##name)					\
			preload_missing(#name);				\
		return fn args;						\
	}
PRELOAD_FUNCS(DEFINE_BOOT)

/* --- setup, once per process --------------------------------------------- */

/* One line on stderr, once per process: the constructor runs once. */
static void preload_warn(const char *val, const char *tok, size_t len)
{
	char why[96], msg[384];
	int n;

	if (!len)
		snprintf(why, sizeof(why), "an empty lock kind");
	else if (len == 4 && !strncmp(tok, "none", 4))
		snprintf(why, sizeof(why), "\"none\" must stand alone");
	else
		snprintf(why, sizeof(why), "unknown lock kind \"%.*s\"",
			 (int)(len > 64 ? 64 : len), tok);
	n = snprintf(msg, sizeof(msg), LIB_NAME ": " LOCKS_ENV "=\"%.64s\": "
		     "%s; expected mutex, spin, rwlock, cond (comma-separated), "
		     "all or none; using the default, all\n", val, why);
	/* Nothing else to do if stderr is gone. */
	if (n > 0)
		n = write(STDERR_FILENO, msg, (size_t)n);
}

/*
 * SLICEEXT_PRELOAD_LOCKS: unset or empty means the default; "none"
 * alone tracks nothing; else a comma-separated list of kinds, "all"
 * among them. Anything else is reported once on stderr and the default
 * used: a typo must not take the program down, and the library without
 * the variable does what the documentation says it does by default.
 */
static unsigned int parse_locks(const char *val)
{
	unsigned int kinds = 0;
	const char *p = val, *end;
	size_t len, i;

	if (!val || !*val)
		return KINDS_DEFAULT;
	if (!strcmp(val, "none"))
		return 0;
	for (;;) {
		end = strchrnul(p, ',');
		len = (size_t)(end - p);
		for (i = 0; i < ARRAY_SIZE(kind_names); i++)
			if (strlen(kind_names[i].name) == len &&
			    !strncmp(kind_names[i].name, p, len))
				break;
		if (i == ARRAY_SIZE(kind_names)) {
			preload_warn(val, p, len);
			return KINDS_DEFAULT;
		}
		kinds |= kind_names[i].kinds;
		if (!*end)
			return kinds;
		p = end + 1;
	}
}

/* @name in the libraries after this one; @ver, if given, first. */
static void *preload_lookup(const char *name, const char *ver)
{
	void *fn = ver ? dlvsym(RTLD_NEXT, name, ver) : NULL;

	return fn ? fn : dlsym(RTLD_NEXT, name);
}

static void preload_setup(void)
{
	unsigned int kinds = parse_locks(getenv(LOCKS_ENV));
	void *fn;

	/* The waits only give back what the mutex kind counted. */
	if (!(kinds & KIND_MUTEX))
		kinds &= ~KIND_COND;

	/*
	 * No wrapper can run under dlsym(): the dynamic linker and libc
	 * take their own locks through internal symbols, never through the
	 * PLT, so there is no recursion into a boot stub here.
	 */
#define RESOLVE(kind, op, name, ver, params, args)			\
	fn = preload_lookup(#name, ver);				\
	if (fn)								\
		__atomic_store_n(&real_##name, (int (*) params)fn,	\
				 __ATOMIC_RELAXED);
	PRELOAD_FUNCS(RESOLVE)
#undef RESOLVE

	__atomic_store_n(&tracked, kinds | KINDS_READ, __ATOMIC_RELEASE);
}

static void preload_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, preload_setup);
}

__attribute__((constructor)) static void preload_ctor(void)
{
	preload_init();
}

/* --- the count ------------------------------------------------------------ */

/*
 * A new thread took a lock of @kind: if the kind is tracked, turn the
 * extension on for the thread or note that it cannot be. errno is the
 * caller's: a program may well read it after a pthread call, which does
 * not report through it. Returns whether the lock counts.
 */
static __attribute__((noinline, cold)) bool
preload_thread_start(struct preload_thread *t, unsigned int kind)
{
	unsigned int kinds = __atomic_load_n(&tracked, __ATOMIC_ACQUIRE);
	struct rseq *rs;
	int saved;

	if (!(kinds & KINDS_READ))
		return false;
	t->skip = (unsigned char)~kinds;
	if (!(kinds & kind))
		return false;

	saved = errno;
	rs = rseq_slice_area();
	if (rs && !rseq_slice_enable()) {
		t->rs = rs;
		t->state = THREAD_ON;
	} else {
		t->skip = 0xff;
		t->state = THREAD_OFF;
	}
	errno = saved;
	return t->state == THREAD_ON;
}

static __attribute__((noinline, cold)) void preload_yield(void)
{
	int saved = errno;

	rseq_slice_yield();
	errno = saved;
}

/*
 * Ask again, unless a grant is live: the kernel clears request when the
 * thread is switched out or a grant ends, e.g. while a nested lock
 * blocked, and a request beside a grant would only confuse the next
 * unlock's reading of granted.
 */
static inline void preload_request(struct rseq *rs)
{
	if (!__atomic_load_n(&rs->slice_ctrl.granted, __ATOMIC_RELAXED))
		rseq_slice_enter(rs);
}

/*
 * The last lock goes: withdraw the request, then see whether the kernel
 * granted an extension meanwhile, which the caller then gives back with
 * preload_yield(). In that order: once request is clear no grant can
 * come, so none is missed. rseq_slice_leave() in two halves, and without
 * its errno change.
 */
static inline bool preload_withdraw(struct rseq *rs)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&rs->slice_ctrl.request, 0, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return unlikely(__atomic_load_n(&rs->slice_ctrl.granted,
					__ATOMIC_RELAXED));
}

/*
 * A lock of @kind returned @ret, and it is not the common case of a
 * thread already on that took it: a new thread's first lock, an error,
 * or a robust mutex's EOWNERDEAD, which comes with the lock held.
 */
static __attribute__((noinline, cold)) int
preload_acquired_slow(int ret, unsigned int kind)
{
	struct preload_thread *t = &self;

	if (ret && ret != EOWNERDEAD)
		return ret;
	if (t->state != THREAD_ON && !preload_thread_start(t, kind))
		return ret;
	t->held++;
	preload_request(t->rs);
	return ret;
}

/* --- the exported wrappers ------------------------------------------------ */

#define REAL(name)	__atomic_load_n(&real_##name, __ATOMIC_RELAXED)

/*
 * Each wrapper tests ->skip and jumps to the C library's function, or
 * to the counting one below, which is kept out of line so that the
 * skipped path has no stack frame to build: a test, a branch, a jump.
 */
#define WRAP(kind, name, params, args)					\
	EXPORT int name params						\
	{								\
		if (self.skip & kind)					\
			return REAL(name) args;				\
		return counted_##name args;				\
	}

/*
 * A lock is counted once taken: a request made while waiting would be
 * cleared by the switch if the wait sleeps, or win a waiter a grant if
 * it spins. The way out of the common case is a tail call, so that
 * nothing is kept in registers across the C library's function.
 */
#define WRAP_ACQUIRE(kind, name, params, args)				\
	static __attribute__((noinline)) int counted_##name params	\
	{								\
		struct preload_thread *t;				\
		int ret = REAL(name) args;				\
									\
		t = &self;						\
		if (unlikely(ret || t->state != THREAD_ON))		\
			return preload_acquired_slow(ret, kind);	\
		t->held++;						\
		preload_request(t->rs);					\
		return ret;						\
	}								\
	WRAP(kind, name, params, args)

/*
 * An unlock takes the count down first, so that it can jump to the C
 * library's function rather than call it, in all but the rare case of a
 * live grant, given back once the lock is free. So the request goes a
 * few instructions before the lock does, a window a preemption can hit
 * but seldom will. An unlock that fails (EPERM: a mutex type that checks
 * its owner, unlocked by another thread) is counted all the same: the
 * thread then asks for less than it could until it holds nothing, never
 * for more. With nothing counted (a new thread), it goes straight on.
 */
#define WRAP_RELEASE(kind, name, params, args)				\
	static __attribute__((noinline)) int counted_##name params	\
	{								\
		struct preload_thread *t = &self;			\
		int ret;						\
									\
		if (!t->held)						\
			return REAL(name) args;				\
		if (--t->held) {					\
			preload_request(t->rs);				\
			return REAL(name) args;				\
		}							\
		if (!preload_withdraw(t->rs))				\
			return REAL(name) args;				\
		ret = REAL(name) args;					\
		preload_yield();					\
		return ret;						\
	}								\
	WRAP(kind, name, params, args)

/*
 * A condition wait unlocks the mutex, sleeps and locks it again inside
 * the C library, out of our sight: the count drops for the wait and
 * comes back with the mutex, whatever the wait returns (every return but
 * a refused argument holds the mutex, and those return before letting it
 * go). Tracked only with the mutex kind, which counted it.
 */
#define WRAP_WAIT(kind, name, params, args)				\
	static __attribute__((noinline)) int counted_##name params	\
	{								\
		struct preload_thread *t = &self;			\
		int ret;						\
									\
		if (!t->held)						\
			return REAL(name) args;				\
		if (--t->held)						\
			preload_request(t->rs);				\
		else if (preload_withdraw(t->rs))			\
			preload_yield();				\
		ret = REAL(name) args;					\
		t->held++;						\
		preload_request(t->rs);					\
		return ret;						\
	}								\
	WRAP(kind, name, params, args)

#define DEFINE_WRAPPER(kind, op, name, ver, params, args)		\
	WRAP_##op(KIND_##kind, name, params, args)
PRELOAD_FUNCS(DEFINE_WRAPPER)
