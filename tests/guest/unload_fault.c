// SPDX-License-Identifier: GPL-2.0
/*
 * A thread whose rseq area faults and is never served, for
 * 61-ext-unload-fault.sh: the thread registers its page with a
 * userfaultfd, drops it, and calls prctl(PR_RSEQ_SLICE_EXTENSION, SET),
 * whose hook writes the area. Unloading the module must not wait for
 * that fault.
 *
 * Prints "faulting prctl" once the userfaultfd reports the thread's fault
 * and /proc shows it inside prctl(2), or "faulting NR" for another
 * syscall (a context switch before prctl lets rseq itself fault first,
 * on the way back to user space), then waits for SIGUSR1, serves the
 * fault with a zero page, and prints "prctl RET ERRNO" for the thread's
 * call. Exit status 0 unless a step of the setup failed.
 *
 * "unload_fault readonly": an area that cannot be faulted in for writing
 * (its page made read-only after the registration); prints "prctl RET
 * ERRNO" for prctl(SET).
 */
#include "test_util.h"

#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

static char *page;
static long page_size;
static int uffd;
static long prctl_ret;
static int prctl_errno;

static void *faulting_thread(void *unused)
{
	struct uffdio_register reg = {
		.range = { .start = (unsigned long)page, .len = page_size },
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};

	if (sys_rseq(page, 32, 0))
		return (void *)"rseq";
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		return (void *)"UFFDIO_REGISTER";
	if (madvise(page, page_size, MADV_DONTNEED))
		return (void *)"madvise";
	prctl_ret = slice_prctl(PR_RSEQ_SLICE_EXTENSION_SET,
				PR_RSEQ_SLICE_EXT_ENABLE);
	prctl_errno = prctl_ret ? errno : 0;
	return NULL;
}

static int fail(const char *what)
{
	fprintf(stderr, "unload_fault: %s: %s\n", what, strerror(errno));
	return 1;
}

/* The syscall number thread @tid is in, or -1. */
static long syscall_of(pid_t tid)
{
	char path[64];
	long nr = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &nr) != 1)
		nr = -1;
	fclose(f);
	return nr;
}

static int readonly_area(void)
{
	if (sys_rseq(page, 32, 0))
		return fail("rseq");
	if (mprotect(page, page_size, PROT_READ))
		return fail("mprotect");
	prctl_ret = slice_prctl(PR_RSEQ_SLICE_EXTENSION_SET,
				PR_RSEQ_SLICE_EXT_ENABLE);
	prctl_errno = prctl_ret ? errno : 0;
	printf("prctl %ld %d\n", prctl_ret, prctl_errno);
	return 0;
}

int main(int argc, char **argv)
{
	struct uffdio_api api = {
		.api = UFFD_API, .features = UFFD_FEATURE_THREAD_ID,
	};
	struct uffdio_zeropage zero = { 0 };
	struct uffd_msg msg;
	struct pollfd pfd;
	sigset_t usr1;
	pthread_t th;
	void *err;
	long nr;
	int sig;

	page_size = sysconf(_SC_PAGESIZE);
	page = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return fail("mmap");
	if (argc > 1 && !strcmp(argv[1], "readonly"))
		return readonly_area();
	uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api))
		return fail("userfaultfd");

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	if (pthread_create(&th, NULL, faulting_thread, NULL))
		return fail("pthread_create");

	pfd = (struct pollfd){ .fd = uffd, .events = POLLIN };
	if (poll(&pfd, 1, 10000) != 1 || read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		return fail("no fault reported");
	nr = syscall_of(msg.arg.pagefault.feat.ptid);
	if (nr == SYS_prctl)
		printf("faulting prctl\n");
	else
		printf("faulting %ld\n", nr);
	fflush(stdout);

	sigwait(&usr1, &sig);
	zero.range.start = (unsigned long)page;
	zero.range.len = page_size;
	if (ioctl(uffd, UFFDIO_ZEROPAGE, &zero))
		return fail("UFFDIO_ZEROPAGE");
	pthread_join(th, &err);
	if (err)
		return fail(err);
	printf("prctl %ld %d\n", prctl_ret, prctl_errno);
	return 0;
}
