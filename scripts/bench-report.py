#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn sliceext benchmark results into one table.

Input: JSON lines as scripts/bench-guest.sh writes them (one object per
run: the tool's --json output plus "part", "point", "repeat", "kernel"),
{"skipped": why} lines for points that could not run, {"error": why}
lines for runs that failed, and "meta" lines describing the host and
each boot. Every point's runs are reduced to the median and the spread
(min-max) of each metric; the ratio is the row's median over the median
of its part's base row.

Usage: scripts/bench-report.py [--command CMD] [--note TEXT]... FILE...
"""

import argparse
import json
import statistics
import sys

# part -> (title, base rows (the first one present is the base), rows in
# display order (others follow in file order), [(metric key, label, shown
# only when nonzero)]).
PARTS = {
    "lock": ("a) lock table", ["ext off"], [
        "ext off", "ext on, 5 µs", "ext on, 50 µs",
        "clients nice -20, hogs nice 0", "clients nice -20, hogs nice 19",
        "clients SCHED_BATCH",
    ], [
        ("ops_per_s", "ops/s ↑", False),
        ("wait_p99_us", "wait p99 µs ↓", False),
        ("holder_preempted_frac", "holder preempted frac ↓", False),
        ("granted", "grants", True),
    ]),
    "latency": ("b) wakeup latency under load", ["burst off"], [
        "burst off", "burst on", "burst off, hogs nice 19",
        "burst off, hogs SCHED_IDLE",
    ], [
        ("lat_p50_us", "latency p50 µs ↓", False),
        ("lat_p99_us", "latency p99 µs ↓", False),
        ("lat_p999_us", "latency p99.9 µs ↓", False),
    ]),
    "compute": ("c) compute", ["under load, burst off"], [
        "alone", "under load, burst off", "under load, burst on",
        "under load, load SCHED_IDLE",
    ], [
        ("rounds_per_s", "rounds/s ↑", False),
    ]),
    # Without a stock boot, the patched kernel's own unloaded state.
    "overhead": ("d) hook overhead", ["stock 6.12 (unpatched)",
                                      "patched, module not loaded"], [
        "stock 6.12 (unpatched)", "patched, module not loaded",
        "module loaded, idle", "module loaded, burst on",
    ], [
        ("hackbench_s", "hackbench s ↓", False),
        ("ns_per_call", "getppid ns/call ↓", False),
    ]),
}
ORDER = ["lock", "latency", "compute", "overhead"]
TAGS = {"part", "point", "repeat", "kernel", "tool", "skipped", "error", "what"}


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


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class Point:
    def __init__(self, part, name):
        self.part, self.name = part, name
        self.values = {}        # metric -> [values]
        self.kernels = []
        self.runs = set()       # (kernel, repeat) with a result
        self.errors = []
        self.skipped = []       # (what, why)
        self.raw = []

    def add(self, rec):
        k = rec.get("kernel", "?")
        if k not in self.kernels:
            self.kernels.append(k)
        if "skipped" in rec:
            self.skipped.append((rec.get("what"), rec["skipped"]))
            return
        if "error" in rec:
            self.errors.append(rec["error"])
            return
        self.runs.add((k, rec.get("repeat")))
        self.raw.append(rec)
        for key, v in rec.items():
            if key not in TAGS and number(v):
                self.values.setdefault(key, []).append(float(v))

    def median(self, metric):
        vs = self.values.get(metric)
        return statistics.median(vs) if vs else None


def load(files):
    metas, points, order = [], {}, []
    for path in files:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    rec = json.loads(line)
                except ValueError:
                    print("bench-report: %s:%d: not JSON, ignored" % (path, n),
                          file=sys.stderr)
                    continue
                if "meta" in rec:
                    metas.append(rec)
                    continue
                if "part" not in rec or "point" not in rec:
                    continue
                key = (rec["part"], rec["point"])
                if key not in points:
                    points[key] = Point(*key)
                    order.append(key)
                points[key].add(rec)
    return metas, points, order


def part_desc(part, boots):
    b = next((m for m in boots if part in m.get("parts", "").split(",")), None)
    if not b:
        return ""
    if part == "lock":
        return ("lock_table --clients %d --cs-us 5 --outside-us 20 [--ext], "
                "%d hogs (load --hogs), burst off" % (
                    b["lock_clients"], b["lock_hogs"]))
    if part == "latency":
        return ("wakeup_lat --message-threads 2 --workers 4 --work-us 300 "
                "--interval-us 2000 beside load --hogs %d --forkers %d" % (
                    b["load_hogs"], b["load_forkers"]))
    if part == "compute":
        return "compute --threads 1, alone or beside load --hogs %d " \
            "--forkers %d" % (b["load_hogs"], b["load_forkers"])
    if part == "overhead":
        return "hackbench -g 4 -l 200; syscall_loop --syscall getppid"
    return ""


def base_of(part, points):
    for name in PARTS.get(part, (None, []))[1]:
        if (part, name) in points and points[(part, name)].values:
            return name
    return None


def parts_in(order):
    present = {p for p, _ in order}
    return [p for p in ORDER if p in present] + sorted(present - set(ORDER))


def rows_of(part, order):
    known = PARTS.get(part, (None, None, [], []))[2]
    keys = [k for k in order if k[0] == part]
    return sorted(keys, key=lambda k: known.index(k[1]) if k[1] in known
                  else len(known) + keys.index(k))


def table(points, order, boots):
    rows = [("benchmark", "row", "metric", "median", "min–max", "ratio", "runs")]
    warnings = []
    for part in parts_in(order):
        title, _, _, metrics = PARTS.get(part, (part, [], [], []))
        base = points.get((part, base_of(part, points)))
        rows.append(("**%s**" % title, "", "", "", "", "", ""))
        for key in rows_of(part, order):
            p = points[key]
            label = p.name
            if part == "overhead" and p.kernels:
                label += " [%s]" % ",".join(p.kernels)
            ms = metrics or [(m, m, False) for m in sorted(p.values)]
            shown = [(m, lab) for m, lab, opt in ms if m in p.values and
                     (not opt or any(p.values[m]))]
            whole = [why for what, why in p.skipped if what is None]
            if not shown:
                why = "; ".join(whole) or "; ".join(
                    "%s: %s" % (w, y) for w, y in p.skipped) or \
                    "no result (%s)" % "; ".join(p.errors[:1])
                rows.append(("", label, "skipped: " + why
                             if p.skipped else "FAILED: " + why,
                             "", "", "", ""))
                continue
            nruns = len(p.runs)
            runs = "%d/%d" % (nruns, nruns + len(p.errors))
            first = True
            for m, lab in shown:
                vs = p.values[m]
                med = statistics.median(vs)
                ints = all(x == int(x) for x in vs)
                if p is base:
                    ratio = "base"
                else:
                    bm = base.median(m) if base else None
                    ratio = "×%.2f" % (med / bm) if bm else "–"
                rows.append(("", label if first else "", lab, fmt(med, ints),
                             "%s–%s" % (fmt(min(vs), ints), fmt(max(vs), ints)),
                             ratio,
                             runs if first else ""))
                first = False
            for what, why in p.skipped:
                rows.append(("", "", "%s: skipped: %s" % (what or "all", why),
                             "", "", "", ""))
            if p.errors:
                warnings.append("%s / %s: %d run(s) failed, first: %s" % (
                    title, p.name, len(p.errors), p.errors[0]))
            if "--ext" in p.name or p.name.startswith("ext on"):
                off = [r for r in p.raw if r.get("ext_available") in
                       (False, 0, "false")]
                if off:
                    warnings.append(
                        "%s / %s: lock_table reported ext_available=false in "
                        "%d run(s): the clients ran without the extension" % (
                            title, p.name, len(off)))
    return rows, warnings


def render(rows):
    w = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for n, r in enumerate(rows):
        out.append("| " + " | ".join(c.ljust(w[i]) for i, c in enumerate(r))
                   + " |")
        if n == 0:
            out.append("|" + "|".join("-" * (x + 2) for x in w) + "|")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", metavar="FILE")
    ap.add_argument("--command", help="the command that produced the results")
    ap.add_argument("--note", action="append", default=[],
                    help="an extra line above the table (repeatable)")
    a = ap.parse_args()

    metas, points, order = load(a.files)
    host = next((m for m in metas if m.get("meta") == "host"), {})
    boots = [m for m in metas if m.get("meta") == "boot"]
    command = a.command or host.get("command") or "?"

    print("## sliceext benchmarks")
    print()
    ncpu = sorted({b.get("nproc") for b in boots if b.get("nproc")})
    print("- The guest runs under QEMU TCG emulation (no KVM)%s: absolute "
          "numbers are not hardware numbers; only ratios within one boot "
          "count." % (", %s vCPUs" % "/".join(map(str, ncpu)) if ncpu else ""))
    print("- Command: `%s`" % command)
    if host.get("date"):
        print("- Run: %s on %s (%s host CPUs), %s" % (
            host["date"], host.get("cpu", "?"), host.get("host_nproc", "?"),
            host.get("qemu", "?")))
    for b in boots:
        print("- Boot: kernel `%s` (%s), parts %s, %d run(s) of %d s per point"
              % (b.get("uname"), b.get("kernel"), b.get("parts"),
                 b.get("repeat", 0), b.get("duration", 0)))
        if b.get("kernel") == "test":
            print("  - This is the **test kernel, with lockdep and other "
                  "debug options**: its numbers show the benchmarks run, "
                  "not what sliceext costs or gains; use `make bench`.")
    print("- Each row: median of its runs, spread min–max; ratio = row "
          "median / median of the base row named for its part below.")
    if any(p == "overhead" for p, _ in order) and len(boots) > 1:
        print("- d) compares two boots (the stock kernel and the patched "
              "one): its "
              "ratios against stock cross boots, so only differences well "
              "beyond the spread mean anything.")
    for n in a.note:
        print("- " + n)
    for part in parts_in(order):
        title = PARTS.get(part, (part,))[0]
        base_name = base_of(part, points)
        desc = part_desc(part, boots)
        print("- %s: %s%sratios vs \"%s\"" % (
            title, desc, "; " if desc else "", base_name or "–"))
    print()
    if not order:
        print("no results in %s" % ", ".join(a.files))
        return 1
    rows, warnings = table(points, order, boots)
    print(render(rows))
    if warnings:
        print()
        for w in warnings:
            print("warning: " + w)
    return 0


if __name__ == "__main__":
    sys.exit(main())
