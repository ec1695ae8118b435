#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn sliceext benchmark results into tables and pictures.

Input: JSON lines as scripts/bench-guest.sh writes them (one object per
run: the tool's --json output plus "part", "point", "repeat", "kernel"),
{"skipped": why} lines for points that could not run, {"error": why}
lines for runs that failed, and "meta" lines describing the host and
each boot. Every point's runs are reduced to the median and the spread
(min-max) of each metric; the ratio is the row's median over the median
of its base row (scripts/bench-points names each row's base).

With --svg DIR, also one picture per part, drawn with matplotlib:
DIR/bench-PART.svg (ratios with their spread, and the latency
distributions where the part has them).

Usage: scripts/bench-report.py [--command CMD] [--note TEXT]...
                               [--svg DIR] [--points FILE] FILE...
"""

import argparse
import importlib.util
import json
import math
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# part -> (title, [(metric key, label, shown only when nonzero)],
# distribution key for the picture or None). Rows, their order and their
# bases come from scripts/bench-points.
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
}
ORDER = ["lock", "latency", "compute", "overhead"]
HIST_TITLE = "e) extension used per grant"
TAGS = {"part", "point", "point_id", "repeat", "kernel", "tool", "skipped",
        "error", "what"}
MODES = {"tcg": "multi-threaded TCG", "icount": "icount"}


def load_points(path):
    """part -> [(id, kernel, base, placement, label)] in file order."""
    points = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            part, pid, kernel, base, place, label = \
                line.rstrip("\n").split("\t", 5)
            points.setdefault(part, []).append(
                (pid, kernel, base, place, label))
    return points


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
        # A run is one repeat in one boot, of one tool or several (the
        # overhead part runs three per repeat): ok if none of them failed.
        self.runs, self.runs_failed = set(), set()
        self.records = 0
        self.errors = []
        self.skipped = []       # (what, why)
        self.raw = []

    def add(self, rec, boot):
        k = rec.get("kernel", "?")
        if k not in self.kernels:
            self.kernels.append(k)
        if "skipped" in rec:
            self.skipped.append((rec.get("what"), rec["skipped"]))
            return
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
                points[key].add(rec, len(metas))
    return metas, points, order


class Results:
    """The runs, the points file and the boots, and what follows from them."""

    def __init__(self, files, defs):
        self.metas, self.points, self.order = load(files)
        self.defs = defs
        self.boots = [m for m in self.metas if m.get("meta") == "boot"]
        self.host = next((m for m in self.metas if m.get("meta") == "host"),
                         {})

    def label(self, part, pid):
        for d in self.defs.get(part, []):
            if d[0] == pid:
                return d[4]
        return None

    def base_of(self, part, name):
        """The row's base Point, itself if it is one, or None."""
        d = next((d for d in self.defs.get(part, []) if d[4] == name), None)
        if d is None:
            return None
        me = self.points.get((part, name))
        for alt in d[2].split("|"):
            if alt == "-":
                return me
            p = self.points.get((part, self.label(part, alt)))
            if p and p.values:
                return p
        return None

    def parts(self):
        present = {p for p, _ in self.order}
        return [p for p in ORDER if p in present] + \
            sorted(present - set(ORDER) - {"hist"})

    def rows(self, part):
        known = [d[4] for d in self.defs.get(part, [])]
        keys = [k for k in self.order if k[0] == part]
        return sorted(keys, key=lambda k: known.index(k[1]) if k[1] in known
                      else len(known) + keys.index(k))

    def modes(self, part):
        """How the boots that gave this part's rows ran."""
        kernels = {k for key in self.rows(part)
                   for k in self.points[key].kernels}
        runs_in = "lock" if part == "hist" else part
        out = []
        for b in self.boots:
            if runs_in in b.get("parts", "").split(",") and \
                    b.get("kernel") in kernels:
                m = MODES.get(b.get("mode", "tcg"), b.get("mode"))
                if m not in out:
                    out.append(m)
        return out

    def boot_of(self, part):
        return next((b for b in self.boots
                     if part in b.get("parts", "").split(",")), None)


def part_desc(res, part):
    b = res.boot_of(part)
    if not b:
        return ""
    if part == "lock":
        return ("GLIBC_TUNABLES=glibc.pthread.rseq=0 lock_table --clients %d "
                "--cs-us %s --outside-us %s [--ext], %d hogs (load --hogs) in "
                "the clients' session, burst off; pthread mutex rows: "
                "lock_table --lock mutex under glibc's rseq area, "
                "LD_PRELOAD=libsliceext-preload.so or not" % (
                    b["lock_clients"], b.get("lock_cs_us", 5),
                    b.get("lock_outside_us", 20), b["lock_hogs"]))
    if part == "latency":
        return ("wakeup_lat --message-threads 2 --workers 4 --work-us 300 "
                "--interval-us 2000 beside load --hogs %d --forkers %d "
                "(in its session unless the row says where)" % (
                    b["load_hogs"], b["load_forkers"]))
    if part == "compute":
        return "compute --threads 1, alone or beside load --hogs %d " \
            "--forkers %d" % (b["load_hogs"], b["load_forkers"])
    if part == "overhead":
        return "hackbench -g 4 -l 200; syscall_loop --syscall getppid" + (
            "; fork_loop --depth %d" % b["fork_depth"]
            if "fork_depth" in b else "") + \
            "; " + b.get("pinned_wakeup", "wakeup_lat pinned to one CPU") + \
            ", nothing else running"
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


def table(res):
    rows = [("benchmark", "row", "metric", "median", "min–max", "ratio", "runs")]
    warnings = []
    for part in res.parts():
        title, metrics, _ = PARTS.get(part, (part, [], None))
        modes = res.modes(part)
        rows.append(("**%s**%s" % (title, " (%s)" % ", ".join(modes)
                                   if modes else ""), "", "", "", "", "", ""))
        for key in res.rows(part):
            p = res.points[key]
            base = res.base_of(part, p.name)
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
            runs = "%d/%d" % (len(p.runs - p.runs_failed), len(p.runs))
            first = True
            for m, lab in shown:
                vs = p.values[m]
                med = statistics.median(vs)
                ints = all(x == int(x) for x in vs)
                if base is p:
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
                    title, p.name, len(p.runs_failed), p.errors[0]))
            if "ext on" in p.name:
                off = [r for r in p.raw if r.get("ext_available") in
                       (False, 0, "false")]
                if off:
                    warnings.append(
                        "%s / %s: lock_table reported ext_available=false in "
                        "%d run(s): the clients ran without the extension" % (
                            title, p.name, len(off)))
    return rows, warnings


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


