// SPDX-License-Identifier: GPL-2.0
/*
 * Lock workout for tests/host/preload.sh: every wrapped pthread call,
 * its error returns and its interplay with threads, fork() and errno,
 * run with and without libsliceext-preload.so on a host that lacks the
 * slice extension. Prints "name value" lines, which must not differ
 * between the two runs, and exits 1 after a message on stderr when a
 * lock misbehaves.
 *
 *   preload_host          the workout
 *   preload_host which    the file this program's pthread_mutex_lock
 *                         comes from
 *
 * Built with -shared -DPRELOAD_EARLY, it is instead a library whose
 * constructor takes locks, to be listed after libsliceext-preload.so in
 * LD_PRELOAD: its constructor then runs before the library's own.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define THREADS		4
#define ROUNDS		20000

static struct timespec in_ms(clockid_t clock, long ms)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	ts.tv_nsec += ms * 1000000L;
	ts.tv_sec += ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	return ts;
}

#ifdef PRELOAD_EARLY

__attribute__((constructor)) static void early(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	pthread_spinlock_t s;
	struct timespec t;

	pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE);
	pthread_spin_lock(&s);
	pthread_mutex_lock(&m);
	t = in_ms(CLOCK_REALTIME, 1);
	if (pthread_cond_timedwait(&c, &m, &t) != ETIMEDOUT)
		abort();
	pthread_mutex_unlock(&m);
	pthread_spin_unlock(&s);
}

#else

static int failed;

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "preload_host: " __VA_ARGS__);	\
			fputc('\n', stderr);				\
			failed = 1;					\
		}							\
	} while (0)

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_spinlock_t spin;
static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
/* Each guarded by the lock its name says. */
static unsigned long by_mutex, by_spin, by_rwlock;

/* ROUNDS sections per thread, taken every way there is, in turn. */
static void *adder(void *arg)
{
	struct timespec t;
	int i, ret;

	(void)arg;
	for (i = 0; i < ROUNDS; i++) {
		switch (i % 8) {
		case 0:
			pthread_mutex_lock(&mutex);
			by_mutex++;
			pthread_mutex_unlock(&mutex);
			break;
		case 1:
			while ((ret = pthread_mutex_trylock(&mutex)) == EBUSY)
				;
			by_mutex++;
			pthread_mutex_unlock(&mutex);
			break;
		case 2:
			t = in_ms(CLOCK_REALTIME, 10000);
			pthread_mutex_timedlock(&mutex, &t);
			by_mutex++;
			pthread_mutex_unlock(&mutex);
			break;
		case 3:
			t = in_ms(CLOCK_MONOTONIC, 10000);
			pthread_mutex_clocklock(&mutex, CLOCK_MONOTONIC, &t);
			by_mutex++;
			pthread_mutex_unlock(&mutex);
			break;
		case 4:
			pthread_spin_lock(&spin);
			by_spin++;
			pthread_spin_unlock(&spin);
			break;
		case 5:
			while (pthread_spin_trylock(&spin) == EBUSY)
				;
			by_spin++;
			pthread_spin_unlock(&spin);
			break;
		case 6:
			pthread_rwlock_wrlock(&rwlock);
			by_rwlock++;
			pthread_rwlock_unlock(&rwlock);
			break;
		case 7:
			/* Nested, and let go in a different order. */
			pthread_rwlock_rdlock(&rwlock);
			pthread_mutex_lock(&mutex);
			pthread_spin_lock(&spin);
			pthread_rwlock_unlock(&rwlock);
			by_mutex++;
			by_spin++;
			pthread_mutex_unlock(&mutex);
			pthread_spin_unlock(&spin);
			break;
		}
	}
	return NULL;
}

/*
 * The first lock of a thread is where the library asks the kernel for
 * the extension, which fails here: errno must be as the program left it.
 */
static void *first_lock(void *arg)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

	errno = 1234;
	pthread_mutex_lock(&m);
	*(int *)arg = errno;
	pthread_mutex_unlock(&m);
	return NULL;
}

static void *unlock_other(void *arg)
{
	return (void *)(long)pthread_mutex_unlock(arg);
}

static void *die_holding(void *arg)
{
	pthread_mutex_lock(arg);
	return NULL;
}

