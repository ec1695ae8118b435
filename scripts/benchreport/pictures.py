# SPDX-License-Identifier: GPL-2.0
"""The pictures (matplotlib, SVG): per part, each row's ratio to its base
and the latency or wait distributions; the extension-length histogram."""

import importlib.util
import math
import os
import statistics
import sys

from .parts import HIST_TITLE, PARTS, dist_of, metrics_of

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
    the probe, every configuration in the base's placement and wake)."""
    out = []
    if part == "probe":
        for key in res.rows(part):
            p = res.points[key]
            if res.base_of(part, p.name) is p:
                out.append([p.name] + [
                    k[1] for k in res.rows(part) if k[1] != p.name and
                    res.base_of(part, k[1]) is p])
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

    title, _, dist = PARTS[part]
    bars = []   # (row, metric label, ratio, lo, hi, metric index)
    for key in res.rows(part):
        p = res.points[key]
        base = res.base_of(part, p.name)
        if base is None or base is p or not p.samples:
            continue
        # The first two metrics: the part's result and its tail (the
        # probe's worker's, of its wake, and its timer's).
        shown = [m for m in metrics_of(res, part, p) if not m[2]][:2]
        for i, (m, lab, _) in enumerate(shown):
            bm = base.median(m)
            if m not in p.samples or not bm:
                continue
            st = p.stats(m)
            bars.append((p.name, lab, st.median / bm, st.lo / bm,
                         st.hi / bm, i))
    groups = off_on_groups(res, part) if dist else []
    curves = [[(name, cdf_of(res.points[(part, name)],
                             dist_of(res, part, res.points[(part, name)])))
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
        wakes = []
        for g in groups:
            for name in g:
                w = res.wake_of(res.points[(part, name)])
                if w not in wakes:
                    wakes.append(w)
        ax.set_title(("lock wait" if part == "lock" else
                      "%s wakeup latency" % "/".join(wakes)
                      if part == "probe" else
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
