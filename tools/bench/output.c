// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - the benchmark tools' results: one metrics table per tool
 * (bench.h, struct bench_metric), printed either as one JSON object on
 * one line or as aligned text rows.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>

#include "bench.h"

/*
 * Where a BENCH_VAL_CDF is sampled: dense in the middle and in the tail,
 * where scheduling changes show, and the extremes.
 */
const double bench_cdf_pcts[] = {
	0, 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 98, 99, 99.5, 99.9,
	99.99, 100,
};
const size_t bench_cdf_npcts = BENCH_ARRAY_SIZE(bench_cdf_pcts);

static bool metric_unknown(const struct bench_metric *m)
{
	return m->unknown || (m->kind == BENCH_VAL_NUM && !isfinite(m->v.d));
}

static void json_string(const char *s)
{
	const unsigned char *p;

	putchar('"');
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

static void json_cdf(const struct bench_samples *s)
{
	size_t i;

	putchar('[');
	for (i = 0; i < bench_cdf_npcts; i++) {
		/* p0: nearest rank clamps to the first, the minimum. */
		double us = bench_samples_pct_us(s, bench_cdf_pcts[i]);

		printf("%s[%g, %.3f]", i ? ", " : "", bench_cdf_pcts[i], us);
	}
	putchar(']');
}

static void json_value(const struct bench_metric *m)
{
	if (metric_unknown(m)) {
		fputs("null", stdout);
		return;
	}
	switch (m->kind) {
	case BENCH_VAL_INT:
		printf("%lld", m->v.i);
		break;
	case BENCH_VAL_NUM:
		printf("%.*f", m->decimals, m->v.d);
		break;
	case BENCH_VAL_BOOL:
		fputs(m->v.b ? "true" : "false", stdout);
		break;
	case BENCH_VAL_STR:
		json_string(m->v.s);
		break;
	case BENCH_VAL_CDF:
		if (m->v.cdf->n)
			json_cdf(m->v.cdf);
		else
			fputs("null", stdout);
		break;
	}
}

static void text_row(const struct bench_metric *m)
{
	const char *s = NULL;

	if (metric_unknown(m))
		s = "n/a";
	else if (m->kind == BENCH_VAL_BOOL)
		s = m->v.b ? "yes" : "no";
	else if (m->kind == BENCH_VAL_STR)
		s = m->v.s;
	if (s)
		printf("%-*s %*s\n", BENCH_LABEL_W, m->label, BENCH_VALUE_W, s);
	else if (m->kind == BENCH_VAL_INT)
		printf("%-*s %*lld\n", BENCH_LABEL_W, m->label, BENCH_VALUE_W,
		       m->v.i);
	else if (m->kind == BENCH_VAL_NUM)
		printf("%-*s %*.*f\n", BENCH_LABEL_W, m->label, BENCH_VALUE_W,
		       m->decimals, m->v.d);
}

void bench_print_metrics(const char *tool, const struct bench_metric *m,
			 size_t n, bool json)
{
	size_t i;

	if (!json) {
		for (i = 0; i < n; i++)
			if (m[i].label)
				text_row(&m[i]);
		fflush(stdout);
		return;
	}
	fputs("{\"tool\": ", stdout);
	json_string(tool);
	for (i = 0; i < n; i++) {
		if (!m[i].key)
			continue;
		printf(", \"%s\": ", m[i].key);
		json_value(&m[i]);
	}
	fputs("}\n", stdout);
	fflush(stdout);
}
