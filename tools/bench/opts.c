// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - the benchmark tools' options: one table per tool (bench.h,
 * struct bench_opt) gives getopt_long()'s table, the value checks and
 * the --help text, so an option cannot be accepted without being
 * documented, and bad input is refused with the same words everywhere.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

void bench_usage_error(const char *tool, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", tool);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help'.\n", tool);
	exit(2);
}

static long parse_long(const char *tool, const char *opt, const char *arg,
		       long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (!*arg || *arg == ' ' || *end || errno)
		bench_usage_error(tool, "--%s: '%s' is not an integer",
				  opt, arg);
	if (v < min || v > max)
		bench_usage_error(tool, "--%s: %ld is out of range %ld..%ld",
				  opt, v, min, max);
	return v;
}

static double parse_double(const char *tool, const char *opt, const char *arg,
			   double min, bool min_open, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (!*arg || *arg == ' ' || *end || errno || !isfinite(v))
		bench_usage_error(tool, "--%s: '%s' is not a number", opt, arg);
	if (v < min || (min_open && v == min) || v > max)
		bench_usage_error(tool, "--%s: %s is out of range %c%g, %g]",
				  opt, arg, min_open ? '(' : '[', min, max);
	return v;
}

static int parse_choice(const char *tool, const struct bench_opt *o,
			const char *arg)
{
	char list[256] = "";
	size_t len = 0;
	int i;

	for (i = 0; o->choices[i]; i++)
		if (!strcmp(arg, o->choices[i]))
			return i;
	/* "a, b or c": the message lists what would have been accepted. */
	for (i = 0; o->choices[i] && len < sizeof(list); i++)
		len += snprintf(list + len, sizeof(list) - len, "%s%s",
				!i ? "" : o->choices[i + 1] ? ", " : " or ",
				o->choices[i]);
	bench_usage_error(tool, "--%s: '%s' is not %s", o->name, arg, list);
}

static void set_option(const char *tool, const struct bench_opt *o,
		       const char *arg)
{
	switch (o->kind) {
	case BENCH_OPT_FLAG:
		*o->to.flag = true;
		break;
	case BENCH_OPT_LONG:
		*o->to.l = parse_long(tool, o->name, arg, (long)o->min,
				      (long)o->max);
		break;
	case BENCH_OPT_DOUBLE:
		*o->to.d = parse_double(tool, o->name, arg, o->min,
					o->min_open, o->max);
		break;
	case BENCH_OPT_CHOICE:
		*o->to.choice = parse_choice(tool, o, arg);
		break;
	}
}

/* The width of "--name ARG". */
static int opt_width(const char *name, const char *arg)
{
	return 2 + (int)strlen(name) + (arg ? 1 + (int)strlen(arg) : 0);
}

/* "  --name ARG", then each line of @help starting in column @col. */
static void print_option(const char *name, const char *arg, const char *help,
			 int col)
{
	int w = printf("  --%s%s%s", name, arg ? " " : "", arg ? arg : "");
	const char *nl;

	for (;;) {
		nl = strchrnul(help, '\n');
		printf("%*s%.*s\n", col - w, "", (int)(nl - help), help);
		if (!*nl)
			break;
		help = nl + 1;
		w = 0;
	}
}

static void __attribute__((noreturn))
print_help(const char *tool, const char *about, const struct bench_opt *opts,
	   size_t n)
{
	int col = opt_width("help", NULL);
	size_t i;

	for (i = 0; i < n; i++)
		if (opt_width(opts[i].name, opts[i].arg) > col)
			col = opt_width(opts[i].name, opts[i].arg);
	/* Indented by two, three spaces after the longest: one column. */
	col += 2 + 3;
	printf("Usage: %s [OPTION]...\n%s\n", tool, about);
	for (i = 0; i < n; i++)
		print_option(opts[i].name, opts[i].arg, opts[i].help, col);
	print_option("help", NULL, "show this help", col);
	exit(0);
}

/*
 * getopt_long() returns OPT_VAL0 + the option's index: past any
 * character, so that it cannot be taken for -h or for getopt's '?' and
 * ':'. --help is the last index.
 */
#define OPT_VAL0	0x100

void bench_parse_options(const char *tool, const char *about,
			 const struct bench_opt *opts, size_t n,
			 int argc, char **argv)
{
	struct option *lo = bench_calloc(tool, n + 2, sizeof(*lo));
	size_t i;
	int c;

	for (i = 0; i < n; i++) {
		lo[i].name = opts[i].name;
		lo[i].has_arg = opts[i].kind == BENCH_OPT_FLAG ?
				no_argument : required_argument;
		lo[i].val = OPT_VAL0 + i;
	}
	lo[n].name = "help";
	lo[n].has_arg = no_argument;
	lo[n].val = OPT_VAL0 + n;

	opterr = 0;
	/* Leading ':' reports a missing value as ':' rather than '?'. */
	while ((c = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		if (c == 'h' || c == lo[n].val) {
			free(lo);
			print_help(tool, about, opts, n);
		}
		if (c >= OPT_VAL0) {
			set_option(tool, &opts[c - OPT_VAL0], optarg);
			continue;
		}
		if (c == ':')
			bench_usage_error(tool, "option '%s' needs a value",
					  argv[optind - 1]);
		/* A value given to a flag: optopt is that option's val. */
		if (optopt >= OPT_VAL0)
			bench_usage_error(tool, "option '--%s' takes no value",
					  lo[optopt - OPT_VAL0].name);
		if (optopt)
			bench_usage_error(tool, "unknown option '-%c'", optopt);
		bench_usage_error(tool, "unknown option '%s'",
				  argv[optind - 1]);
	}
	/* Every tool takes options only: a stray word is a typo. */
	if (optind < argc)
		bench_usage_error(tool, "unexpected argument '%s'",
				  argv[optind]);
	free(lo);
}
