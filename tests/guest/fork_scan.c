// SPDX-License-Identifier: GPL-2.0
/*
 * Forks beside relatives that fork inheritance has to skip, for
 * 73-burst-fork-scan.sh:
 *
 *   fork_scan children|threads SKIPPED FORKS STATS
 *
 * "children": SKIPPED children that exit at once and stay unreaped
 * (zombies, which take no sample), then FORKS more process forks.
 * "threads": SKIPPED threads that make themselves SCHED_IDLE (never
 * scored, so no sample either) and wait, then FORKS more thread
 * creations, each once the one before is idle, so that a new thread not
 * yet idle never stands among the relatives as a sample.
 *
 * Prints "skipped N", the relatives that took no sample when the FORKS
 * forks began, and the increase of the STATS (burst/stats) counters that
 * the test judges over those forks alone. In C, not in the test's
 * Python: a Python fork costs about 20 ms on a busy host, far more under
 * emulation, and the test makes over 1300.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const names[] = {
	"cache_hits", "cache_misses", "fork_scanned", "fork_process",
	"fork_thread",
};
#define NR_NAMES	(sizeof(names) / sizeof(names[0]))

static void die(const char *what)
{
	fprintf(stderr, "fork_scan: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void counters(const char *path, unsigned long long *val)
{
	char name[64];
	unsigned long long v;
	unsigned int i, found = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		die(path);
	while (fscanf(f, "%63s %llu", name, &v) == 2)
		for (i = 0; i < NR_NAMES; i++)
			if (!strcmp(name, names[i])) {
				val[i] = v;
				found++;
			}
	fclose(f);
	if (found != NR_NAMES) {
		fprintf(stderr, "fork_scan: %s lacks a counter\n", path);
		exit(1);
	}
}

/* --- children ------------------------------------------------------------ */

static pid_t *kids;
static int nr_kids;

static void fork_child(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid)
		_exit(0);
	kids[nr_kids++] = pid;
}

/* How many children are zombies, waiting for each without reaping it. */
static int zombies(void)
{
	siginfo_t info;
	int i, n = 0;

	for (i = 0; i < nr_kids; i++)
		n += !waitid(P_PID, kids[i], &info, WEXITED | WNOWAIT);
	return n;
}

static void reap(void)
{
	int i;

	for (i = 0; i < nr_kids; i++)
		waitpid(kids[i], NULL, 0);
}

/* --- threads ------------------------------------------------------------- */

static sem_t ready;
static int gate[2];	/* the threads wait for EOF on gate[0] */
static int nr_idle;
static pthread_t *threads;
static int nr_threads;

static void *idle_thread(void *arg)
{
	struct sched_param sp = { 0 };
	char c;

	(void)arg;
	/* Per thread: the syscall's pid 0 is the calling thread. */
	if (!sched_setscheduler(0, SCHED_IDLE, &sp) &&
	    sched_getscheduler(0) == SCHED_IDLE)
		__atomic_add_fetch(&nr_idle, 1, __ATOMIC_RELAXED);
	sem_post(&ready);
	while (read(gate[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

static void make_thread(void)
{
	pthread_attr_t attr;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);
	errno = pthread_create(&threads[nr_threads], &attr, idle_thread, NULL);
	if (errno)
		die("pthread_create");
	pthread_attr_destroy(&attr);
	nr_threads++;
	while (sem_wait(&ready) && errno == EINTR)
		;
}

static void release(void)
{
	int i;

	close(gate[1]);
	for (i = 0; i < nr_threads; i++)
		pthread_join(threads[i], NULL);
}

int main(int argc, char **argv)
{
	unsigned long long before[NR_NAMES], after[NR_NAMES];
	int skipped, forks, i, children;
	void (*spawn)(void);

	if (argc != 5 || (strcmp(argv[1], "children") &&
			  strcmp(argv[1], "threads"))) {
		fprintf(stderr, "usage: fork_scan children|threads SKIPPED FORKS STATS\n");
		return 2;
	}
	children = !strcmp(argv[1], "children");
	skipped = atoi(argv[2]);
	forks = atoi(argv[3]);
	if (skipped < 0 || forks <= 0 || skipped > 100000 || forks > 100000) {
		fprintf(stderr, "fork_scan: bad SKIPPED or FORKS\n");
		return 2;
	}
	if (children) {
		kids = calloc(skipped + forks, sizeof(*kids));
		if (!kids)
			die("calloc");
		spawn = fork_child;
	} else {
		threads = calloc(skipped + forks, sizeof(*threads));
		if (!threads || sem_init(&ready, 0, 0) || pipe(gate))
			die("setup");
		spawn = make_thread;
	}

	for (i = 0; i < skipped; i++)
		spawn();
	printf("skipped %d\n", children ? zombies() :
	       __atomic_load_n(&nr_idle, __ATOMIC_RELAXED));

	counters(argv[4], before);
	for (i = 0; i < forks; i++)
		spawn();
	counters(argv[4], after);

	if (children)
		reap();
	else
		release();
	for (i = 0; i < (int)NR_NAMES; i++)
		printf("%s %llu\n", names[i], after[i] - before[i]);
	return 0;
}
