// SPDX-License-Identifier: GPL-2.0
/*
 * sliceext - look at and tune the sliceext module from a terminal.
 *
 *	sliceext status
 *	sliceext stat [-i SECONDS] [-n COUNT] [--hist] [--json]
 *	sliceext top [-p PID] [-n COUNT] [-d SECONDS]
 *	sliceext set KNOB VALUE
 *
 * Everything comes from the module's debugfs tree (docs/user-guide.md,
 * "debugfs files") and /sys/module/sliceext; sliceext(8) is the manual.
 * Exit status: 0 success, 2 bad command line (unknown option, knob or
 * command, malformed or out-of-range value), 3 the system cannot do it
 * (not root, module not loaded, debugfs not mounted, a failed read or
 * write). Nothing is written unless every check passed.
 *
 * One file per command over common.c, as bpftool is laid out, so that a
 * command can grow without the others in the way; sliceext.h is what
 * they share.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "sliceext.h"

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
