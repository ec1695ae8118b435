// SPDX-License-Identifier: GPL-2.0
/*
 * sliceext - look at and tune the sliceext module from a terminal.
 *
 *	sliceext status
 *	sliceext stat [-i SECONDS] [-n COUNT] [--hist] [--json]
 *	sliceext top [-p PID] [-n COUNT] [-d SECONDS]
 *	sliceext set KNOB VALUE
 *
 * Everything comes from the module's debugfs tree (README.md,
 * "Interfaces") and /sys/module/sliceext; sliceext(8) is the manual.
 * Exit status: 0 success, 2 bad command line (unknown option, knob or
 * command, malformed or out-of-range value), 3 the system cannot do it
 * (not root, module not loaded, debugfs not mounted, a failed read or
 * write). Nothing is written unless every check passed.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <mntent.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#ifndef SLICEEXT_VERSION
#error "build with -DSLICEEXT_VERSION=\"x.y.z\" (tools/sliceext/Makefile)"
#endif

#define EXIT_USAGE	2
#define EXIT_SYSTEM	3

/* 7.0's request, as in uapi/linux/prctl.h; ENOTSUPP is kernel-internal. */
#define PR_RSEQ_SLICE_EXTENSION		79
#define PR_RSEQ_SLICE_EXTENSION_GET	1
#define ENOTSUPP			524

#define MODULE_DIR	"/sys/module/sliceext"
#define TOP_ROWS	20
#define HIST_BUCKETS	64
#define HIST_BAR	40
#define MAX_COUNTERS	32

/* What to tell a user who cannot go on, and how to fix it. */
#define NOT_LOADED	"the sliceext module is not loaded (modprobe sliceext)"
#define NO_DEBUGFS	"debugfs is not mounted (mount -t debugfs none /sys/kernel/debug)"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * Every knob with the module's range and default (module/slice.c,
 * module/burst.c). "set" checks a value against this table before it
 * writes anything; tests/guest/80-cli.sh checks the table against the
 * loaded module.
 */
static const struct knob {
	const char *name;	/* under <debugfs>/sliceext/ */
	const char *param;	/* the same knob as a module parameter */
	unsigned long min, max, def;
} knobs[] = {
	{ "ext/enabled",		"ext_enabled",		0, 1, 1 },
	{ "ext/slice_ext_nsec",		"slice_ext_nsec",	5000, 50000, 5000 },
	{ "ext/rt_guard",		"rt_guard",		0, 1, 1 },
	{ "burst/enabled",		"burst_enabled",	0, 1, 1 },
	{ "burst/penalty_offset",	"burst_penalty_offset",	0, 63, 24 },
	{ "burst/penalty_scale",	"burst_penalty_scale",	0, 4095, 1536 },
	{ "burst/smoothness",		"burst_smoothness",	0, 3, 1 },
	{ "burst/inherit_type",		"burst_inherit_type",	0, 2, 2 },
	{ "burst/cache_lifetime_ns",	"burst_cache_lifetime_ns",
					0, 1000000000, 75000000 },
	{ "burst/wakeup_half_slice",	"burst_wakeup_half_slice", 0, 1, 1 },
	{ "burst/half_lag_clamp",	"burst_half_lag_clamp",	0, 1, 1 },
	{ "burst/group_placement",	"burst_group_placement", 0, 1, 0 },
	{ "burst/wakeup_unprotect",	"burst_wakeup_unprotect", 0, 1, 1 },
	{ "burst/wakeup_preempt",	"burst_wakeup_preempt",	0, 1, 1 },
	{ "burst/keep_delayed_lag",	"burst_keep_delayed_lag", 0, 1, 1 },
	{ "burst/futex_zero_slice",	"burst_futex_zero_slice", 0, 1, 1 },
	{ "burst/keep_unscored",	"burst_keep_unscored",	0, 1, 1 },
	{ "burst/scored_slice_ns",	"burst_scored_slice_ns",
					0, 100000000, 0 },
	{ "burst/group_keep",		"burst_group_keep",	0, 1, 1 },
};

