// SPDX-License-Identifier: GPL-2.0
/*
 * bench_locks - what an uncontended lock/unlock pair costs, to compare
 * runs with and without libsliceext-preload.so:
 *
 *	bench_locks
 *	LD_PRELOAD=libsliceext-preload.so bench_locks
 *
 * One thread takes and releases one lock over and over; each of --repeat
 * rounds times --pairs pairs, and the table gives the spread of the
 * rounds' ns per pair. It measures, it never judges: compare medians of
 * runs made back to back on the same machine, and the spread tells
 * whether their difference means anything.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rseq_slice.h"

#define TOOL	"bench_locks"

#ifndef ENOTSUPP
#define ENOTSUPP	524	/* kernel internal, not in <errno.h> */
#endif

enum lock_kind { LOCK_MUTEX, LOCK_SPIN, LOCK_RDLOCK, LOCK_WRLOCK };

static const char *const lock_names[] = {
	[LOCK_MUTEX] = "mutex",
	[LOCK_SPIN] = "spin",
	[LOCK_RDLOCK] = "rwlock-rd",
	[LOCK_WRLOCK] = "rwlock-wr",
};

static const char *const lock_calls[] = {
	[LOCK_MUTEX] = "pthread_mutex_lock/unlock",
	[LOCK_SPIN] = "pthread_spin_lock/unlock",
	[LOCK_RDLOCK] = "pthread_rwlock_rdlock/unlock",
	[LOCK_WRLOCK] = "pthread_rwlock_wrlock/unlock",
};

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_spinlock_t spin;

static void usage(FILE *f)
{
	fprintf(f,
"Usage: " TOOL " [OPTION]...\n"
"One thread takes and releases an uncontended lock over and over and\n"
"reports the nanoseconds per lock/unlock pair: the median and spread of\n"
"--repeat rounds. Run it with and without LD_PRELOAD=libsliceext-preload.so\n"
"to see what the library costs.\n"
"\n"
"  --lock KIND     mutex (default), spin, rwlock-rd or rwlock-wr\n"
"  --pairs N       lock/unlock pairs per round (default 1000000)\n"
"  --repeat N      timed rounds, after one untimed (default 21)\n"
"  --json          print one JSON object instead of the table\n"
"  -h, --help      print this help and exit\n");
}

static void __attribute__((noreturn, format(printf, 1, 2)))
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs(TOOL ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry '" TOOL " --help' for more information.\n", stderr);
	exit(2);
}

