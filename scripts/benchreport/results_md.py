# SPDX-License-Identifier: GPL-2.0
"""docs/results.md: a section per part, with its short table, its
picture, and how to reproduce it."""

import os
import re

import benchlib

from .parts import ORDER, PARTS, bases_desc, part_desc
from .stats import fmt, fmt_p, scipy_stats
from .tables import hist_table, probe_table, ratio_cell, why_empty

# docs/results.md: each part's section title (its anchor is the title in
# lower case, blanks as dashes) and the metrics of its short table.
SECTIONS = {
    "lock": ("Lock table", ["ops_per_s"]),
    "latency": ("Wakeup latency", ["lat_p99_us"]),
    "compute": ("Compute", ["rounds_per_s"]),
    "overhead": ("Overhead", ["hackbench_s", "ns_per_call", "forks_per_s",
                              "lat_p50_us"]),
    # The worker's p99 of each wake (a row has its own), then the timer's.
    "probe": ("Wakeup probe", [benchlib.wake_metric("lat_p99_us", w)
                               for w in benchlib.WAKES] + ["timer_p99_us"]),
    "postgres": ("PostgreSQL", ["tps", "lat_p99_us"]),
    "hist": ("Extension used per grant", []),
}


def slug(title):
    """The anchor a Markdown renderer (GitHub's) gives a heading."""
    s = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return s.replace(" ", "-")


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
           "and the code in `scripts/bench-report.py` and "
           "`scripts/benchreport/`." % report_cmd, ""]
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