/* Column headings of "stat" for the counters ext/stats has today. */
static const struct {
	const char *counter, *label;
} stat_labels[] = {
	{ "requested",		"req/s" },
	{ "granted",		"grant/s" },
	{ "denied",		"deny/s" },
	{ "denied_disabled",	"disabl/s" },
	{ "denied_rt_waiter",	"rtwait/s" },
	{ "denied_exit_work",	"exitwk/s" },
	{ "denied_fault",	"fault/s" },
	{ "expired",		"expire/s" },
	{ "revoked",		"revoke/s" },
	{ "yielded",		"yield/s" },
	{ "aborted",		"abort/s" },
};

static const char *cmd = "sliceext";	/* "sliceext stat" etc. in messages */
#define MNT_MAX		256
static char tree[MNT_MAX + 16];		/* <debugfs>/sliceext */

static const char usage_text[] =
"Usage: sliceext COMMAND [OPTION...]\n"
"Look at and tune the sliceext module (time slice extension and\n"
"burst-aware scheduling).\n"
"\n"
"Commands:\n"
"  status                 versions, core patch, debugfs, every knob with\n"
"                         its value, range and default\n"
"  stat [-i SECONDS] [-n COUNT] [--hist] [--json]\n"
"                         one line of ext/stats rates per interval\n"
"    -i, --interval SECONDS  interval, fractions allowed (default 1)\n"
"    -n, --count COUNT       stop after COUNT lines (default: never)\n"
"        --hist              also draw the extension-used histogram\n"
"        --json              one JSON object per line instead\n"
"  top [-p PID] [-n COUNT] [-d SECONDS]\n"
"                         the fair tasks with the highest burst scores\n"
"    -p, --pid PID           only the threads of process PID\n"
"    -n, --count COUNT       stop after COUNT refreshes (default: never)\n"
"    -d, --delay SECONDS     time between refreshes (default 2)\n"
"  set KNOB VALUE         change a knob, e.g. ext/slice_ext_nsec 20000\n"
"\n"
"Options:\n"
"  -h, --help             show this help and exit\n"
"  -V, --version          show the version and exit\n"
"\n"
"Exit status: 0 success, 2 bad command line, 3 not possible here (not\n"
"root, module not loaded, debugfs not mounted, failed read or write).\n"
"See sliceext(8).\n";

static void __attribute__((format(printf, 2, 3), noreturn))
die(int status, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (status == EXIT_USAGE)
		fprintf(stderr, "Try 'sliceext --help'.\n");
	exit(status);
}

/* Read a small file into buf; 0 or -errno. */
static int read_file(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	size_t n;
	int err;

	if (!f)
		return -errno;
	n = fread(buf, 1, size - 1, f);
	err = ferror(f) ? -EIO : 0;
	fclose(f);
	buf[n] = '\0';
	return err;
}

static bool module_loaded(void)
{
	char state[32];

	/* "coming" and "going" are not loaded yet, or any more. */
	return !read_file(MODULE_DIR "/initstate", state, sizeof(state)) &&
	       !strcmp(state, "live\n");
}

/* Where debugfs is mounted, /sys/kernel/debug first; false if nowhere. */
static bool debugfs_mount(char *dir, size_t size)
{
	struct mntent *m;
	bool found = false;
	FILE *f;

	f = setmntent("/proc/self/mounts", "re");
	if (!f)
		return false;
	while ((m = getmntent(f))) {
		if (strcmp(m->mnt_type, "debugfs") || strlen(m->mnt_dir) >= size)
			continue;
		if (!found || !strcmp(m->mnt_dir, "/sys/kernel/debug"))
			snprintf(dir, size, "%s", m->mnt_dir);
		found = true;
	}
	endmntent(f);
	return found;
}

/*
 * Find the module's debugfs tree or exit with the reason it cannot be
 * used. Before any write: a command that fails here has changed nothing.
 */
static void open_tree(bool write)
{
	char mnt[MNT_MAX], path[sizeof(tree) + 16], buf[64];
	int err;

	if (write && geteuid() != 0)
		die(EXIT_SYSTEM, "must be root to change a knob");
	if (!module_loaded())
		die(EXIT_SYSTEM, NOT_LOADED);
	if (!debugfs_mount(mnt, sizeof(mnt)))
		die(EXIT_SYSTEM, NO_DEBUGFS);
	snprintf(tree, sizeof(tree), "%s/sliceext", mnt);
	snprintf(path, sizeof(path), "%s/version", tree);
	err = read_file(path, buf, sizeof(buf));
	if (err == -EACCES || err == -EPERM)
		die(EXIT_SYSTEM, "cannot read %s: %s (debugfs is for root only)",
		    tree, strerror(-err));
	if (err == -ENOENT)
		die(EXIT_SYSTEM, "%s is missing: was debugfs mounted when sliceext was loaded?",
		    tree);
	if (err)
		die(EXIT_SYSTEM, "cannot read %s: %s", path, strerror(-err));
}

