/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the subcommands of sliceext share: main.c dispatches to cmd_*(),
 * one file per command; common.c holds the rest declared here.
 */
#ifndef SLICEEXT_TOOL_H
#define SLICEEXT_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#ifndef SLICEEXT_VERSION
#error "build with -DSLICEEXT_VERSION=\"x.y.z\" (tools/sliceext/Makefile)"
#endif

#define EXIT_USAGE	2
#define EXIT_SYSTEM	3

#define MODULE_DIR	"/sys/module/sliceext"

/* What to tell a user who cannot go on, and how to fix it. */
#define NOT_LOADED	"the sliceext module is not loaded (modprobe sliceext)"
#define NO_DEBUGFS	"debugfs is not mounted (mount -t debugfs none /sys/kernel/debug)"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct knob {
	const char *name;	/* under <debugfs>/sliceext/ */
	const char *param;	/* the same knob as a module parameter */
	unsigned long min, max, def;
};

extern const struct knob knobs[];
extern const unsigned int nr_knobs;

extern const char usage_text[];
extern const char *cmd;			/* "sliceext stat" etc. in messages */

#define MNT_MAX		256
extern char tree[MNT_MAX + 16];		/* <debugfs>/sliceext, by open_tree() */

void __attribute__((format(printf, 2, 3), noreturn))
die(int status, const char *fmt, ...);
int read_file(const char *path, char *buf, size_t size);
bool module_loaded(void);
bool debugfs_mount(char *dir, size_t size);
void open_tree(bool write);

double now(clockid_t clock);
void sleep_until(double t);
void print_clock(void);

double parse_seconds(const char *opt, const char *s);
bool parse_ulong(const char *s, unsigned long *v);
unsigned long parse_count(const char *opt, const char *s, unsigned long max);
void __attribute__((noreturn)) bad_option(int c, char **argv);
void no_operands(int argc, char **argv);

int cmd_status(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_set(int argc, char **argv);

#endif /* SLICEEXT_TOOL_H */
