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
 "probe_wakes": "futex pipe" (2, absent: futex), "probe_hogs": int (2),
 "probe_order": "alternate"|"given" (2), "probe_cmd": str (2),
 "pg_clients": int (2), "pg_threads": int (2),
 "pg_scale": int (2), "pg_hogs": int (2), "pg_server": str (2),
 "pg_build": str (2)}
    One per boot, before its records: every record up to the next boot
    line belongs to this boot. mode tcg is multi-threaded TCG.

{"meta": "module", "kernel": str, "version": str}  (2)
    The module loaded in this boot, and its version.

{"part": str, "point": str, "point_id": str, "kernel": str, "repeat": int,
 "config": str (2), "placement": str (2), "wake": str (2, probe),
 "position": int (2, probe), "tool": str,
 METRIC: number|null|[[pct, us], ...], ...}
    One run of one tool: the tags, then the tool's own --json object
    (tools/bench/*.c; hackbench's: {"tool": "hackbench", "hackbench_s"};
    pgbench's, made by bench-record.py: {"tool": "pgbench", "tps",
    "transactions", "failed", "lat_avg_us", "lat_p50_us", "lat_p99_us",
    "lat_cdf_us", "sessions_enabled" (PostgreSQL processes that enabled
    the extension during the run), and on sliceext the moves of every
    ext/stats counter, "requested", "granted", ...}). part: lock,
    latency, compute, overhead, probe, postgres or hist. point: the row's
    label (scripts/bench-points, or for the probe "CONFIG, hogs in
    ...", then ", pipe-woken" for a pipe row); point_id its id there
    (probe: "PLACEMENT:CONFIG", then ":pipe" for a pipe row). config: off,
    on or on+KNOB=VALUE (scripts/benchlib.py), "-" without the module.
    placement: where the load ran (same, autogroup, cgroup, "-": none).
    wake: how the probe's worker was woken (wakeup_lat --wake: futex,
    pipe; absent: futex), its metrics named for it (pipe_p99_us for
    lat_p99_us: benchlib.wake_metric()); each probe row's base is the off
    row of its placement and wake. position: the probe configuration's
    place in its round (1: first).
    The overhead part runs several tools per repeat: one run is all the
    records of one repeat. *_cdf_us metrics are percentile curves;
    null: not measured.

{..., "part", "point", "point_id", "kernel", "skipped": why, "what": str}
    A point (or, with "what", one tool of it) that could not run here.

{..., "part", "point", "point_id", "kernel", "repeat": int, "error": why}
    A run that failed (crashed, timed out, no JSON).
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# scripts/benchreport/: one module per concern (its __init__.py lists them).
from benchreport.parts import (  # noqa: E402
    HIST_TITLE, PARTS, bases_desc, part_desc)
from benchreport.pictures import draw  # noqa: E402
from benchreport.results import (  # noqa: E402
    MODES, InputError, Results, load_points)
from benchreport.results_md import results_md  # noqa: E402
from benchreport.stats import scipy_stats  # noqa: E402
from benchreport.tables import (  # noqa: E402
    hist_table, probe_table, render, table)


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
