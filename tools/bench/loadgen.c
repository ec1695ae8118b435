// SPDX-License-Identifier: GPL-2.0
/*
 * loadgen.c - the background load behind the load tool and the other
 * tools' --hogs and --forkers: CPU hogs and build-like forking processes
 * (bench.h, struct bench_load).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

/* A fresh child must not run its parent's signal handlers or mask. */
static void child_reset_signals(void)
{
	sigset_t none;

	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

void bench_die_with_parent(pid_t parent, int sig)
{
	prctl(PR_SET_PDEATHSIG, sig);
	if (getppid() != parent)
		_exit(0);
}

static void __attribute__((noreturn)) hog_main(pid_t parent)
{
	volatile uint64_t x = 0;

	child_reset_signals();
	bench_die_with_parent(parent, SIGKILL);
	for (;;)
		x++;
}

static volatile sig_atomic_t forker_stop;

static void forker_on_signal(int sig)
{
	(void)sig;
	forker_stop = 1;
}

/*
 * A forker stops on SIGTERM by killing and reaping its current child:
 * when the load generator has reaped the forker, nothing is left behind.
 */
static void __attribute__((noreturn)) forker_main(pid_t parent,
						  unsigned long *forks)
{
	struct sigaction sa = { .sa_handler = forker_on_signal };
	sigset_t stop_sigs, old;
	pid_t self, pid;
	uint64_t rng;

	child_reset_signals();
	/* No SA_RESTART: the signal must interrupt waitpid(). */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	bench_die_with_parent(parent, SIGTERM);
	self = getpid();
	rng = ((uint64_t)self << 32) ^ bench_now_ns();
	sigemptyset(&stop_sigs);
	sigaddset(&stop_sigs, SIGTERM);
	sigaddset(&stop_sigs, SIGINT);

	while (!forker_stop) {
		/* 2 to 20 ms, as compiler runs on small files vary. */
		uint64_t ns = 2000000 + bench_xorshift64(&rng) % 18000001;

		/* Until pid is known a stop request must wait. */
		sigprocmask(SIG_BLOCK, &stop_sigs, &old);
		pid = fork();
		if (pid == 0) {
			child_reset_signals();
			bench_die_with_parent(self, SIGKILL);
			bench_spin_cpu_ns(ns);
			_exit(0);
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (pid < 0) {
			bench_sleep_ns(10000000);	/* out of processes */
			continue;
		}
		for (;;) {
			if (forker_stop)
				kill(pid, SIGKILL);
			if (waitpid(pid, NULL, 0) == pid || errno != EINTR)
				break;
		}
		if (!forker_stop)
			__atomic_fetch_add(forks, 1, __ATOMIC_RELAXED);
	}
	_exit(0);
}

int bench_load_start(const char *tool, struct bench_load *l, int hogs,
		     int forkers)
{
	pid_t parent = getpid();
	int i, err;

	memset(l, 0, sizeof(*l));
	l->hogs = hogs;
	l->forkers = forkers;
	if (!hogs && !forkers)
		return 0;
	l->pids = calloc(hogs + forkers, sizeof(*l->pids));
	if (!l->pids)
		goto fail;
	if (forkers) {
		/* Each forker counts its children here, one slot each. */
		l->forks = mmap(NULL, forkers * sizeof(*l->forks),
				PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (l->forks == MAP_FAILED) {
			l->forks = NULL;
			goto fail;
		}
	}
	for (i = 0; i < hogs + forkers; i++) {
		pid_t pid = fork();

		if (pid < 0)
			goto fail;
		if (pid == 0) {
			if (i < hogs)
				hog_main(parent);
			forker_main(parent, &l->forks[i - hogs]);
		}
		l->pids[i] = pid;
		l->started++;
	}
	return 0;
fail:
	err = errno;
	bench_load_stop(l);
	fprintf(stderr, "%s: starting the load: %s\n", tool, strerror(err));
	return -1;
}

void bench_load_stop(struct bench_load *l)
{
	int i;

	for (i = 0; i < l->started; i++)
		kill(l->pids[i], i < l->hogs ? SIGKILL : SIGTERM);
	for (i = 0; i < l->started; i++)
		while (waitpid(l->pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	l->started = 0;
	l->forks_done = bench_load_forks(l);
	if (l->forks)
		munmap(l->forks, l->forkers * sizeof(*l->forks));
	l->forks = NULL;
	free(l->pids);
	l->pids = NULL;
}

unsigned long bench_load_forks(const struct bench_load *l)
{
	unsigned long n = 0;
	int i;

	if (!l->forks)
		return l->forks_done;	/* stopped */
	for (i = 0; i < l->forkers; i++)
		n += __atomic_load_n(&l->forks[i], __ATOMIC_RELAXED);
	return n;
}