def off_on_pairs(res, part):
    """For the distributions: each base row and its "on" rows (the ids
    with off turned into on: ext_off -> ext_on_5, cg_off -> cg_on)."""
    defs = res.defs.get(part, [])
    out = []
    for pid, _, base, _, label in defs:
        if base != "-":
            continue
        on = pid.replace("off", "on")
        rows = [label] + [d[4] for d in defs
                          if d[0] != pid and d[0].startswith(on)]
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
        if base is None or base is p or not p.values:
            continue
        for i, (m, lab, _) in enumerate(shown):
            bm = base.median(m)
            if m not in p.values or not bm:
                continue
            vs = p.values[m]
            bars.append((p.name, lab, statistics.median(vs) / bm,
                         min(vs) / bm, max(vs) / bm, i))
    groups = off_on_pairs(res, part) if dist else []
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
                ax.plot(xs, ys, marker=".", linewidth=1, color=cmap(gi),
                        linestyle="--" if ri == 0 else
                        ["-", ":", "-."][(ri - 1) % 3], label=name)
        ax.set_yscale("log")
        ax.set_xticks([nines(n) for n in NINES])
        ax.set_xticklabels(["p%g" % n for n in NINES])
        ax.set_xlabel("percentile (median over the runs)")
        ax.set_ylabel("µs")
        ax.set_title(("lock wait" if part == "lock" else "wakeup latency") +
                     ", off (dashed) and on", fontsize=10)
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


def draw(res, outdir, command):
    if importlib.util.find_spec("matplotlib") is None:
        print("bench-report: no matplotlib (Debian: python3-matplotlib); "
              "no pictures", file=sys.stderr)
        return []
    os.makedirs(outdir, exist_ok=True)
    made = []
    for part in res.parts() + (["hist"] if res.rows("hist") else []):
        modes = ", ".join(res.modes(part)) or "?"
        caption = "%s · %s · %s" % (modes, command,
                                    res.host.get("date", ""))
        path = os.path.join(outdir, "bench-%s.svg" % part)
        ok = draw_hist(res, path, caption) if part == "hist" else \
            part in PARTS and draw_part(res, part, path, caption)
        if ok:
            made.append(path)
    return made


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", metavar="FILE")
    ap.add_argument("--command", help="the command that produced the results")
    ap.add_argument("--note", action="append", default=[],
                    help="an extra line above the table (repeatable)")
    ap.add_argument("--svg", metavar="DIR",
                    help="also draw DIR/bench-PART.svg for each part")
    ap.add_argument("--points", default=os.path.join(HERE, "bench-points"),
                    help="the points file (default: scripts/bench-points)")
    a = ap.parse_args()

    res = Results(a.files, load_points(a.points))
    host, boots = res.host, res.boots
    command = a.command or host.get("command") or "?"

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
              "either (docs/benchmarks.md)." % vcpus)
    print("- Command: `%s`" % command)
    if host.get("date"):
        print("- Run: %s on %s (%s host CPUs), %s" % (
            host["date"], host.get("cpu", "?"), host.get("host_nproc", "?"),
            host.get("qemu", "?")))
    # Results pooled from several boots alike: one line for them, counted.
    lines = {}
    for b in boots:
        line = ("kernel `%s` (%s, %s), parts %s, %d run(s) of %d s per point"
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
    print("- Each row: median of its runs, spread min–max; ratio = row "
          "median / median of its base row, named for each part below.")
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
    if not res.order:
        print("no results in %s" % ", ".join(a.files))
        return 1
    rows, warnings = table(res)
    if len(rows) > 1:
        print(render(rows))
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
    if a.svg:
        made = draw(res, a.svg, command)
        if made:
            print()
            for m in made:
                print("picture: %s" % m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
