// SPDX-License-Identifier: GPL-2.0
/*
 * sliceext top: the fair tasks with the highest burst scores, from
 * burst/tasks, refreshed like top(1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sliceext.h"

#define TOP_ROWS	20

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

int cmd_top(int argc, char **argv)
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
