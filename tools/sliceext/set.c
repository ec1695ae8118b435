// SPDX-License-Identifier: GPL-2.0
/*
 * sliceext set: change one knob. Every check comes before the write, so
 * that a refused command has changed nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "sliceext.h"

int cmd_set(int argc, char **argv)
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

	for (i = 0; i < nr_knobs; i++)
		if (!strcmp(knobs[i].name, argv[optind]))
			k = &knobs[i];
	if (!k) {
		fprintf(stderr, "%s: unknown knob '%s'; the knobs are:\n", cmd,
			argv[optind]);
		for (i = 0; i < nr_knobs; i++)
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
