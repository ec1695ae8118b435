// SPDX-License-Identifier: GPL-2.0
/*
 * bench.c - helpers shared by the sliceext benchmark programs (bench.h)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

/* --- options ---------------------------------------------------------- */

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

int bench_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* calloc(), or NULL after a message on stderr. */
/*
 * Zeroed and cache-line aligned: per-thread structs are declared 64-byte
 * aligned so that threads do not share lines, which calloc() alone does
 * not honour.
 */
static void *calloc_or_say(const char *tool, size_t n, size_t size)
{
	size_t bytes = n * size;
	void *p = NULL;

	if (size && bytes / size != n)
		errno = ENOMEM;
	else
		errno = posix_memalign(&p, 64, bytes ? (bytes + 63) & ~(size_t)63 : 64);
	if (!p) {
		fprintf(stderr, "%s: allocation: %s\n", tool, strerror(errno));
		return NULL;
	}
	memset(p, 0, bytes);
	return p;
}

void *bench_calloc(const char *tool, size_t n, size_t size)
{
	void *p = calloc_or_say(tool, n, size);

	if (!p)
		exit(1);
	return p;
}

/* --- the measured run ------------------------------------------------- */

void bench_run_init(struct bench_run *run, unsigned int nthreads)
{
	pthread_barrier_init(&run->start, NULL, nthreads + 1);
	run->stop = 0;
}

int bench_run_thread(const char *tool, pthread_t *thread,
		     void *(*fn)(void *), void *arg)
{
	int err = pthread_create(thread, NULL, fn, arg);

	if (err) {
		fprintf(stderr, "%s: pthread_create: %s\n", tool,
			strerror(err));
		return -1;
	}
	return 0;
}

double bench_run_measure(struct bench_run *run, double duration)
{
	uint64_t t_start, t_end;

	bench_run_ready(run);
	t_start = bench_now_ns();
	bench_sleep_ns((uint64_t)(duration * 1e9));
	__atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
	t_end = bench_now_ns();
	return (double)(t_end - t_start) / 1e9;
}

double bench_run_threads(const char *tool, struct bench_run *run,
			 unsigned int n, void *(*fn)(void *), void *args,
			 size_t size, double duration)
{
	/* Not bench_calloc(): the caller's load may be running, to stop. */
	pthread_t *threads = calloc_or_say(tool, n, sizeof(*threads));
	double elapsed;
	unsigned int i;

	if (!threads)
		return -1;
	bench_run_init(run, n);
	for (i = 0; i < n; i++) {
		if (bench_run_thread(tool, &threads[i], fn,
				     (char *)args + i * size))
			return -1;
	}
	elapsed = bench_run_measure(run, duration);
	for (i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	return elapsed;
}

/* --- time and busy work ----------------------------------------------- */

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * BENCH_NSEC_PER_SEC + ts.tv_nsec;
}

void bench_sleep_ns(uint64_t ns)
{
	uint64_t end = bench_now_ns() + ns;
	struct timespec ts = {
		.tv_sec = end / BENCH_NSEC_PER_SEC,
		.tv_nsec = end % BENCH_NSEC_PER_SEC,
	};

	/* Absolute, so a signal handler does not stretch the sleep. */
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

void bench_spin_ns(uint64_t ns)
{
	uint64_t end = bench_now_ns() + ns;

	while (bench_now_ns() < end)
		;
}

static uint64_t cpu_time_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * BENCH_NSEC_PER_SEC + ts.tv_nsec;
}

void bench_spin_cpu_ns(uint64_t ns)
{
	uint64_t end = cpu_time_ns() + ns;
	volatile uint64_t x = 0;
	int i;

	/*
	 * Reading the CPU clock is a real system call: do a little work
	 * between reads so the load is mostly user time, as a compiler's.
	 */
	while (cpu_time_ns() < end)
		for (i = 0; i < 1000; i++)
			x = x + i;
}

/* --- samples and percentiles ------------------------------------------ */

