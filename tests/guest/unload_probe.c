// SPDX-License-Identifier: GPL-2.0
/*
 * What a thread finds in its own rseq area after sliceext was unloaded.
 *
 *   unload_probe running     spin with a request always up (grants come and go)
 *   unload_probe blocked     block in read() with the extension enabled
 *   unload_probe registered  spin without opting in: AVAILABLE alone
 *
 * Registers a 64-byte area of its own (run with glibc's rseq off), says
 * "ready", and on SIGUSR1 prints one line, "flags=<status bits>
 * slice_ctrl=<hex>", and exits. Unloading must clear what a running
 * thread can see (it clears it itself on its way back to user space) and
 * must not write the area of a thread blocked in the kernel.
 */
#include "test_util.h"

#include <signal.h>
#include <stdbool.h>

static volatile sig_atomic_t report;

static void on_usr1(int sig)
{
	report = 1;
}

int main(int argc, char **argv)
{
	const char *mode = argc == 2 ? argv[1] : "";
	bool registered = !strcmp(mode, "registered");
	bool running = registered || !strcmp(mode, "running");
	struct sigaction sa = { .sa_handler = on_usr1 };
	struct rseq *rs = rseq_area_alloc(64);
	int pfd[2];
	char c;

	if (!running && strcmp(mode, "blocked")) {
		fprintf(stderr, "usage: unload_probe running|blocked|registered\n");
		return 2;
	}
	if (!rs || pipe(pfd) || sigaction(SIGUSR1, &sa, NULL) ||
	    sys_rseq(rs, 64, registered ? 0 : RSEQ_FLAG_SLICE_EXT_DEFAULT_ON)) {
		perror("unload_probe: setup");
		return 1;
	}
	if ((rs->flags & SLICE_STATUS_BITS) !=
	    (registered ? RSEQ_CS_FLAG_SLICE_EXT_AVAILABLE : SLICE_STATUS_BITS)) {
		fprintf(stderr, "unload_probe: status bits %#x\n",
			rs->flags & SLICE_STATUS_BITS);
		return 1;
	}
	printf("ready\n");
	fflush(stdout);

	while (!report) {
		if (!running) {
			/* Interrupted by SIGUSR1 only. */
			if (read(pfd[0], &c, 1) < 0 && errno != EINTR)
				return 1;
			continue;
		}
		if (!registered && !rs->slice_ctrl.request &&
		    !rs->slice_ctrl.granted)
			rs->slice_ctrl.request = 1;
	}
	printf("flags=%#x slice_ctrl=%#x\n", rs->flags & SLICE_STATUS_BITS,
	       rs->slice_ctrl.all);
	return 0;
}