static long parse_long(const char *opt, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		usage_error("--%s: '%s' is not a whole number from %ld to %ld",
			    opt, s, min, max);
	return v;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ns per pair over @pairs pairs. Calls through the PLT, as programs do. */
static double round_ns(enum lock_kind kind, long pairs)
{
	uint64_t t0 = now_ns();
	long i;

	switch (kind) {
	case LOCK_MUTEX:
		for (i = 0; i < pairs; i++) {
			pthread_mutex_lock(&mutex);
			pthread_mutex_unlock(&mutex);
		}
		break;
	case LOCK_SPIN:
		for (i = 0; i < pairs; i++) {
			pthread_spin_lock(&spin);
			pthread_spin_unlock(&spin);
		}
		break;
	case LOCK_RDLOCK:
		for (i = 0; i < pairs; i++) {
			pthread_rwlock_rdlock(&rwlock);
			pthread_rwlock_unlock(&rwlock);
		}
		break;
	case LOCK_WRLOCK:
		for (i = 0; i < pairs; i++) {
			pthread_rwlock_wrlock(&rwlock);
			pthread_rwlock_unlock(&rwlock);
		}
		break;
	}
	return (double)(now_ns() - t0) / (double)pairs;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank, as tools/bench does. */
static double pct(const double *v, long n, double p)
{
	long rank = (long)(p / 100.0 * (double)n + 0.999999);

	if (rank < 1)
		rank = 1;
	return v[rank - 1];
}

/* The file the program's pthread_mutex_lock comes from. */
static const char *lock_library(void)
{
	Dl_info info;
	const char *slash;

	if (!dladdr((void *)pthread_mutex_lock, &info) || !info.dli_fname)
		return "unknown";
	slash = strrchr(info.dli_fname, '/');
	return slash ? slash + 1 : info.dli_fname;
}

/* The slice extension for this thread, after the timed rounds. */
static const char *ext_state(void)
{
	int ret;

	if (!rseq_slice_area())
		return "off (no rseq area)";
	ret = rseq_slice_prctl(PR_RSEQ_SLICE_EXTENSION_GET, 0);
	if (ret == PR_RSEQ_SLICE_EXT_ENABLE)
		return "on";
	if (ret == 0)
		return "off";
	if (ret == -EINVAL)
		return "off (kernel lacks it)";
	return "off (unavailable)";
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "lock",	required_argument,	NULL, 'l' },
		{ "pairs",	required_argument,	NULL, 'p' },
		{ "repeat",	required_argument,	NULL, 'r' },
		{ "json",	no_argument,		NULL, 'j' },
		{ "help",	no_argument,		NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	enum lock_kind kind = LOCK_MUTEX;
	long pairs = 1000000, repeat = 21, i;
	bool json = false;
	double *v;
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			for (i = 0; i < 4; i++)
				if (!strcmp(optarg, lock_names[i]))
					break;
			if (i == 4)
				usage_error("--lock: '%s' is not one of mutex, "
					    "spin, rwlock-rd, rwlock-wr", optarg);
			kind = (enum lock_kind)i;
			break;
		case 'p':
			pairs = parse_long("pairs", optarg, 1, 1000000000);
			break;
		case 'r':
			repeat = parse_long("repeat", optarg, 1, 10000);
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			/* getopt_long() said what was wrong. */
			fputs("Try '" TOOL " --help' for more information.\n",
			      stderr);
			return 2;
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);

	v = calloc((size_t)repeat, sizeof(*v));
	if (!v) {
		perror(TOOL ": calloc");
		return 1;
	}
	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);

	/* Untimed: the first lock enables the extension, pages fault in. */
	round_ns(kind, pairs);
	for (i = 0; i < repeat; i++)
		v[i] = round_ns(kind, pairs);
	qsort(v, (size_t)repeat, sizeof(*v), cmp_double);

	if (json) {
		printf("{\"tool\":\"" TOOL "\",\"lock\":\"%s\",\"pairs\":%ld,"
		       "\"repeat\":%ld,\"library\":\"%s\",\"ext\":\"%s\","
		       "\"ns_per_pair_min\":%.3f,\"ns_per_pair_p25\":%.3f,"
		       "\"ns_per_pair_median\":%.3f,\"ns_per_pair_p75\":%.3f,"
		       "\"ns_per_pair_max\":%.3f}\n", lock_names[kind], pairs,
		       repeat, lock_library(), ext_state(), v[0],
		       pct(v, repeat, 25), pct(v, repeat, 50),
		       pct(v, repeat, 75), v[repeat - 1]);
	} else {
		printf(TOOL ": %s, %ld rounds of %ld pairs, one thread\n",
		       lock_calls[kind], repeat, pairs);
		printf("  %-28s %14s\n", "lock functions from",
		       lock_library());
		printf("  %-28s %14s\n", "slice extension", ext_state());
		printf("  %-28s %14.3f\n", "ns per pair, min", v[0]);
		printf("  %-28s %14.3f\n", "ns per pair, p25",
		       pct(v, repeat, 25));
		printf("  %-28s %14.3f\n", "ns per pair, median",
		       pct(v, repeat, 50));
		printf("  %-28s %14.3f\n", "ns per pair, p75",
		       pct(v, repeat, 75));
		printf("  %-28s %14.3f\n", "ns per pair, max", v[repeat - 1]);
	}
	free(v);
	return 0;
}
