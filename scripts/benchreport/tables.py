# SPDX-License-Identifier: GPL-2.0
"""The tables bench-report.py prints: a row per point and metric against
its base, the probe's runs counted, and the extension-length histogram."""

import statistics

import benchlib

from .parts import PARTS, metrics_of
from .stats import fmt, fmt_p, number

# The probe's "fast" runs: p99 within this (docs/log/2026-12-07-burst-notebook.md).
FAST_P99_US = 40


def shown_metrics(res, part, p):
    metrics = metrics_of(res, part, p)
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
            shown = shown_metrics(res, part, p)
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
        # The worker's metrics, named for its wake.
        wake = res.wake_of(p)
        p99_key, over_key, crossed_key = (
            benchlib.wake_metric(m, wake) for m in
            ("lat_p99_us", "lat_over_500us_pct", "lat_crossed_pct"))
        p99 = [r.get(p99_key) for r in p.raw]
        over = [r.get(over_key) for r in p.raw if number(r.get(over_key))]
        rows.append((
            p.name, "%d" % len(p.raw),
            "%d" % sum(1 for v in p99 if number(v) and v <= FAST_P99_US),
            "%d" % sum(1 for r in p.raw if number(r.get(crossed_key))
                       and r[crossed_key] > 50),
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