static void error_returns(void)
{
	pthread_mutexattr_t attr;
	pthread_mutex_t m;
	pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
	struct timespec t;
	pthread_t th;
	void *ret;
	int r[4];

	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&m, &attr);
	pthread_mutex_lock(&m);
	printf("errorcheck_relock %s\n", strerror(pthread_mutex_lock(&m)));
	pthread_create(&th, NULL, unlock_other, &m);
	pthread_join(th, &ret);
	printf("errorcheck_unlock_by_other %s\n", strerror((int)(long)ret));
	printf("errorcheck_unlock %d\n", pthread_mutex_unlock(&m));
	printf("errorcheck_unlock_again %s\n", strerror(pthread_mutex_unlock(&m)));
	pthread_mutex_destroy(&m);

	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&m, &attr);
	r[0] = pthread_mutex_lock(&m);
	r[1] = pthread_mutex_lock(&m);
	r[2] = pthread_mutex_trylock(&m);
	printf("recursive_lock %d %d %d\n", r[0], r[1], r[2]);
	r[0] = pthread_mutex_unlock(&m);
	r[1] = pthread_mutex_unlock(&m);
	r[2] = pthread_mutex_unlock(&m);
	r[3] = pthread_mutex_unlock(&m);
	printf("recursive_unlock %d %d %d %s\n", r[0], r[1], r[2],
	       strerror(r[3]));
	pthread_mutex_destroy(&m);

	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_DEFAULT);
	pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&m, &attr);
	pthread_create(&th, NULL, die_holding, &m);
	pthread_join(th, NULL);
	printf("robust_owner_died %s\n", strerror(pthread_mutex_lock(&m)));
	printf("robust_consistent %d\n", pthread_mutex_consistent(&m));
	printf("robust_unlock %d\n", pthread_mutex_unlock(&m));
	pthread_mutex_destroy(&m);

	pthread_mutex_init(&m, NULL);
	pthread_mutex_lock(&m);
	t = in_ms(CLOCK_REALTIME, 2);
	printf("timedlock_busy %s\n", strerror(pthread_mutex_timedlock(&m, &t)));
	printf("trylock_busy %s\n", strerror(pthread_mutex_trylock(&m)));
	pthread_mutex_unlock(&m);

	pthread_rwlock_wrlock(&rw);
	printf("rwlock_tryrd_busy %s\n", strerror(pthread_rwlock_tryrdlock(&rw)));
	t = in_ms(CLOCK_MONOTONIC, 2);
	printf("rwlock_clockrd_own_writer %s\n", strerror(pthread_rwlock_clockrdlock(&rw,
	       CLOCK_MONOTONIC, &t)));
	t = in_ms(CLOCK_REALTIME, 2);
	printf("rwlock_timedwr_own_writer %s\n",
	       strerror(pthread_rwlock_timedwrlock(&rw, &t)));
	pthread_rwlock_unlock(&rw);
	r[0] = pthread_rwlock_rdlock(&rw);
	r[1] = pthread_rwlock_tryrdlock(&rw);
	printf("rwlock_rd_twice %d %d\n", r[0], r[1]);
	pthread_rwlock_unlock(&rw);
	pthread_rwlock_unlock(&rw);
	printf("rwlock_trywr %d\n", pthread_rwlock_trywrlock(&rw));
	pthread_rwlock_unlock(&rw);
}

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t qcond = PTHREAD_COND_INITIALIZER;
static int queued, taken;

static void *consumer(void *arg)
{
	struct timespec t;

	(void)arg;
	pthread_mutex_lock(&qlock);
	while (taken < ROUNDS) {
		while (!queued) {
			switch (taken % 3) {
			case 0:
				pthread_cond_wait(&qcond, &qlock);
				break;
			case 1:
				t = in_ms(CLOCK_REALTIME, 100);
				pthread_cond_timedwait(&qcond, &qlock, &t);
				break;
			case 2:
				t = in_ms(CLOCK_MONOTONIC, 100);
				pthread_cond_clockwait(&qcond, &qlock,
						       CLOCK_MONOTONIC, &t);
				break;
			}
		}
		queued--;
		taken++;
		pthread_cond_broadcast(&qcond);
	}
	pthread_mutex_unlock(&qlock);
	return NULL;
}

static void cond_waits(void)
{
	struct timespec t;
	pthread_t th;
	int i;

	pthread_create(&th, NULL, consumer, NULL);
	for (i = 0; i < ROUNDS; i++) {
		pthread_mutex_lock(&qlock);
		while (queued)
			pthread_cond_wait(&qcond, &qlock);
		queued++;
		pthread_cond_broadcast(&qcond);
		pthread_mutex_unlock(&qlock);
	}
	pthread_join(th, NULL);
	printf("cond_taken %d\n", taken);

	pthread_mutex_lock(&qlock);
	t = in_ms(CLOCK_REALTIME, 2);
	printf("cond_timeout %s\n",
	       strerror(pthread_cond_timedwait(&qcond, &qlock, &t)));
	t.tv_nsec = 2000000000L;
	printf("cond_bad_time %s\n",
	       strerror(pthread_cond_timedwait(&qcond, &qlock, &t)));
	pthread_mutex_unlock(&qlock);
}

/* fork() with locks held: the child's copies are held, and let go. */
static void fork_locked(void)
{
	int status = -1;
	pid_t pid;

	pthread_mutex_lock(&mutex);
	pthread_spin_lock(&spin);
	pid = fork();
	if (pid == 0) {
		pthread_spin_unlock(&spin);
		pthread_mutex_unlock(&mutex);
		pthread_mutex_lock(&mutex);
		pthread_mutex_unlock(&mutex);
		_exit(pthread_mutex_trylock(&mutex));
	}
	pthread_spin_unlock(&spin);
	pthread_mutex_unlock(&mutex);
	waitpid(pid, &status, 0);
	printf("fork_child_status %d\n", status);
}

int main(int argc, char **argv)
{
	pthread_t th[THREADS];
	Dl_info info;
	int i, err = 0;

	if (argc > 1 && !strcmp(argv[1], "which")) {
		if (!dladdr((void *)pthread_mutex_lock, &info))
			return 1;
		printf("%s\n", strrchr(info.dli_fname, '/') ?
		       strrchr(info.dli_fname, '/') + 1 : info.dli_fname);
		return 0;
	}

	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);

	pthread_create(&th[0], NULL, first_lock, &err);
	pthread_join(th[0], NULL);
	printf("errno_after_first_lock %d\n", err);

	for (i = 0; i < THREADS; i++)
		pthread_create(&th[i], NULL, adder, NULL);
	for (i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	printf("by_mutex %lu by_spin %lu by_rwlock %lu\n", by_mutex, by_spin,
	       by_rwlock);
	/* Of 8 rounds, 5 add under the mutex, 3 under the spinlock, 1 both. */
	CHECK(by_mutex == THREADS * ROUNDS / 8 * 5 &&
	      by_spin == THREADS * ROUNDS / 8 * 3 &&
	      by_rwlock == THREADS * ROUNDS / 8,
	      "a lock did not exclude");

	error_returns();
	cond_waits();
	fork_locked();
	return failed;
}

#endif /* PRELOAD_EARLY */
