// SPDX-License-Identifier: GPL-2.0
/*
 * The part of sliceext every command uses: messages and exit codes, the
 * knob table, finding the module and its debugfs tree, option values.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <mntent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sliceext.h"

/*
 * Every knob with its range and default, generated from
 * module/knob_list.h, the list the module builds its knobs from, so that
 * the tool and a module of the same tree cannot disagree (on_change and
 * desc are the module's business). "set" checks a value against this
 * table before it writes anything; tests/guest/80-cli.sh checks the
 * table against the loaded module.
 */
const struct knob knobs[] = {
#define SLICEEXT_KNOB(dir, name, def, min, max, on_change, desc) \
	{ #dir "/" #name, #dir "_" #name, min, max, def },
#include "../../module/knob_list.h"
};

const unsigned int nr_knobs = ARRAY_SIZE(knobs);

const char *cmd = "sliceext";
char tree[MNT_MAX + 16];

const char usage_text[] =
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

void __attribute__((format(printf, 2, 3), noreturn))
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
int read_file(const char *path, char *buf, size_t size)
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

bool module_loaded(void)
{
	char state[32];

	/* "coming" and "going" are not loaded yet, or any more. */
	return !read_file(MODULE_DIR "/initstate", state, sizeof(state)) &&
	       !strcmp(state, "live\n");
}

/* Where debugfs is mounted, /sys/kernel/debug first; false if nowhere. */
bool debugfs_mount(char *dir, size_t size)
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
void open_tree(bool write)
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

double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sleep until the CLOCK_MONOTONIC time t, through signals that return. */
void sleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

void print_clock(void)
{
	time_t t = time(NULL);
	char buf[16];

	strftime(buf, sizeof(buf), "%H:%M:%S", localtime(&t));
	fputs(buf, stdout);
}

/* Option values: whole string, in range, else a usage error. */
double parse_seconds(const char *opt, const char *s)
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
bool parse_ulong(const char *s, unsigned long *v)
{
	if (!decimal(s))
		return false;
	*v = strtoul(s, NULL, 10);
	return true;
}

unsigned long parse_count(const char *opt, const char *s,
			  unsigned long max)
{
	unsigned long v;

	if (!parse_ulong(s, &v) || v < 1 || v > max)
		die(EXIT_USAGE, "%s: '%s' is not a whole number in 1-%lu", opt, s, max);
	return v;
}

/* getopt_long's '?' and ':' as one clear message. */
void __attribute__((noreturn)) bad_option(int c, char **argv)
{
	const char *arg = argv[optind - 1];

	if (c == ':')
		die(EXIT_USAGE, "option '%s' needs a value", arg);
	if (optopt)
		die(EXIT_USAGE, "unknown option '-%c'", optopt);
	die(EXIT_USAGE, "unknown option '%s'", arg);
}

void no_operands(int argc, char **argv)
{
	if (optind < argc)
		die(EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
}
