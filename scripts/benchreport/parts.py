# SPDX-License-Identifier: GPL-2.0
"""The benchmark's parts: their titles, the metrics each table shows, and
how a part's runs and its bases are described above the tables."""

import benchlib

# The probe's metrics when its worker is woken through a futex; woken
# another way of benchlib.WAKES, the worker's are named for it
# (pipe_p99_us, "pipe wakeup p99 µs") and the timer's stay.
PROBE_FUTEX = [
    ("lat_p99_us", "futex wakeup p99 µs ↓", False),
    ("timer_p99_us", "timer wakeup p99 µs ↓", False),
    ("lat_p50_us", "futex wakeup p50 µs ↓", False),
    ("lat_p90_us", "futex wakeup p90 µs ↓", False),
    ("timer_p50_us", "timer wakeup p50 µs ↓", False),
    ("lat_over_500us_pct", "futex wakeups over 500 µs % ↓", False),
    ("lat_crossed_pct", "woken on another CPU %", False),
]


def probe_metrics(wake):
    """The probe's metrics for a worker woken by WAKE."""
    first = benchlib.FIRST_WAKE
    return [(benchlib.wake_metric(m, wake), lab.replace(first, wake), opt)
            for m, lab, opt in PROBE_FUTEX]


def _every_wake():
    """The probe's metrics of every wake, each once, in PROBE_FUTEX's
    order: a row shows those of its own wake."""
    out = []
    for i in range(len(PROBE_FUTEX)):
        for w in benchlib.WAKES:
            m = probe_metrics(w)[i]
            if m not in out:
                out.append(m)
    return out


# part -> (title, [(metric key, label, shown only when nonzero)],
# distribution key for the picture or None: for the probe, of a futex-woken
# worker, benchlib.wake_metric() naming another wake's). Rows, their order
# and their bases come from scripts/bench-points (the probe's from its
# records).
PARTS = {
    "lock": ("a) lock table", [
        ("ops_per_s", "ops/s ↑", False),
        ("wait_p99_us", "wait p99 µs ↓", False),
        ("holder_stalled_frac", "holder stalled frac ↓", False),
        ("granted", "grants", True),
        ("yields", "yields in a grant", True),
    ], "wait_cdf_us"),
    "latency": ("b) wakeup latency under load", [
        ("lat_p50_us", "latency p50 µs ↓", False),
        ("lat_p90_us", "latency p90 µs ↓", False),
        ("lat_p99_us", "latency p99 µs ↓", False),
        ("lat_p999_us", "latency p99.9 µs ↓", False),
        ("timer_p90_us", "timer wakeup p90 µs ↓", False),
        ("timer_p99_us", "timer wakeup p99 µs ↓", False),
    ], "lat_cdf_us"),
    "compute": ("c) compute", [
        ("rounds_per_s", "rounds/s ↑", False),
    ], None),
    "overhead": ("d) hook overhead", [
        ("hackbench_s", "hackbench s ↓", False),
        ("ns_per_call", "getppid ns/call ↓", False),
        ("forks_per_s", "forks/s, deep chain ↑", False),
        ("lat_p50_us", "pinned wakeup p50 µs ↓", False),
    ], None),
    "probe": ("f) wakeup probe", _every_wake(), "lat_cdf_us"),
    "postgres": ("g) PostgreSQL under pgbench", [
        ("tps", "TPS ↑", False),
        ("lat_p99_us", "latency p99 µs ↓", False),
        ("lat_avg_us", "latency average µs ↓", False),
        ("lat_p50_us", "latency p50 µs ↓", False),
        ("granted", "grants", True),
    ], "lat_cdf_us"),
}
ORDER = ["lock", "latency", "compute", "overhead", "probe", "postgres"]
HIST_TITLE = "e) extension used per grant"
# How the probe's message thread wakes its worker, in the part's
# description (a wake without words here is named by its option).
WAKE_WORDS = {
    "futex": "through a futex",
    "pipe": "by a write to a pipe the worker reads, with --wake pipe",
}