static double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sleep until the CLOCK_MONOTONIC time t, through signals that return. */
static void sleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void print_clock(void)
{
	time_t t = time(NULL);
	char buf[16];

	strftime(buf, sizeof(buf), "%H:%M:%S", localtime(&t));
	fputs(buf, stdout);
}

/* Option values: whole string, in range, else a usage error. */
static double parse_seconds(const char *opt, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < 0.01 || v > 86400)
		die(EXIT_USAGE, "%s: '%s' is not a number of seconds in 0.01-86400",
		    opt, s);
	return v;
}

/* Decimal digits only: no sign, space, base prefix or exponent. */
static bool decimal(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* A decimal number; one too large for unsigned long becomes ULONG_MAX. */
static bool parse_ulong(const char *s, unsigned long *v)
{
	if (!decimal(s))
		return false;
	*v = strtoul(s, NULL, 10);
	return true;
}

static unsigned long parse_count(const char *opt, const char *s,
				 unsigned long max)
{
	unsigned long v;

	if (!parse_ulong(s, &v) || v < 1 || v > max)
		die(EXIT_USAGE, "%s: '%s' is not a whole number in 1-%lu", opt, s, max);
	return v;
}

/* getopt_long's '?' and ':' as one clear message. */
static void __attribute__((noreturn)) bad_option(int c, char **argv)
{
	const char *arg = argv[optind - 1];

	if (c == ':')
		die(EXIT_USAGE, "option '%s' needs a value", arg);
	if (optopt)
		die(EXIT_USAGE, "unknown option '-%c'", optopt);
	die(EXIT_USAGE, "unknown option '%s'", arg);
}

static void no_operands(int argc, char **argv)
{
	if (optind < argc)
		die(EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
}

/* status */

/*
 * CONFIG_SCHED_SLICEEXT in the running kernel's config: "y", "not set",
 * or NULL when no config is found; *where says which file answered.
 */
static const char *config_answer(const char **where)
{
	static const char prefix[] = "CONFIG_SCHED_SLICEEXT=";
	static char boot[128];
	const char *paths[] = { "/proc/config.gz", boot };
	const char *answer = NULL;
	char line[256];
	struct utsname u;
	unsigned int i;
	gzFile f;

	uname(&u);
	snprintf(boot, sizeof(boot), "/boot/config-%s", u.release);
	for (i = 0; i < 2 && !answer; i++) {
		/* gzopen() reads an uncompressed file as it is. */
		f = gzopen(paths[i], "r");
		if (!f)
			continue;
		answer = "not set";
		*where = paths[i];
		while (gzgets(f, line, sizeof(line))) {
			if (!strncmp(line, prefix, sizeof(prefix) - 1)) {
				if (line[sizeof(prefix) - 1] == 'y')
					answer = "y";
				break;
			}
		}
		gzclose(f);
	}
	return answer;
}

/*
 * Whether the running kernel has the core patch. The prctl decides: a
 * stock kernel does not know option 79 (EINVAL); a patched one without
 * the module answers ENOTSUPP, one without an rseq area ENXIO.
 */
static bool core_patch(char *how, size_t size)
{
	const char *where = NULL, *config = config_answer(&where), *answer;
	char cfg[256];
	bool patched = true;
	int ret;

	ret = prctl(PR_RSEQ_SLICE_EXTENSION, PR_RSEQ_SLICE_EXTENSION_GET, 0, 0, 0);
	if (ret >= 0) {
		answer = "served";
	} else if (errno == ENOTSUPP) {
		answer = "answers ENOTSUPP: not served now";
	} else if (errno == ENXIO) {
		answer = "answers ENXIO: no rseq area";
	} else {
		answer = errno == EINVAL ? "unknown to this kernel" : strerror(errno);
		patched = false;
	}
	if (config)
		snprintf(cfg, sizeof(cfg), "CONFIG_SCHED_SLICEEXT%s%s in %s",
			 strcmp(config, "y") ? " " : "=", config, where);
	else
		snprintf(cfg, sizeof(cfg), "no kernel config found");
	snprintf(how, size, "prctl(PR_RSEQ_SLICE_EXTENSION) %s; %s", answer, cfg);
	return patched;
}

static int cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	char how[512], mnt[MNT_MAX], path[MNT_MAX + 64], buf[64];
	char ver[64];
	bool loaded, mounted, patched;
	unsigned int i, abi;
	struct utsname u;
	int c, err;

	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (c != 'h')
			bad_option(c, argv);
		fputs(usage_text, stdout);
		return 0;
	}
	no_operands(argc, argv);

	uname(&u);
	loaded = module_loaded();
	mounted = debugfs_mount(mnt, sizeof(mnt));
	patched = core_patch(how, sizeof(how));

	printf("%-12s %s\n", "tool", SLICEEXT_VERSION);
	printf("%-12s %s %s\n", "kernel", u.release, u.machine);
	printf("%-12s %s (%s)\n", "core patch", patched ? "yes" : "no", how);
	if (mounted)
		printf("%-12s mounted at %s\n", "debugfs", mnt);
	else
		printf("%-12s not mounted\n", "debugfs");

	if (!loaded) {
		printf("%-12s not loaded\n", "module");
	} else {
		snprintf(path, sizeof(path), "%s/sliceext/version", mnt);
		err = mounted ? read_file(path, buf, sizeof(buf)) : -ENOENT;
		if (!err && sscanf(buf, "%63s %u", ver, &abi) == 2) {
			printf("%-12s loaded: version %s, hook ABI %u\n", "module",
			       ver, abi);
		} else {
			/* The hook ABI is only in debugfs. */
			if (read_file(MODULE_DIR "/version", buf, sizeof(buf)))
				snprintf(buf, sizeof(buf), "?");
			buf[strcspn(buf, "\n")] = '\0';
			printf("%-12s loaded: version %s, hook ABI unknown (%s)\n",
			       "module", buf, !mounted ? "no debugfs" :
			       err == -EACCES ? "debugfs is for root only" :
			       strerror(-err));
		}
	}

	printf("\n%-26s %10s %12s %10s\n", "KNOB", "VALUE", "RANGE", "DEFAULT");
	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		const struct knob *k = &knobs[i];
		char range[32];

		snprintf(path, sizeof(path), MODULE_DIR "/parameters/%s", k->param);
		if (!loaded || read_file(path, buf, sizeof(buf)))
			snprintf(buf, sizeof(buf), "-");
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(range, sizeof(range), "%lu-%lu", k->min, k->max);
		printf("%-26s %10s %12s %10lu\n", k->name, buf, range, k->def);
	}

	if (!loaded)
		fprintf(stderr, "%s: " NOT_LOADED "\n", cmd);
	if (!mounted)
		fprintf(stderr, "%s: " NO_DEBUGFS "\n", cmd);
	return loaded && mounted ? 0 : EXIT_SYSTEM;
}

