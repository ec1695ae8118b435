// SPDX-License-Identifier: GPL-2.0
/*
 * A chain of DEPTH processes, each the only child of the one before (a
 * shell running a shell running ...); the last one forks FORKS children
 * that exit at once, and prints "forks_per_s N".
 *
 *   fork_chain DEPTH FORKS
 */
#include "test_util.h"

#include <sys/wait.h>

int main(int argc, char **argv)
{
	long depth, forks, i;
	uint64_t t0;
	pid_t pid;
	int status;

	if (argc != 3 || (depth = atol(argv[1])) < 0 || (forks = atol(argv[2])) < 1) {
		fprintf(stderr, "usage: fork_chain DEPTH FORKS\n");
		return 2;
	}
	for (; depth > 0; depth--) {
		pid = fork();
		if (pid < 0)
			return 1;
		if (pid) {
			/* Pass the bottom's status up the chain. */
			if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
				_exit(1);
			_exit(WEXITSTATUS(status));
		}
	}
	t0 = now_ns();
	for (i = 0; i < forks; i++) {
		pid = fork();
		if (pid < 0)
			return 1;
		if (!pid)
			_exit(0);
		waitpid(pid, &status, 0);
	}
	printf("forks_per_s %.0f\n", forks * 1e9 / (now_ns() - t0));
	return 0;
}
