// SPDX-License-Identifier: GPL-2.0
/*
 * sliceext stat: ext/stats as rates. Counters are listed by name as the
 * module gives them, so that a newer module's counters show up too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sliceext.h"

#define HIST_BUCKETS	64
#define HIST_BAR	40
#define MAX_COUNTERS	32

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

int cmd_stat(int argc, char **argv)
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