static uint64_t xorshift64(uint64_t *state)
{
	uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ULL;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

static bool samples_grow(struct bench_samples *s)
{
	size_t cap = s->cap ? s->cap * 2 : 1024;
	uint64_t *v;

	if (s->cap >= BENCH_SAMPLES_MAX)
		return false;
	if (cap > BENCH_SAMPLES_MAX)
		cap = BENCH_SAMPLES_MAX;
	v = realloc(s->v, cap * sizeof(*v));
	if (!v)
		return false;	/* keep what we have, sample from now on */
	s->v = v;
	s->cap = cap;
	return true;
}

void bench_samples_add(struct bench_samples *s, uint64_t x)
{
	uint64_t j;

	s->count++;
	if (x > s->max)
		s->max = x;
	if (s->n < s->cap || samples_grow(s)) {
		s->v[s->n++] = x;
		return;
	}
	/* Algorithm R: keep each of the count values with chance n/count. */
	j = xorshift64(&s->rng) % s->count;
	if (j < s->n)
		s->v[j] = x;
}

void bench_samples_merge(struct bench_samples *dst,
			 const struct bench_samples *src)
{
	size_t i;

	for (i = 0; i < src->n; i++)
		bench_samples_add(dst, src->v[i]);
	/* Values src dropped still count, and its max is exact. */
	dst->count += src->count - src->n;
	if (src->max > dst->max)
		dst->max = src->max;
}

void bench_samples_free(struct bench_samples *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void bench_sort_u64(uint64_t *v, size_t n)
{
	if (n)
		qsort(v, n, sizeof(*v), cmp_u64);
}

uint64_t bench_percentile(const uint64_t *v, size_t n, double pct)
{
	double r = pct / 100.0 * (double)n;
	size_t rank = (size_t)r;

	if (!n)
		return 0;
	if ((double)rank < r)
		rank++;		/* ceil() without libm */
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return v[rank - 1];
}

double bench_samples_pct_us(const struct bench_samples *s, double pct)
{
	return bench_percentile(s->v, s->n, pct) / 1e3;
}

/* --- JSON output ------------------------------------------------------ */

void bench_json_begin(struct bench_json *j, const char *tool)
{
	j->f = stdout;
	j->first = true;
	fputc('{', j->f);
	bench_json_str(j, "tool", tool);
}

static void json_key(struct bench_json *j, const char *key)
{
	fprintf(j->f, "%s\"%s\": ", j->first ? "" : ", ", key);
	j->first = false;
}

void bench_json_str(struct bench_json *j, const char *key, const char *val)
{
	const unsigned char *p;

	json_key(j, key);
	fputc('"', j->f);
	for (p = (const unsigned char *)val; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(j->f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(j->f, "\\u%04x", *p);
		else
			fputc(*p, j->f);
	}
	fputc('"', j->f);
}

void bench_json_int(struct bench_json *j, const char *key, long long val)
{
	json_key(j, key);
	fprintf(j->f, "%lld", val);
}

void bench_json_num(struct bench_json *j, const char *key, double val,
		    int decimals)
{
	/* JSON has no NaN or infinity. */
	if (!isfinite(val)) {
		bench_json_null(j, key);
		return;
	}
	json_key(j, key);
	fprintf(j->f, "%.*f", decimals, val);
}

void bench_json_bool(struct bench_json *j, const char *key, bool val)
{
	json_key(j, key);
	fputs(val ? "true" : "false", j->f);
}

void bench_json_null(struct bench_json *j, const char *key)
{
	json_key(j, key);
	fputs("null", j->f);
}

void bench_json_end(struct bench_json *j)
{
	fputs("}\n", j->f);
	fflush(j->f);
}

/* --- table output ---------------------------------------------------- */

void bench_row_num(const char *label, double val, int decimals)
{
	printf("%-*s %*.*f\n", BENCH_LABEL_W, label, BENCH_VALUE_W, decimals,
	       val);
}

void bench_row_uint(const char *label, unsigned long long val)
{
	printf("%-*s %*llu\n", BENCH_LABEL_W, label, BENCH_VALUE_W, val);
}

void bench_row_str(const char *label, const char *val)
{
	printf("%-*s %*s\n", BENCH_LABEL_W, label, BENCH_VALUE_W, val);
}

/* --- kernel counters -------------------------------------------------- */

pid_t bench_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

int bench_read_schedstat(pid_t tid, struct bench_schedstat *st)
{
	char path[64];
	unsigned long long run, delay, slices;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fscanf(f, "%llu %llu %llu", &run, &delay, &slices);
	fclose(f);
	if (n != 3) {
		errno = EINVAL;
		return -1;
	}
	st->run_ns = run;
	st->run_delay_ns = delay;
	st->timeslices = slices;
	return 0;
}

int bench_read_counters(const char *path, struct bench_counter *c, int max)
{
	char line[128], name[BENCH_COUNTER_NAME];
	unsigned long long v;
	FILE *f;
	int n = 0;

	f = fopen(path, "r");
	if (!f)
		return -1;
	while (n < max && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%31s %llu", name, &v) != 2)
			continue;	/* not a counter line */
		strcpy(c[n].name, name);
		c[n].value = v;
		n++;
	}
	if (ferror(f)) {
		fclose(f);
		errno = EIO;
		return -1;
	}
	fclose(f);
	return n;
}

unsigned long long bench_counter_get(const struct bench_counter *c, int n,
				     const char *name,
				     unsigned long long def)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(c[i].name, name))
			return c[i].value;
	return def;
}

/* --- background load --------------------------------------------------- */

/* A fresh child must not run its parent's signal handlers or mask. */
static void child_reset_signals(void)
{
	sigset_t none;

	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/*
 * Get @sig when the parent dies, so that no hog outlives a benchmark
 * killed with SIGKILL. The parent may have died before the prctl().
 */
static void die_with_parent(pid_t parent, int sig)
{
	prctl(PR_SET_PDEATHSIG, sig);
	if (getppid() != parent)
		_exit(0);
}

static void __attribute__((noreturn)) hog_main(pid_t parent)
{
	volatile uint64_t x = 0;

	child_reset_signals();
	die_with_parent(parent, SIGKILL);
	for (;;)
		x++;
}

static volatile sig_atomic_t forker_stop;

static void forker_on_signal(int sig)
{
	(void)sig;
	forker_stop = 1;
}

/*
 * A forker stops on SIGTERM by killing and reaping its current child:
 * when the load generator has reaped the forker, nothing is left behind.
 */
static void __attribute__((noreturn)) forker_main(pid_t parent,
						  unsigned long *forks)
{
	struct sigaction sa = { .sa_handler = forker_on_signal };
	sigset_t stop_sigs, old;
	pid_t self, pid;
	uint64_t rng;

	child_reset_signals();
	/* No SA_RESTART: the signal must interrupt waitpid(). */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	die_with_parent(parent, SIGTERM);
	self = getpid();
	rng = ((uint64_t)self << 32) ^ bench_now_ns();
	sigemptyset(&stop_sigs);
	sigaddset(&stop_sigs, SIGTERM);
	sigaddset(&stop_sigs, SIGINT);

	while (!forker_stop) {
		/* 2 to 20 ms, as compiler runs on small files vary. */
		uint64_t ns = 2000000 + xorshift64(&rng) % 18000001;

		/* Until pid is known a stop request must wait. */
		sigprocmask(SIG_BLOCK, &stop_sigs, &old);
		pid = fork();
		if (pid == 0) {
			child_reset_signals();
			die_with_parent(self, SIGKILL);
			bench_spin_cpu_ns(ns);
			_exit(0);
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (pid < 0) {
			bench_sleep_ns(10000000);	/* out of processes */
			continue;
		}
		for (;;) {
			if (forker_stop)
				kill(pid, SIGKILL);
			if (waitpid(pid, NULL, 0) == pid || errno != EINTR)
				break;
		}
		if (!forker_stop)
			__atomic_fetch_add(forks, 1, __ATOMIC_RELAXED);
	}
	_exit(0);
}

int bench_load_start(const char *tool, struct bench_load *l, int hogs,
		     int forkers)
{
	pid_t parent = getpid();
	int i, err;

	memset(l, 0, sizeof(*l));
	l->hogs = hogs;
	l->forkers = forkers;
	if (!hogs && !forkers)
		return 0;
	l->pids = calloc(hogs + forkers, sizeof(*l->pids));
	if (!l->pids)
		goto fail;
	if (forkers) {
		/* Each forker counts its children here, one slot each. */
		l->forks = mmap(NULL, forkers * sizeof(*l->forks),
				PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (l->forks == MAP_FAILED) {
			l->forks = NULL;
			goto fail;
		}
	}
	for (i = 0; i < hogs + forkers; i++) {
		pid_t pid = fork();

		if (pid < 0)
			goto fail;
		if (pid == 0) {
			if (i < hogs)
				hog_main(parent);
			forker_main(parent, &l->forks[i - hogs]);
		}
		l->pids[i] = pid;
		l->started++;
	}
	return 0;
fail:
	err = errno;
	bench_load_stop(l);
	fprintf(stderr, "%s: starting the load: %s\n", tool, strerror(err));
	return -1;
}

void bench_load_stop(struct bench_load *l)
{
	int i;

	for (i = 0; i < l->started; i++)
		kill(l->pids[i], i < l->hogs ? SIGKILL : SIGTERM);
	for (i = 0; i < l->started; i++)
		while (waitpid(l->pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	l->started = 0;
	l->forks_done = bench_load_forks(l);
	if (l->forks)
		munmap(l->forks, l->forkers * sizeof(*l->forks));
	l->forks = NULL;
	free(l->pids);
	l->pids = NULL;
}

unsigned long bench_load_forks(const struct bench_load *l)
{
	unsigned long n = 0;
	int i;

	if (!l->forks)
		return l->forks_done;	/* stopped */
	for (i = 0; i < l->forkers; i++)
		n += __atomic_load_n(&l->forks[i], __ATOMIC_RELAXED);
	return n;
}