/* stat */

struct counters {
	unsigned int nr;
	char name[MAX_COUNTERS][32];
	unsigned long long val[MAX_COUNTERS];
};

/* "name value" lines, in the file's order. */
static void read_counters(const char *file, struct counters *c)
{
	char path[sizeof(tree) + 32], line[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tree, file);
	f = fopen(path, "re");
	if (!f)
		die(EXIT_SYSTEM, "cannot read %s: %s%s", path, strerror(errno),
		    module_loaded() ? "" : " (sliceext was unloaded)");
	c->nr = 0;
	while (fgets(line, sizeof(line), f) && c->nr < MAX_COUNTERS) {
		if (sscanf(line, "%31s %llu", c->name[c->nr], &c->val[c->nr]) == 2)
			c->nr++;
	}
	fclose(f);
	if (!c->nr)
		die(EXIT_SYSTEM, "%s: no counters%s", path,
		    module_loaded() ? "" : " (sliceext was unloaded)");
}

/* ext/hist's "low_ns high_ns count" lines into log2 buckets. */
static void read_hist(unsigned long long *hist)
{
	char path[sizeof(tree) + 32];
	unsigned long long low, high, count;
	FILE *f;

	memset(hist, 0, HIST_BUCKETS * sizeof(*hist));
	snprintf(path, sizeof(path), "%s/ext/hist", tree);
	f = fopen(path, "re");
	if (!f)
		die(EXIT_SYSTEM, "cannot read %s: %s", path, strerror(errno));
	while (fscanf(f, "%llu %llu %llu", &low, &high, &count) == 3)
		hist[low ? __builtin_ctzll(low) : 0] = count;
	fclose(f);
}