def metrics_of(res, part, p):
    """The metrics of PART's table that point P may have: for the probe,
    those of its wake."""
    _, metrics, _ = PARTS.get(part, (part, [], None))
    if part == "probe":
        return probe_metrics(res.wake_of(p))
    return metrics


def dist_of(res, part, p):
    """The key of P's distribution in the picture, or None."""
    _, _, dist = PARTS.get(part, (part, [], None))
    if dist and part == "probe":
        return benchlib.wake_metric(dist, res.wake_of(p))
    return dist


def part_desc(res, part):
    b = res.boot_of(part)
    if not b:
        return ""
    if part == "lock":
        return ("GLIBC_TUNABLES=glibc.pthread.rseq=0 lock_table --clients %s "
                "--cs-us %s --outside-us %s [--ext], %s hogs (load --hogs) in "
                "the clients' session, burst off; pthread mutex rows: "
                "lock_table --lock mutex under glibc's rseq area, "
                "LD_PRELOAD=libsliceext-preload.so or not" % (
                    b.get("lock_clients", "?"), b.get("lock_cs_us", 5),
                    b.get("lock_outside_us", 20), b.get("lock_hogs", "?")))
    if part == "latency":
        return ("wakeup_lat --message-threads 2 --workers 4 --work-us 300 "
                "--interval-us 2000 beside load --hogs %s --forkers %s "
                "(in its session unless the row says where)" % (
                    b.get("load_hogs", "?"), b.get("load_forkers", "?")))
    if part == "compute":
        return "compute --threads 1, alone or beside load --hogs %s " \
            "--forkers %s" % (b.get("load_hogs", "?"),
                              b.get("load_forkers", "?"))
    if part == "overhead":
        return "hackbench -g 4 -l 200; syscall_loop --syscall getppid" + (
            "; fork_loop --depth %d" % b["fork_depth"]
            if "fork_depth" in b else "") + \
            "; " + b.get("pinned_wakeup", "wakeup_lat pinned to one CPU") + \
            ", nothing else running"
    if part == "postgres":
        return ("tools/examples/postgresql's PostgreSQL (%s), %s, "
                "initialized with pgbench -i -s %s; pgbench -c %s -j %s, "
                "select-only (-S) or its TPC-B-like default script, latencies "
                "from its --log; %s hogs (load --hogs) in the server's "
                "session unless the row says where; slice_extension off or "
                "on for the whole server, the same binary on every kernel" % (
                    b.get("pg_build", "?"), b.get("pg_server", "postgres"),
                    b.get("pg_scale", "?"), b.get("pg_clients", "?"),
                    b.get("pg_threads", "?"), b.get("pg_hogs", "?")))
    if part == "probe":
        # Results from before the pipe joined the probe: futex only.
        wakes = str(b.get("probe_wakes") or benchlib.FIRST_WAKE).split()
        return ("%s (a timer wakes it every millisecond, it wakes its worker "
                "%s: both wakeups measured) beside load --hogs %s, in each "
                "placement; configurations %s, %s order" % (
                    b.get("probe_cmd", "wakeup_lat"),
                    " or ".join(WAKE_WORDS.get(w, "with --wake %s" % w)
                                for w in wakes),
                    b.get("probe_hogs", "?"), b.get("probe_configs", "?"),
                    b.get("probe_order", "alternate")))
    return ""


def bases_desc(res, part):
    """'ratios vs "a"' or, with several bases, which rows each serves."""
    bases, by = [], {}
    for key in res.rows(part):
        b = res.base_of(part, key[1])
        if b is None:
            continue
        if b.name == key[1]:
            bases.append(b.name)
        else:
            by.setdefault(b.name, []).append(key[1])
    if len(bases) <= 1 and len(by) <= 1:
        names = list(by) or bases
        return "ratios vs \"%s\"" % (names[0] if names else "–")
    return "ratios vs " + "; ".join(
        "\"%s\" for %s" % (b, ", ".join("\"%s\"" % r for r in rows))
        for b, rows in by.items())
