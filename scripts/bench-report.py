#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn sliceext benchmark results into tables, pictures and docs/results.md.

Usage: scripts/bench-report.py [--command CMD] [--note TEXT]... [--svg DIR]
                               [--results-md FILE] [--points FILE]
                               [--lenient] FILE...

FILEs are results.jsonl files of scripts/bench.sh (or the bench.jsonl of
one boot); several are pooled: every run of a point counts, whichever
boot it came from. For each point and metric the table gives the median
of all runs, their interquartile range and their min-max, the ratio of
the median to the median of the point's base row, and the p value of a
two-sided Mann-Whitney U rank test of the point's runs against its base
row's runs (scipy.stats.mannwhitneyu; without python3-scipy that column
says so). With --svg DIR, one picture per part, DIR/bench-PART.svg
(matplotlib). With --results-md FILE, also FILE: one section per part
(anchors #lock-table, #wakeup-latency, #compute, #overhead, #wakeup-probe,
#postgresql, #extension-used-per-grant), each with one short table, one picture
(results-PART.svg beside FILE), the command that reproduces it, the mode,
the kernels and the core series. A line that is not a JSON object, or
not a record below, is an error (exit 1) naming the file and line; with
--lenient it is left out with a warning instead.

Record schema (results.jsonl: one JSON object a line)
----------------------------------------------------
Written by scripts/bench-record.py. "schema" is 2 in meta lines since
the probe joined make bench; files without it (schema 1: bench.sh before
that) read the same way, without the fields marked (2).

{"meta": "host", "schema": 2, "command": str, "date": "YYYY-MM-DD HH:MM UTC",
 "cpu": str, "host_nproc": int, "qemu": str,
 "series_hash": str (2), "series_patches": int (2), "git": str (2),
 "module_version": str (2), "kernels": {label: kernel directory} (2)}
    First line of each bench.sh run: the command as typed (make bench
    ARGS=...), the host, and the core series (first 12 hex digits of the
    sha256 of patches/6.12/*.patch in order) the checkout had.

{"meta": "boot", "schema": 2, "kernel": "release"|"test"|"stock"|
 "mainline"|"bore", "mode": "tcg"|"icount", "uname": str, "nproc": int,
 "repeat": int, "duration": int, "parts": "lock,latency,...",
 "lock_clients": int, "lock_hogs": int, "lock_cs_us": int,
 "lock_outside_us": int, "load_hogs": int, "load_forkers": int,
 "fork_depth": int, "pinned_wakeup": str, "cmdline": str,
 "probe_configs": "off on" (2), "probe_places": "same autogroup cgroup" (2),
 "probe_hogs": int (2), "probe_order": "alternate"|"given" (2),
 "probe_cmd": str (2), "pg_clients": int (2), "pg_threads": int (2),
 "pg_scale": int (2), "pg_hogs": int (2), "pg_server": str (2),
 "pg_build": str (2)}
    One per boot, before its records: every record up to the next boot
    line belongs to this boot. mode tcg is multi-threaded TCG.

{"meta": "module", "kernel": str, "version": str}  (2)
    The module loaded in this boot, and its version.

{"part": str, "point": str, "point_id": str, "kernel": str, "repeat": int,
 "config": str (2), "placement": str (2), "position": int (2, probe),
 "tool": str, METRIC: number|null|[[pct, us], ...], ...}
    One run of one tool: the tags, then the tool's own --json object
    (tools/bench/*.c; hackbench's: {"tool": "hackbench", "hackbench_s"};
    pgbench's, made by bench-record.py: {"tool": "pgbench", "tps",
    "transactions", "failed", "lat_avg_us", "lat_p50_us", "lat_p99_us",
    "lat_cdf_us", "sessions_enabled" (PostgreSQL processes that enabled
    the extension during the run), and on sliceext the moves of every
    ext/stats counter, "requested", "granted", ...}). part: lock,
    latency, compute, overhead, probe, postgres or hist. point: the row's
    label (scripts/bench-points, or for the probe "CONFIG, hogs in
    ..."); point_id its id there (probe: "PLACEMENT:CONFIG"). config: off,
    on or on+KNOB=VALUE (scripts/benchlib.py), "-" without the module.
    placement: where the load ran (same, autogroup, cgroup, "-": none).
    position: the probe configuration's place in its round (1: first).
    The overhead part runs several tools per repeat: one run is all the
    records of one repeat. *_cdf_us metrics are percentile curves;
    null: not measured.

{..., "part", "point", "point_id", "kernel", "skipped": why, "what": str}
    A point (or, with "what", one tool of it) that could not run here.

{..., "part", "point", "point_id", "kernel", "repeat": int, "error": why}
    A run that failed (crashed, timed out, no JSON).
"""

import argparse
import importlib.util
import json
import math
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import benchlib  # noqa: E402

# part -> (title, [(metric key, label, shown only when nonzero)],
# distribution key for the picture or None). Rows, their order and their
# bases come from scripts/bench-points (the probe's from its records).
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
    "probe": ("f) wakeup probe", [
        ("lat_p99_us", "futex wakeup p99 µs ↓", False),
        ("timer_p99_us", "timer wakeup p99 µs ↓", False),
        ("lat_p50_us", "futex wakeup p50 µs ↓", False),
        ("lat_p90_us", "futex wakeup p90 µs ↓", False),
        ("timer_p50_us", "timer wakeup p50 µs ↓", False),
        ("lat_over_500us_pct", "futex wakeups over 500 µs % ↓", False),
        ("lat_crossed_pct", "woken on another CPU %", False),
    ], "lat_cdf_us"),
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
# docs/results.md: each part's section title (its anchor is the title in
# lower case, blanks as dashes) and the metrics of its short table.
SECTIONS = {
    "lock": ("Lock table", ["ops_per_s"]),
    "latency": ("Wakeup latency", ["lat_p99_us"]),
    "compute": ("Compute", ["rounds_per_s"]),
    "overhead": ("Overhead", ["hackbench_s", "ns_per_call", "forks_per_s",
                              "lat_p50_us"]),
    "probe": ("Wakeup probe", ["lat_p99_us", "timer_p99_us"]),
    "postgres": ("PostgreSQL", ["tps", "lat_p99_us"]),
    "hist": ("Extension used per grant", []),
}
TAGS = {"part", "point", "point_id", "repeat", "kernel", "tool", "skipped",
        "error", "what", "config", "placement", "position"}
MODES = {"tcg": "multi-threaded TCG", "icount": "icount"}
# The probe's "fast" runs: p99 within this (docs/log/2026-12-07-burst-notebook.md).
FAST_P99_US = 40


class InputError(Exception):
    """Input that is not what bench.sh writes: the message names where."""


def load_points(path):
    """part -> [benchlib.Point] in file order."""
    try:
        return benchlib.load_points(path)
    except (OSError, ValueError) as e:
        raise InputError("points file: %s" % e)


def fmt(v, ints=False):
    """Three significant digits or so; ints: the series is all integers."""
    if v is None:
        return "–"
    a = abs(v)
    if ints and v == int(v):
        return "%d" % v
    if a >= 100:
        return "%.0f" % v
    if a >= 10:
        return "%.1f" % v
    if a >= 1:
        return "%.2f" % v
    if a == 0:
        return "0"
    return "%.3g" % v


def fmt_p(p):
    if p is None:
        return "–"
    if p < 0.001:
        return "<0.001"
    return "%.3f" % p if p < 0.1 else "%.2f" % p


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and \
        math.isfinite(v)


def slug(title):
    """The anchor a Markdown renderer (GitHub's) gives a heading."""
    s = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return s.replace(" ", "-")


# ---- statistics --------------------------------------------------------------

class Stats:
    """One metric of one point: its runs pooled over every boot."""

    def __init__(self, samples):
        self.samples = samples          # [(boot, value)]
        vs = sorted(v for _, v in samples)
        self.values = vs
        self.n = len(vs)
        self.median = statistics.median(vs)
        self.lo, self.hi = vs[0], vs[-1]
        if self.n >= 2:
            q = statistics.quantiles(vs, n=4, method="inclusive")
            self.q1, self.q3 = q[0], q[2]
        else:
            self.q1 = self.q3 = vs[0]
        self.ints = all(v == int(v) for v in vs)
        by = {}
        for b, v in samples:
            by.setdefault(b, []).append(v)
        # Each boot's own median, where runs came from several boots.
        self.boot_medians = [statistics.median(by[b]) for b in sorted(by)]

    def spread(self):
        return "%s–%s" % (fmt(self.lo, self.ints), fmt(self.hi, self.ints))

    def iqr(self):
        return "%s–%s" % (fmt(self.q1, self.ints), fmt(self.q3, self.ints))

    def boots(self):
        """Range of the per-boot medians, or "" from one boot."""
        if len(self.boot_medians) < 2:
            return ""
        return "%s–%s" % (fmt(min(self.boot_medians)),
                          fmt(max(self.boot_medians)))


_scipy = None


def scipy_stats():
    """scipy.stats, or None (once said why on stderr)."""
    global _scipy
    if _scipy is None:
        try:
            from scipy import stats
            _scipy = stats
        except ImportError:
            print("bench-report: no scipy (Debian: python3-scipy): the rank "
                  "tests are left out", file=sys.stderr)
            _scipy = False
    return _scipy or None


def rank_test(a, b):
    """Two-sided Mann-Whitney U test of samples A against B: the p value,
    or None (fewer than two runs on a side, or no scipy)."""
    if len(a) < 2 or len(b) < 2:
        return None
    st = scipy_stats()
    if st is None:
        return None
    p = st.mannwhitneyu(a, b, alternative="two-sided").pvalue
    return float(p) if math.isfinite(p) else None


# ---- reading -----------------------------------------------------------------

class Point:
    def __init__(self, part, name):
        self.part, self.name = part, name
        self.samples = {}       # metric -> [(boot, value)]
        self.kernels = []
        self.boots = set()
        self.id = self.config = self.placement = None
        # A run is one repeat in one boot, of one tool or several (the
        # overhead part runs several per repeat): ok if none failed.
        self.runs, self.runs_failed = set(), set()
        self.records = 0
        self.errors = []
        self.skipped = []       # (what, why)
        self.raw = []

    @property
    def values(self):
        return {m: [v for _, v in s] for m, s in self.samples.items()}

    def stats(self, metric):
        s = self.samples.get(metric)
        return Stats(s) if s else None

    def median(self, metric):
        s = self.samples.get(metric)
        return statistics.median(v for _, v in s) if s else None

    def add(self, rec, boot):
        k = rec.get("kernel", "?")
        if k not in self.kernels:
            self.kernels.append(k)
        for attr, key in (("id", "point_id"), ("config", "config"),
                          ("placement", "placement")):
            if getattr(self, attr) is None and rec.get(key) is not None:
                setattr(self, attr, rec[key])
        if "skipped" in rec:
            self.skipped.append((rec.get("what"), rec["skipped"]))
            return
        self.boots.add(boot)
        # Without a repeat number, every record is a run of its own.
        self.records += 1
        run = (boot, k, rec.get("repeat", ("record", self.records)))
        self.runs.add(run)
        if "error" in rec:
            self.errors.append(rec["error"])
            self.runs_failed.add(run)
            return
        self.raw.append(rec)
        for key, v in rec.items():
            if key not in TAGS and number(v):
                self.samples.setdefault(key, []).append((boot, float(v)))


def load(files, lenient=False):
    """(metas, points, order): metas in file order, each boot meta with
    "_boot" (its index) and "_host" (the host meta of its run or None)."""
    metas, points, order = [], {}, []
    nboots = 0

    def bad(path, n, why):
        msg = "%s:%d: %s" % (path, n, why)
        if not lenient:
            raise InputError(msg)
        print("bench-report: %s; left out" % msg, file=sys.stderr)

    for path in files:
        host = None
        boot = None
        try:
            f = open(path, encoding="utf-8")
        except OSError as e:
            raise InputError("%s: %s" % (path, e.strerror or e))
        with f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    rec = json.loads(line)
                except ValueError as e:
                    bad(path, n, "not JSON (%s): %s" % (e, line[:80]))
                    continue
                if not isinstance(rec, dict):
                    bad(path, n, "not a JSON object: %s" % line[:80])
                    continue
                if "meta" in rec:
                    if rec["meta"] == "host":
                        host = rec
                    elif rec["meta"] == "boot":
                        rec["_boot"] = boot = nboots
                        rec["_host"] = host
                        nboots += 1
                    metas.append(rec)
                    continue
                if not isinstance(rec.get("part"), str) or \
                        not isinstance(rec.get("point"), str):
                    bad(path, n, "neither a meta line nor a record with "
                        "\"part\" and \"point\": %s" % line[:80])
                    continue
                if "repeat" in rec and not isinstance(rec["repeat"], int):
                    bad(path, n, "\"repeat\" is not a number: %s"
                        % line[:80])
                    continue
                key = (rec["part"], rec["point"])
                if key not in points:
                    points[key] = Point(*key)
                    order.append(key)
                # Records before any boot line: a boot of their own.
                points[key].add(rec, boot if boot is not None else
                                ("file", path))
    return metas, points, order


class Results:
    """The runs, the points file and the boots, and what follows from them."""

    def __init__(self, files, defs, lenient=False):
        self.metas, self.points, self.order = load(files, lenient)
        self.defs = defs
        self.boots = [m for m in self.metas if m.get("meta") == "boot"]
        self.hosts = [m for m in self.metas if m.get("meta") == "host"]
        self.host = self.hosts[0] if self.hosts else {}
        self.modules = [m for m in self.metas if m.get("meta") == "module"]

    def defn(self, part, name):
        return next((d for d in self.defs.get(part, []) if d.label == name),
                    None)

    def label(self, part, pid):
        d = next((d for d in self.defs.get(part, []) if d.id == pid), None)
        return d.label if d else None

    def config_of(self, p):
        if p.config is not None:
            return p.config
        d = self.defn(p.part, p.name)
        return d.config if d else None

    def probe_base_config(self, placement):
        """The probe's base: "off" if it ran, else the first
        configuration the boot was given, else the first row seen."""
        rows = [self.points[k] for k in self.order if k[0] == "probe" and
                self.points[k].placement == placement]
        configs = [p.config for p in rows]
        if "off" in configs:
            return "off"
        for b in self.boots:
            for c in (b.get("probe_configs") or "").replace(",", " ").split():
                if c in configs:
                    return c
        return configs[0] if configs else None

    def base_of(self, part, name):
        """The row's base Point, itself if it is one, or None."""
        me = self.points.get((part, name))
        d = self.defn(part, name)
        if d is None:
            if part != "probe" or me is None or me.config is None:
                return None
            c = self.probe_base_config(me.placement)
            return next((self.points[k] for k in self.order
                         if k[0] == "probe" and
                         self.points[k].placement == me.placement and
                         self.points[k].config == c), None)
        for alt in d.base.split("|"):
            if alt == "-":
                return me
            p = self.points.get((part, self.label(part, alt)))
            if p and p.samples:
                return p
        return None

    def parts(self):
        present = {p for p, _ in self.order}
        return [p for p in ORDER if p in present] + \
            sorted(present - set(ORDER) - {"hist"})

    def rows(self, part):
        known = [d.label for d in self.defs.get(part, [])]
        keys = [k for k in self.order if k[0] == part]
        return sorted(keys, key=lambda k: known.index(k[1]) if k[1] in known
                      else len(known) + keys.index(k))

    def boots_of(self, part):
        """The boots that gave this part's rows."""
        runs_in = "lock" if part == "hist" else part
        kernels = {k for key in self.rows(part)
                   for k in self.points[key].kernels}
        return [b for b in self.boots
                if runs_in in str(b.get("parts", "")).split(",") and
                b.get("kernel") in kernels]

    def modes(self, part):
        out = []
        for b in self.boots_of(part):
            m = MODES.get(b.get("mode", "tcg"), b.get("mode"))
            if m not in out:
                out.append(m)
        return out

    def boot_of(self, part):
        runs_in = "lock" if part == "hist" else part
        return next((b for b in self.boots
                     if runs_in in str(b.get("parts", "")).split(",")), None)

    def test(self, p, base, metric):
        """p value of P's runs against BASE's for METRIC, or None."""
        if base is None or base is p:
            return None
        a, b = p.samples.get(metric), base.samples.get(metric)
        if not a or not b:
            return None
        return rank_test([v for _, v in a], [v for _, v in b])


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
        return ("%s (a timer wakes it every millisecond, it wakes its worker "
                "through a futex: both wakeups measured) beside load --hogs "
                "%s, in each placement; configurations %s, %s order" % (
                    b.get("probe_cmd", "wakeup_lat"), b.get("probe_hogs", "?"),
                    b.get("probe_configs", "?"),
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


def shown_metrics(part, p):
    _, metrics, _ = PARTS.get(part, (part, [], None))
    ms = metrics or [(m, m, False) for m in sorted(p.samples)]
    return [(m, lab) for m, lab, opt in ms if m in p.samples and
            (not opt or any(v for _, v in p.samples[m]))]


def why_empty(p):
    whole = [why for what, why in p.skipped if what is None]
    why = "; ".join(whole) or "; ".join(
        "%s: %s" % (w, y) for w, y in p.skipped) or \
        "no result (%s)" % "; ".join(p.errors[:1])
    return ("skipped: " if p.skipped else "FAILED: ") + why


def ratio_cell(p, base, st, metric):
    if base is p:
        return "base"
    bm = base.median(metric) if base else None
    return "×%.2f" % (st.median / bm) if bm else "–"


def table(res):
    rows = [("benchmark", "row", "metric", "median", "IQR", "min–max",
             "ratio", "p", "runs")]
    warnings = []
    for part in res.parts():
        title = PARTS.get(part, (part,))[0]
        modes = res.modes(part)
        rows.append(("**%s**%s" % (title, " (%s)" % ", ".join(modes)
                                   if modes else ""),) + ("",) * 8)
        for key in res.rows(part):
            p = res.points[key]
            base = res.base_of(part, p.name)
            label = p.name
            if part == "overhead" and p.kernels:
                label += " [%s]" % ",".join(p.kernels)
            shown = shown_metrics(part, p)
            if not shown:
                rows.append(("", label, why_empty(p)) + ("",) * 6)
                continue
            runs = "%d/%d" % (len(p.runs - p.runs_failed), len(p.runs))
            first = True
            for m, lab in shown:
                st = p.stats(m)
                rows.append(("", label if first else "", lab,
                             fmt(st.median, st.ints), st.iqr(), st.spread(),
                             ratio_cell(p, base, st, m),
                             "" if base is p else fmt_p(res.test(p, base, m)),
                             runs if first else ""))
                first = False
            for what, why in p.skipped:
                rows.append(("", "", "%s: skipped: %s" % (what or "all", why))
                            + ("",) * 6)
            if p.errors:
                warnings.append("%s / %s: %d run(s) failed, first: %s" % (
                    title, p.name, len(p.runs_failed), p.errors[0]))
            cfg = res.config_of(p) or ""
            if part == "postgres" and cfg.startswith("on"):
                off = [r for r in p.raw if r.get("sessions_enabled") == 0]
                if off:
                    warnings.append(
                        "%s / %s: no PostgreSQL session enabled the "
                        "extension in %d run(s): the server ran without it" % (
                            title, p.name, len(off)))
            if part == "lock" and (cfg.startswith("on") or "ext on" in
                                   p.name):
                off = [r for r in p.raw if r.get("ext_available") in
                       (False, 0, "false")]
                if off:
                    warnings.append(
                        "%s / %s: lock_table reported ext_available=false in "
                        "%d run(s): the clients ran without the extension" % (
                            title, p.name, len(off)))
    return rows, warnings


def probe_table(res):
    """The probe's runs as the old burst-probe.sh summed them up."""
    keys = res.rows("probe")
    rows = [("row", "runs", "p99 ≤ %d µs" % FAST_P99_US,
             "most wakeups crossed CPUs", "mean share over 500 µs",
             "first in its round")]
    for k in keys:
        p = res.points[k]
        if not p.raw:
            continue
        p99 = [r.get("lat_p99_us") for r in p.raw]
        over = [r.get("lat_over_500us_pct") for r in p.raw
                if number(r.get("lat_over_500us_pct"))]
        rows.append((
            p.name, "%d" % len(p.raw),
            "%d" % sum(1 for v in p99 if number(v) and v <= FAST_P99_US),
            "%d" % sum(1 for r in p.raw if number(r.get("lat_crossed_pct"))
                       and r["lat_crossed_pct"] > 50),
            "%.2f%%" % statistics.mean(over) if over else "–",
            "%d" % sum(1 for r in p.raw if r.get("position") == 1)))
    return rows if len(rows) > 1 else None


def hist_table(res):
    """Buckets down, one column per kernel and length: share of grants."""
    cols = [res.points[k] for k in res.rows("hist")]
    cols = [c for c in cols if c.raw]
    if not cols:
        return None
    counts = []
    for c in cols:
        h = {}
        for r in c.raw:
            for lo, hi, n in r.get("hist") or []:
                h[(lo, hi)] = h.get((lo, hi), 0) + n
        counts.append(h)
    buckets = sorted({b for h in counts for b in h})

    def us(ns):
        return ("%.3g" % (ns / 1000.0)).rstrip("0").rstrip(".") \
            if ns else "0"

    rows = [("used (µs)",) + tuple(c.name for c in cols)]
    for lo, hi in buckets:
        cells = []
        for h in counts:
            total = sum(h.values())
            n = h.get((lo, hi), 0)
            cells.append("%.1f%% (%d)" % (100.0 * n / total, n) if total and n
                         else "–")
        rows.append(("%s–%s" % (us(lo), us(hi + 1)),) + tuple(cells))

    def total(key, c):
        vs = [r.get(key) for r in c.raw if number(r.get(key))]
        return "%d" % sum(vs) if vs else "–"

    rows.append(("grants ended",) + tuple(total("ends", c) for c in cols))
    rows.append(("of which expired",) +
                tuple(total("expired", c) for c in cols))
    rows.append(("revoked (sliceext) / no end seen (mainline)",) + tuple(
        total("revoked", c) if any("revoked" in r for r in c.raw)
        else total("unended", c) for c in cols))
    return rows


def render(rows):
    w = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for n, r in enumerate(rows):
        out.append("| " + " | ".join(c.ljust(w[i]) for i, c in enumerate(r))
                   + " |")
        if n == 0:
            out.append("|" + "|".join("-" * (x + 2) for x in w) + "|")
    return "\n".join(out)


# ---- pictures --------------------------------------------------------------

NINES = [50, 90, 99, 99.9, 99.99]


def nines(pct):
    """The "number of nines" axis of latency plots: 90 -> 1, 99 -> 2."""
    return -math.log10(max(1e-6, 1 - pct / 100.0))


def cdf_of(point, key):
    """The median over runs of each percentile: [(pct, us)]."""
    per = {}
    for r in point.raw:
        for pct, v in r.get(key) or []:
            per.setdefault(pct, []).append(v)
    return sorted((pct, statistics.median(vs)) for pct, vs in per.items())


def off_on_groups(res, part):
    """For the distributions: each base row and its "on" rows (the ids
    with off turned into on: ext_off -> ext_on_5, cg_off -> cg_on; for
    the probe, every configuration in the base's placement)."""
    out = []
    if part == "probe":
        for key in res.rows(part):
            p = res.points[key]
            if res.base_of(part, p.name) is p:
                out.append([p.name] + [
                    k[1] for k in res.rows(part) if k[1] != p.name and
                    res.points[k].placement == p.placement])
        return out
    defs = res.defs.get(part, [])
    for d in defs:
        if d.base != "-":
            continue
        on = d.id.replace("off", "on")
        rows = [d.label] + [e.label for e in defs
                            if e.id != d.id and e.id.startswith(on)]
        out.append([r for r in rows if (part, r) in res.points])
    return [g for g in out if g]


def draw_part(res, part, path, caption):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    import matplotlib.ticker

    title, metrics, dist = PARTS[part]
    # The first two metrics: the part's result and its tail.
    shown = [m for m in metrics if not m[2]][:2]
    bars = []   # (row, metric label, ratio, lo, hi, metric index)
    for key in res.rows(part):
        p = res.points[key]
        base = res.base_of(part, p.name)
        if base is None or base is p or not p.samples:
            continue
        for i, (m, lab, _) in enumerate(shown):
            bm = base.median(m)
            if m not in p.samples or not bm:
                continue
            st = p.stats(m)
            bars.append((p.name, lab, st.median / bm, st.lo / bm,
                         st.hi / bm, i))
    groups = off_on_groups(res, part) if dist else []
    curves = [[(name, cdf_of(res.points[(part, name)], dist))
               for name in g] for g in groups]
    curves = [[(n, c) for n, c in g if c] for g in curves]
    curves = [g for g in curves if g]
    if not bars and not curves:
        return False
    ncol = 1 + bool(curves)
    fig, axes = plt.subplots(1, ncol, figsize=(7.5 * ncol, 1.4 +
                             0.3 * max(len(bars), 10)), squeeze=False)
    ax = axes[0][0]
    if bars:
        colors = ["#4c72b0", "#dd8452"]
        y = list(range(len(bars)))[::-1]
        for b, yy in zip(bars, y):
            ax.barh(yy, b[2] - 1, left=1, height=0.6, color=colors[b[5]],
                    xerr=[[b[2] - b[3]], [b[4] - b[2]]],
                    error_kw={"capsize": 3, "elinewidth": 1})
        # Symmetric about 1: in log scale, x2 and x0.5 are as far from it;
        # differences of a few percent get a linear scale of their own.
        span = max(max(b[4], 1 / b[3]) if b[3] > 0 else b[4]
                   for b in bars) * 1.15
        if span < 1.5:
            span = max(span, 1.02)
            ax.set_xlim(2 - span, span)
        else:
            span *= 1.4  # room for the labels
            ax.set_xscale("log", base=2)
            ax.set_xlim(1 / span, span)
        ax.xaxis.set_major_formatter(
            matplotlib.ticker.FuncFormatter(lambda v, _: "×%.3g" % v))
        ax.axvline(1, color="black", linewidth=0.8)
        for b, yy in zip(bars, y):
            ax.annotate("×%.3f" % b[2] if span < 1.5 else "×%.2f" % b[2],
                        (b[4] if b[2] >= 1 else b[3], yy),
                        xytext=(4 if b[2] >= 1 else -4, 0),
                        textcoords="offset points", va="center",
                        ha="left" if b[2] >= 1 else "right", fontsize=6)
        ax.set_yticks(y)
        ax.set_yticklabels(["%s · %s" % (b[0], b[1]) for b in bars],
                           fontsize=7)
        ax.set_xlabel("ratio to the row's base (bar: median, whisker: "
                      "min–max of the runs)\n↑: higher is better, ↓: lower "
                      "is")
        ax.grid(True, axis="x", which="both", linewidth=0.3)
    ax.set_title(title, fontsize=10)
    if curves:
        ax = axes[0][1]
        cmap = plt.get_cmap("tab10")
        for gi, g in enumerate(curves):
            for ri, (name, c) in enumerate(g):
                xs = [nines(pct) for pct, _ in c if pct < 100]
                ys = [v for pct, v in c if pct < 100]
                ax.plot(xs, ys, marker=".", linewidth=1, color=cmap(gi % 10),
                        linestyle="--" if ri == 0 else
                        ["-", ":", "-."][(ri - 1) % 3], label=name)
        ax.set_yscale("log")
        ax.set_xticks([nines(n) for n in NINES])
        ax.set_xticklabels(["p%g" % n for n in NINES])
        ax.set_xlabel("percentile (median over the runs)")
        ax.set_ylabel("µs")
        ax.set_title(("lock wait" if part == "lock" else
                      "futex wakeup latency" if part == "probe" else
                      "transaction latency" if part == "postgres" else
                      "wakeup latency") + ", base (dashed) and the rest",
                     fontsize=10)
        ax.legend(fontsize=6)
        ax.grid(True, which="both", linewidth=0.3)
    fig.text(0.01, 0.005, caption, fontsize=6, va="bottom")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(path, format="svg")
    plt.close(fig)
    return True


def draw_hist(res, path, caption):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = [res.points[k] for k in res.rows("hist") if res.points[k].raw]
    if not cols:
        return False
    shares = []
    for c in cols:
        h = {}
        for r in c.raw:
            for lo, _, n in r.get("hist") or []:
                h[lo] = h.get(lo, 0) + n
        total = sum(h.values()) or 1
        shares.append({lo: 100.0 * n / total for lo, n in h.items()})
    los = sorted({lo for h in shares for lo in h})
    fig, ax = plt.subplots(figsize=(8, 3.6))
    width = 0.8 / len(cols)
    for i, (c, h) in enumerate(zip(cols, shares)):
        ax.bar([j + i * width for j in range(len(los))],
               [h.get(lo, 0) for lo in los], width, label=c.name)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(los))])
    ax.set_xticklabels(["%g–%g" % (lo / 1000.0, 2 * max(lo, 1) / 1000.0)
                        for lo in los], fontsize=7)
    ax.set_xlabel("extension used, grant to end (µs)")
    ax.set_ylabel("% of grants")
    ax.set_title(HIST_TITLE, fontsize=10)
    ax.legend(fontsize=7)
    fig.text(0.01, 0.005, caption, fontsize=6, va="bottom")
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    fig.savefig(path, format="svg")
    plt.close(fig)
    return True


def have_matplotlib():
    if importlib.util.find_spec("matplotlib") is None:
        print("bench-report: no matplotlib (Debian: python3-matplotlib); "
              "no pictures", file=sys.stderr)
        return False
    return True


def draw_one(res, part, path, command):
    modes = ", ".join(res.modes(part)) or "?"
    caption = "%s · %s · %s" % (modes, command, res.host.get("date", ""))
    if part == "hist":
        return draw_hist(res, path, caption)
    return part in PARTS and draw_part(res, part, path, caption)


def draw(res, outdir, command, name="bench-%s.svg"):
    """One picture per part in OUTDIR: {part: path} of those drawn."""
    if not have_matplotlib():
        return {}
    os.makedirs(outdir, exist_ok=True)
    made = {}
    for part in res.parts() + (["hist"] if res.rows("hist") else []):
        path = os.path.join(outdir, name % part)
        if draw_one(res, part, path, command):
            made[part] = path
    return made


# ---- docs/results.md -------------------------------------------------------

def md_cell(s):
    return str(s).replace("|", "\\|")


def md_table(rows):
    out = ["| " + " | ".join(md_cell(c) for c in rows[0]) + " |",
           "|" + "|".join("---" for _ in rows[0]) + "|"]
    for r in rows[1:]:
        out.append("| " + " | ".join(md_cell(c) for c in r) + " |")
    return "\n".join(out)


def commands_of(boots, fallback):
    """The distinct commands of the runs BOOTS came from, with counts."""
    seen = {}
    for b in boots:
        h = b.get("_host") or {}
        c = h.get("command") or fallback
        seen.setdefault(c, set()).add(id(h) if h else id(b))
    return [(c, len(s)) for c, s in seen.items()]


def series_of(boots):
    out = []
    for b in boots:
        h = b.get("_host") or {}
        if h.get("series_hash"):
            s = "`%s` (%s patches%s)" % (
                h["series_hash"], h.get("series_patches", "?"),
                ", checkout `%s`" % h["git"] if h.get("git") else "")
        else:
            s = "not recorded (results written before the series was)"
        if s not in out:
            out.append(s)
    return out


def kernels_of(res, part, boots):
    out = []
    for b in boots:
        s = "`%s` (%s)" % (b.get("uname", "?"), b.get("kernel", "?"))
        if s not in out:
            out.append(s)
    mods = sorted({m.get("version") for m in res.modules
                   if m.get("version")})
    if mods and any(b.get("kernel") in ("release", "test") for b in boots) \
            and part != "mainline":
        out.append("module %s" % ", ".join(mods))
    return out


def md_part_table(res, part):
    """One short table: a row per point and headline metric."""
    _, wanted = SECTIONS[part]
    several = any(len(res.points[k].boots) > 1 for k in res.rows(part))
    labels = dict((m, lab) for m, lab, _ in PARTS[part][1])
    head = ["row"] + (["metric"] if len(wanted) > 1 else []) + \
        ["median", "IQR", "min–max"] + (["boot medians"] if several else []) \
        + ["vs base", "p", "runs"]
    rows = [head]
    for key in res.rows(part):
        p = res.points[key]
        cfg = res.config_of(p)
        name = p.name
        if part == "overhead" and p.kernels:
            name += " [%s]" % ",".join(p.kernels)
        if cfg and cfg not in ("-",) and cfg not in name:
            name += " (`%s`)" % cfg
        base = res.base_of(part, p.name)
        ms = [m for m in wanted if m in p.samples]
        if not ms:
            why = why_empty(p) if not p.samples else \
                "no %s in its runs" % " or ".join(
                    labels.get(m, m) for m in wanted)
            rows.append([name] + ([""] if len(wanted) > 1 else []) +
                        [why] + [""] * (len(head) - 2 - (len(wanted) > 1)))
            continue
        runs = "%d/%d" % (len(p.runs - p.runs_failed), len(p.runs))
        for i, m in enumerate(ms):
            st = p.stats(m)
            r = [name if i == 0 else ""]
            if len(wanted) > 1:
                r.append(labels.get(m, m))
            r += [fmt(st.median, st.ints), st.iqr(), st.spread()]
            if several:
                r.append(st.boots())
            r += [ratio_cell(p, base, st, m),
                  "" if base is p else fmt_p(res.test(p, base, m)),
                  runs if i == 0 else ""]
            rows.append(r)
    return rows, labels.get(wanted[0], wanted[0]) if len(wanted) == 1 \
        else None


def results_md(res, path, command, report_cmd, made):
    """Write docs/results.md: a section per part, each with its table and
    picture (MADE: part -> picture path)."""
    out = ["# Benchmark results", "",
           "Written by `%s` from the output of `make bench`: do not edit "
           "by hand. Every figure below comes from the runs in that output "
           "and the code in `scripts/bench-report.py`." % report_cmd, ""]
    hosts = []
    for h in res.hosts:
        s = "%s on %s (%s CPUs), %s" % (h.get("date", "?"), h.get("cpu", "?"),
                                        h.get("host_nproc", "?"),
                                        h.get("qemu", "?"))
        if s not in hosts:
            hosts.append(s)
    if hosts:
        out.append("- Runs: " + "; ".join(hosts))
    out += [
        "- Statistics: each row pools every run of its point, from every "
        "boot. median, interquartile range (IQR) and min–max are over "
        "those runs; \"boot medians\", where runs came from several boots, "
        "is the range of each boot's own median. \"vs base\" is the row's "
        "median over its base row's; p is a two-sided Mann–Whitney U rank "
        "test of the row's runs against the base row's "
        "(`scipy.stats.mannwhitneyu`)%s." % (
            "" if scipy_stats() else
            "; **not computed here: no scipy (Debian: python3-scipy)**"),
        "- Modes: multi-threaded TCG runs the guest under QEMU's emulation "
        "(no KVM): absolute numbers are not hardware numbers; compare rows "
        "within one boot. icount (`-icount shift=0,sleep=off`) counts guest "
        "time in instructions, so runs repeat whatever the host does, but "
        "every instruction costs the same.", ""]
    for part in ORDER + ["hist"]:
        title, _ = SECTIONS[part]
        out += ["## %s" % title, ""]
        boots = res.boots_of(part)
        if not res.rows(part):
            out += ["Not measured in these results: run `make bench "
                    "ARGS=\"--parts %s\"` and this report again." % (
                        "lock" if part == "hist" else part), ""]
            continue
        cmds = commands_of(boots, command)
        out.append("- Reproduce: " + "; ".join(
            "`%s`%s" % (c, " (%d runs pooled)" % n if n > 1 else "")
            for c, n in cmds) + ", then `%s`" % report_cmd)
        out.append("- Mode: %s" % (", ".join(res.modes(part)) or "?"))
        out.append("- Kernels: %s" % ", ".join(kernels_of(res, part, boots)))
        out.append("- Core series: %s" % "; ".join(series_of(boots)))
        nb = len(boots)
        per = sorted({(b.get("repeat"), b.get("duration")) for b in boots},
                     key=str)
        out.append("- Boots: %d; %s per point" % (nb, ", ".join(
            "%s run(s) of %s s" % rd for rd in per)))
        desc = part_desc(res, part)
        if desc:
            out.append("- What runs: %s" % desc)
        if part != "hist":
            out.append("- Bases: %s" % bases_desc(res, part))
        out.append("")
        if part == "hist":
            rows = hist_table(res)
            if rows:
                out += [md_table(rows), ""]
        else:
            rows, metric = md_part_table(res, part)
            if metric:
                out += ["Metric: %s." % metric, ""]
            out += [md_table(rows), ""]
            if part == "probe":
                pt = probe_table(res)
                if pt:
                    out += [md_table(pt), ""]
        if part in made:
            rel = os.path.relpath(made[part], os.path.dirname(
                os.path.abspath(path)))
            out += ["![%s](%s)" % (title, rel), ""]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out).rstrip("\n") + "\n")


# ---- main ------------------------------------------------------------------

def print_report(res, a, command):
    host, boots = res.host, res.boots
    print("## sliceext benchmarks")
    print()
    ncpu = sorted({b.get("nproc") for b in boots if b.get("nproc")})
    vcpus = ", %s vCPUs" % "/".join(map(str, ncpu)) if ncpu else ""
    modes = {b.get("mode", "tcg") for b in boots} or {"tcg"}
    if "tcg" in modes:
        print("- Multi-threaded TCG boots: the guest runs under QEMU TCG "
              "emulation (no KVM)%s: absolute numbers are not hardware "
              "numbers; only ratios within one boot count." % vcpus)
    if "icount" in modes:
        print("- icount boots: QEMU TCG with instruction counting "
              "(`-icount shift=0,sleep=off`, one host thread)%s: guest time "
              "is instructions executed, 1 ns each, so runs repeat exactly "
              "whatever the host does; every instruction costs the same and "
              "caches and memory are free, so these are not hardware numbers "
              "either (docs/development.md)." % vcpus)
    print("- Command: `%s`" % command)
    if host.get("date"):
        print("- Run: %s on %s (%s host CPUs), %s" % (
            host["date"], host.get("cpu", "?"), host.get("host_nproc", "?"),
            host.get("qemu", "?")))
    if host.get("series_hash"):
        print("- Core series `%s` (%s patches), sliceext %s%s" % (
            host["series_hash"], host.get("series_patches", "?"),
            host.get("module_version", "?"),
            ", checkout `%s`" % host["git"] if host.get("git") else ""))
    # Results pooled from several boots alike: one line for them, counted.
    lines = {}
    for b in boots:
        line = ("kernel `%s` (%s, %s), parts %s, %s run(s) of %s s per point"
                % (b.get("uname"), b.get("kernel"),
                   MODES.get(b.get("mode", "tcg"), b.get("mode")),
                   b.get("parts"), b.get("repeat", 0), b.get("duration", 0)))
        lines.setdefault(line, [0, b])[0] += 1
    for line, (n, b) in lines.items():
        print("- %s: %s" % ("Boot" if n == 1 else "%d boots" % n, line))
        if b.get("kernel") == "test":
            print("  - This is the **test kernel, with lockdep and other "
                  "debug options**: its numbers show the benchmarks run, "
                  "not what sliceext costs or gains; use `make bench`.")
    print("- Each row: median of its runs (all boots pooled), IQR and "
          "min–max of the runs; ratio = row median / median of its base "
          "row, named for each part below; p = two-sided Mann–Whitney U "
          "rank test of the row's runs against its base row's%s." % (
              "" if scipy_stats() else " (not computed: no scipy)"))
    ovh = {k for key in res.rows("overhead") for k in res.points[key].kernels}
    if len(ovh) > 1:
        print("- d) compares two boots (the stock kernel and the patched "
              "one): its ratios against stock cross boots, which only "
              "icount makes repeatable; under TCG only differences well "
              "beyond the spread mean anything.")
    for n in a.note:
        print("- " + n)
    for part in res.parts():
        title = PARTS.get(part, (part,))[0]
        desc = part_desc(res, part)
        print("- %s: %s%s%s" % (title, desc, "; " if desc else "",
                                bases_desc(res, part)))
    print()
    rows, warnings = table(res)
    if len(rows) > 1:
        print(render(rows))
    probe = probe_table(res)
    if probe:
        print()
        print("### %s, run by run" % PARTS["probe"][0])
        print()
        print(render(probe))
    hist = hist_table(res)
    if hist:
        print()
        print("### %s (%s)" % (HIST_TITLE, ", ".join(res.modes("hist"))))
        print()
        print("One extra `lock_table --ext` run per kernel and length: "
              "sliceext's `ext/hist`; mainline's from hrtimer trace events, "
              "as its `rseq-slice-hist.py`. Share of the grants whose "
              "extension, from grant to end, fell in each range.")
        print()
        print(render(hist))
    if warnings:
        print()
        for w in warnings:
            print("warning: " + w)


def tilde(path):
    """PATH with the home directory written ~, as a command to paste."""
    home = os.path.expanduser("~")
    if home not in ("", "/") and (path == home or
                                  path.startswith(home + os.sep)):
        return "~" + path[len(home):]
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="The record schema is at the top of this script.")
    ap.add_argument("files", nargs="+", metavar="FILE")
    ap.add_argument("--command", help="the command that produced the results")
    ap.add_argument("--note", action="append", default=[],
                    help="an extra line above the table (repeatable)")
    ap.add_argument("--svg", metavar="DIR",
                    help="also draw DIR/bench-PART.svg for each part")
    ap.add_argument("--results-md", metavar="FILE",
                    help="also write FILE (docs/results.md), its pictures "
                    "beside it as results-PART.svg")
    ap.add_argument("--points", default=os.path.join(HERE, "bench-points"),
                    help="the points file (default: scripts/bench-points)")
    ap.add_argument("--lenient", action="store_true",
                    help="leave out lines that are not records, with a "
                    "warning, instead of failing")
    a = ap.parse_args(argv)

    try:
        res = Results(a.files, load_points(a.points), a.lenient)
    except InputError as e:
        print("bench-report: %s" % e, file=sys.stderr)
        return 1
    command = a.command or res.host.get("command") or "?"
    if not res.order:
        print("bench-report: no results in %s" % ", ".join(a.files),
              file=sys.stderr)
        return 1
    print_report(res, a, command)
    pictures = []
    if a.svg:
        pictures += draw(res, a.svg, command).values()
    if a.results_md:
        outdir = os.path.dirname(os.path.abspath(a.results_md))
        base = os.path.splitext(os.path.basename(a.results_md))[0]
        made = draw(res, outdir, command, base + "-%s.svg")
        report_cmd = "scripts/bench-report.py --results-md %s %s" % (
            tilde(a.results_md), " ".join(tilde(f) for f in a.files))
        results_md(res, a.results_md, command, report_cmd, made)
        pictures += made.values()
        print()
        print("results: %s" % a.results_md)
    if pictures:
        print()
        for m in pictures:
            print("picture: %s" % m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