/* A counter reset (writing 0) restarts it: count from zero then. */
static unsigned long long delta(unsigned long long cur, unsigned long long prev)
{
	return cur >= prev ? cur - prev : cur;
}

static bool same_counters(const struct counters *a, const struct counters *b)
{
	unsigned int i;

	if (a->nr != b->nr)
		return false;
	for (i = 0; i < a->nr; i++)
		if (strcmp(a->name[i], b->name[i]))
			return false;
	return true;
}

static const char *stat_label(const char *counter, char *buf, size_t size)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(stat_labels); i++)
		if (!strcmp(stat_labels[i].counter, counter))
			return stat_labels[i].label;
	snprintf(buf, size, "%s/s", counter);
	return buf;
}

static int find_counter(const struct counters *c, const char *name)
{
	unsigned int i;

	for (i = 0; i < c->nr; i++)
		if (!strcmp(c->name[i], name))
			return i;
	return -1;
}

static void fmt_ns(unsigned long long ns, char *buf, size_t size)
{
	if (ns < 1000)
		snprintf(buf, size, "%lluns", ns);
	else if (ns < 1000000)
		snprintf(buf, size, "%.1fus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, size, "%.1fms", ns / 1e6);
	else
		snprintf(buf, size, "%.1fs", ns / 1e9);
}

static unsigned long long bucket_low(int i)
{
	return i ? 1ULL << i : 0;
}

static unsigned long long bucket_high(int i)
{
	return i < 63 ? (1ULL << (i + 1)) - 1 : ~0ULL;
}

static void print_hist(const unsigned long long *d)
{
	unsigned long long max = 0;
	int first = -1, last = -1, i, w;
	char lo[16], hi[16];

	for (i = 0; i < HIST_BUCKETS; i++) {
		if (!d[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
		if (d[i] > max)
			max = d[i];
	}
	if (first < 0) {
		printf("  (no extension ended in this interval)\n\n");
		return;
	}
	printf("  %-19s %10s\n", "extension used", "count");
	for (i = first; i <= last; i++) {
		fmt_ns(bucket_low(i), lo, sizeof(lo));
		fmt_ns(bucket_high(i), hi, sizeof(hi));
		/* A non-empty bucket always gets at least one mark. */
		w = d[i] ? (int)((d[i] * HIST_BAR + max - 1) / max) : 0;
		printf("  %8s - %-8s %10llu |%-*.*s|\n", lo, hi, d[i], HIST_BAR, w,
		       "########################################");
	}
	putchar('\n');
}

static void print_stat_header(const struct counters *c)
{
	char buf[48];
	unsigned int i;

	printf("%-8s", "time");
	for (i = 0; i < c->nr; i++)
		printf(" %9s", stat_label(c->name[i], buf, sizeof(buf)));
	printf(" %7s\n", "grant%");
}

static void print_stat_json(const struct counters *c,
			    const unsigned long long *d, double secs,
			    double ratio, const unsigned long long *hd)
{
	unsigned int i;
	bool first = true;
	int b;

	printf("{\"time\":%.3f,\"interval_s\":%.6f,\"rates\":{", now(CLOCK_REALTIME),
	       secs);
	for (i = 0; i < c->nr; i++)
		printf("%s\"%s\":%.3f", i ? "," : "", c->name[i], d[i] / secs);
	printf("},\"deltas\":{");
	for (i = 0; i < c->nr; i++)
		printf("%s\"%s\":%llu", i ? "," : "", c->name[i], d[i]);
	printf("},\"grant_ratio\":");
	if (isnan(ratio))
		printf("null");
	else
		printf("%.6f", ratio);
	if (hd) {
		printf(",\"hist\":[");
		for (b = 0; b < HIST_BUCKETS; b++) {
			if (!hd[b])
				continue;
			printf("%s{\"low_ns\":%llu,\"high_ns\":%llu,\"count\":%llu}",
			       first ? "" : ",", bucket_low(b), bucket_high(b), hd[b]);
			first = false;
		}
		printf("]");
	}
	printf("}\n");
}

static int cmd_stat(int argc, char **argv)
{
	enum { OPT_HIST = 256, OPT_JSON };
	static const struct option opts[] = {
		{ "interval",	required_argument,	NULL, 'i' },
		{ "count",	required_argument,	NULL, 'n' },
		{ "hist",	no_argument,		NULL, OPT_HIST },
		{ "json",	no_argument,		NULL, OPT_JSON },
		{ "help",	no_argument,		NULL, 'h' },
		{ }
	};
	unsigned long long d[MAX_COUNTERS], hist[2][HIST_BUCKETS], hd[HIST_BUCKETS];
	struct counters c[2];
	double interval = 1, t0, t1, next, ratio;
	unsigned long count = 0, n;
	bool hist_on = false, json = false;
	int opt, cur = 0, g, r, b;
	unsigned int i;

	while ((opt = getopt_long(argc, argv, ":i:n:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			interval = parse_seconds("-i", optarg);
			break;
		case 'n':
			count = parse_count("-n", optarg, ULONG_MAX);
			break;
		case OPT_HIST:
			hist_on = true;
			break;
		case OPT_JSON:
			json = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			bad_option(opt, argv);
		}
	}
	no_operands(argc, argv);
	open_tree(false);

	read_counters("ext/stats", &c[cur]);
	if (hist_on)
		read_hist(hist[cur]);
	t0 = now(CLOCK_MONOTONIC);
	next = t0;
	if (!json && !hist_on)
		print_stat_header(&c[cur]);

	for (n = 0; !count || n < count; n++) {
		next += interval;
		sleep_until(next);
		cur ^= 1;
		read_counters("ext/stats", &c[cur]);
		if (hist_on)
			read_hist(hist[cur]);
		t1 = now(CLOCK_MONOTONIC);
		/* Late (stopped, overloaded): no burst of catch-up samples. */
		if (next < t1)
			next = t1;

		if (!same_counters(&c[cur], &c[!cur]))
			die(EXIT_SYSTEM, "ext/stats changed: was the module replaced?");
		for (i = 0; i < c[cur].nr; i++)
			d[i] = delta(c[cur].val[i], c[!cur].val[i]);
		for (b = 0; hist_on && b < HIST_BUCKETS; b++)
			hd[b] = delta(hist[cur][b], hist[!cur][b]);
		g = find_counter(&c[cur], "granted");
		r = find_counter(&c[cur], "requested");
		ratio = g >= 0 && r >= 0 && d[r] ? (double)d[g] / d[r] : NAN;

		if (json) {
			print_stat_json(&c[cur], d, t1 - t0, ratio,
					hist_on ? hd : NULL);
		} else {
			if (hist_on)
				print_stat_header(&c[cur]);
			print_clock();
			for (i = 0; i < c[cur].nr; i++)
				printf(" %9.1f", d[i] / (t1 - t0));
			if (isnan(ratio))
				printf(" %7s\n", "-");
			else
				printf(" %7.1f\n", ratio * 100);
			if (hist_on)
				print_hist(hd);
		}
		fflush(stdout);
		t0 = t1;
	}
	return 0;
}

/* top */

struct task {
	int pid;
	char comm[64];
	unsigned long score, penalty, weight;
	unsigned long long burst_ns;
};

/* Column of burst/tasks @name, counted from the end of the line. */
static int column_from_end(char **cols, int nr, const char *name)
{
	int i;

	for (i = 2; i < nr; i++)
		if (!strcmp(cols[i], name))
			return nr - 1 - i;
	die(EXIT_SYSTEM, "%s/burst/tasks has no column '%s'", tree, name);
}

static int split(char *line, char **cols, int max)
{
	int nr = 0;
	char *tok;

	for (tok = strtok(line, " \t\n"); tok && nr < max; tok = strtok(NULL, " \t\n"))
		cols[nr++] = tok;
	return nr;
}

/*
 * burst/tasks: "pid comm score penalty burst_ns weight" after a header
 * naming the columns. A comm may hold spaces, so the numbers are taken
 * from the end of the line.
 */
static struct task *read_tasks(size_t *nr)
{
	char path[sizeof(tree) + 32], line[256], *cols[32];
	int ncols, score, penalty, burst, weight, n, comm_end;
	struct task *tasks = NULL, *t;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/burst/tasks", tree);
	f = fopen(path, "re");
	if (!f)
		die(EXIT_SYSTEM, "cannot read %s: %s%s", path, strerror(errno),
		    module_loaded() ? "" : " (sliceext was unloaded)");
	if (!fgets(line, sizeof(line), f))
		die(EXIT_SYSTEM, "%s is empty", path);
	ncols = split(line, cols, 32);
	if (ncols < 3 || strcmp(cols[0], "pid") || strcmp(cols[1], "comm"))
		die(EXIT_SYSTEM, "%s: unexpected header", path);
	score = column_from_end(cols, ncols, "score");
	penalty = column_from_end(cols, ncols, "penalty");
	burst = column_from_end(cols, ncols, "burst_ns");
	weight = column_from_end(cols, ncols, "weight");

	*nr = 0;
	while (fgets(line, sizeof(line), f)) {
		char copy[sizeof(line)];

		memcpy(copy, line, sizeof(copy));
		n = split(line, cols, 32);
		if (n < ncols)
			continue;
		if (*nr == cap) {
			cap = cap ? 2 * cap : 256;
			tasks = realloc(tasks, cap * sizeof(*tasks));
			if (!tasks)
				die(EXIT_SYSTEM, "out of memory");
		}
		t = &tasks[(*nr)++];
		t->pid = atoi(cols[0]);
		t->score = strtoul(cols[n - 1 - score], NULL, 10);
		t->penalty = strtoul(cols[n - 1 - penalty], NULL, 10);
		t->burst_ns = strtoull(cols[n - 1 - burst], NULL, 10);
		t->weight = strtoul(cols[n - 1 - weight], NULL, 10);
		/* The comm: from after the pid to before the numbers. */
		comm_end = cols[n - (ncols - 2)] - line - 1;
		snprintf(t->comm, sizeof(t->comm), "%.*s",
			 comm_end - (int)(cols[1] - line), copy + (cols[1] - line));
	}
	fclose(f);
	return tasks;
}

static int task_cmp(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	if (x->penalty != y->penalty)
		return x->penalty < y->penalty ? 1 : -1;
	if (x->burst_ns != y->burst_ns)
		return x->burst_ns < y->burst_ns ? 1 : -1;
	return x->pid - y->pid;
}

/* Whether thread @tid belongs to process @pid (or is it). */
static bool in_process(int tid, int pid)
{
	char path[64];

	if (tid == pid)
		return true;
	snprintf(path, sizeof(path), "/proc/%d/task/%d", pid, tid);
	return !access(path, F_OK);
}

static bool process_exists(int pid)
{
	char path[32];

	snprintf(path, sizeof(path), "/proc/%d", pid);
	return !access(path, F_OK);
}

static int cmd_top(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pid",	required_argument,	NULL, 'p' },
		{ "count",	required_argument,	NULL, 'n' },
		{ "delay",	required_argument,	NULL, 'd' },
		{ "help",	no_argument,		NULL, 'h' },
		{ }
	};
	unsigned long count = 0, n, scored;
	double delay = 2, next;
	bool tty = isatty(STDOUT_FILENO);
	struct task *tasks;
	size_t nr, i, shown;
	int opt, pid = 0;

	while ((opt = getopt_long(argc, argv, ":p:n:d:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			pid = parse_count("-p", optarg, INT_MAX);
			break;
		case 'n':
			count = parse_count("-n", optarg, ULONG_MAX);
			break;
		case 'd':
			delay = parse_seconds("-d", optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			bad_option(opt, argv);
		}
	}
	no_operands(argc, argv);
	if (pid && !process_exists(pid))
		die(EXIT_USAGE, "-p: no process %d", pid);
	open_tree(false);

	next = now(CLOCK_MONOTONIC);
	for (n = 0; !count || n < count; n++) {
		if (n) {
			next += delay;
			sleep_until(next);
		}
		if (pid && !process_exists(pid)) {
			fprintf(stderr, "%s: process %d has exited\n", cmd, pid);
			return 0;
		}
		tasks = read_tasks(&nr);
		qsort(tasks, nr, sizeof(*tasks), task_cmp);
		for (i = 0, scored = 0; i < nr; i++)
			scored += tasks[i].score > 0;

		/* On a terminal each refresh replaces the last, as in top. */
		if (tty)
			fputs("\033[H\033[2J", stdout);
		else if (n)
			putchar('\n');
		printf("sliceext top - ");
		print_clock();
		printf(" - %zu fair tasks, %lu with a burst score\n", nr, scored);
		printf("%7s %-16s %5s %7s %12s %7s\n", "PID", "COMM", "SCORE",
		       "PENALTY", "BURST_MS", "WEIGHT");
		for (i = 0, shown = 0; i < nr && (pid || shown < TOP_ROWS); i++) {
			const struct task *t = &tasks[i];

			if (pid && !in_process(t->pid, pid))
				continue;
			/* se.load.weight is scaled by 1024 on 64-bit. */
			printf("%7d %-16s %5lu %7lu %12.3f %7lu\n", t->pid, t->comm,
			       t->score, t->penalty, t->burst_ns / 1e6,
			       t->weight >> 10);
			shown++;
		}
		fflush(stdout);
		free(tasks);
	}
	return 0;
}

/* set */

static int cmd_set(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	char path[sizeof(tree) + 64], old[32], val[32];
	const struct knob *k = NULL;
	unsigned long v;
	unsigned int i;
	ssize_t len;
	int c, err;
	FILE *f;

	/* "+": stop at the knob, so that a VALUE of "-1" is an operand. */
	while ((c = getopt_long(argc, argv, "+:h", opts, NULL)) != -1) {
		if (c != 'h')
			bad_option(c, argv);
		fputs(usage_text, stdout);
		return 0;
	}
	if (argc - optind != 2)
		die(EXIT_USAGE, "usage: sliceext set KNOB VALUE");

	for (i = 0; i < ARRAY_SIZE(knobs); i++)
		if (!strcmp(knobs[i].name, argv[optind]))
			k = &knobs[i];
	if (!k) {
		fprintf(stderr, "%s: unknown knob '%s'; the knobs are:\n", cmd,
			argv[optind]);
		for (i = 0; i < ARRAY_SIZE(knobs); i++)
			fprintf(stderr, "  %-26s %lu-%lu\n", knobs[i].name,
				knobs[i].min, knobs[i].max);
		return EXIT_USAGE;
	}
	if (!parse_ulong(argv[optind + 1], &v))
		die(EXIT_USAGE, "%s: '%s' is not a decimal number; the range is %lu-%lu",
		    k->name, argv[optind + 1], k->min, k->max);
	if (v < k->min || v > k->max)
		die(EXIT_USAGE, "%s: %s is out of range %lu-%lu (default %lu)",
		    k->name, argv[optind + 1], k->min, k->max, k->def);

	open_tree(true);
	snprintf(path, sizeof(path), "%s/%s", tree, k->name);
	err = read_file(path, old, sizeof(old));
	if (err)
		die(EXIT_SYSTEM, "cannot read %s: %s", path, strerror(-err));
	old[strcspn(old, "\n")] = '\0';

	f = fopen(path, "we");
	if (!f)
		die(EXIT_SYSTEM, "cannot open %s: %s", path, strerror(errno));
	len = snprintf(val, sizeof(val), "%lu\n", v);
	/* One write(2): the module takes a value only whole. */
	setvbuf(f, NULL, _IONBF, 0);
	if (fwrite(val, 1, len, f) != (size_t)len || fclose(f))
		die(EXIT_SYSTEM, "writing %lu to %s: %s", v, path, strerror(errno));
	printf("%s: %s -> %lu\n", k->name, old, v);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "status",	cmd_status },
		{ "stat",	cmd_stat },
		{ "top",	cmd_top },
		{ "set",	cmd_set },
	};
	static char name[32];
	unsigned int i;

	if (argc < 2)
		die(EXIT_USAGE, "no command: status, stat, top or set");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("sliceext %s\n", SLICEEXT_VERSION);
		return 0;
	}
	if (argv[1][0] == '-')
		die(EXIT_USAGE, "unknown option '%s'", argv[1]);

	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		snprintf(name, sizeof(name), "sliceext %s", cmds[i].name);
		cmd = name;
		/* getopt's own messages would name argv[0]; ours say more. */
		opterr = 0;
		return cmds[i].fn(argc - 1, argv + 1);
	}
	die(EXIT_USAGE, "unknown command '%s'", argv[1]);
}
