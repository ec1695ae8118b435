// SPDX-License-Identifier: GPL-2.0
/*
 * sliceext status: is everything in place? Each part is printed whether
 * or not the others are, so that one answer shows all that is missing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <zlib.h>

#include "sliceext.h"

/* 7.0's request, as in uapi/linux/prctl.h; ENOTSUPP is kernel-internal. */
#define PR_RSEQ_SLICE_EXTENSION		79
#define PR_RSEQ_SLICE_EXTENSION_GET	1
#define ENOTSUPP			524

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
 * stock kernel does not know option 79 (EINVAL); a patched one answers
 * ENOTSUPP while the module is not loaded, and the module answers GET
 * whatever its knobs say.
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

int cmd_status(int argc, char **argv)
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
	for (i = 0; i < nr_knobs; i++) {
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
