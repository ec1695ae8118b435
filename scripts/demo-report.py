#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print make demo's two results as short bars, and draw them as an SVG.

Reads the tools' --json files scripts/demo-guest.sh wrote, named
PART-ROW-RUN.json: lock-{off,on_5us,on_50us}-N.json (lock_table) and
latency-{burst_off,burst_on}-N.json (wakeup_lat). Each row shows the
median over its runs, with the lowest and highest, and its ratio to the
first row of its part.
"""
import argparse
import glob
import json
import os
import statistics
import sys

PARTS = [
    ("lock", "Lock table: critical sections per second", "ops_per_s",
     "higher is better", 1e-3, "k/s",
     [("off", "extension off"), ("on_5us", "on, 5 µs"),
      ("on_50us", "on, 50 µs")]),
    ("latency", "Wakeup latency under load: p99 of the workers' wakeups",
     "lat_p99_us", "lower is better", 1, "µs",
     [("burst_off", "burst off"), ("burst_on", "burst on")]),
]
BAR = 28


def load(results):
    """{(part, row): [values of the part's key]}"""
    got = {}
    for part, _, key, _, _, _, rows in PARTS:
        for row, _ in rows:
            vals = []
            for path in sorted(glob.glob(os.path.join(
                    results, "%s-%s-*.json" % (part, row)))):
                try:
                    with open(path) as f:
                        rec = json.load(f)
                    vals.append(float(rec[key]))
                except (OSError, ValueError, KeyError, TypeError) as e:
                    print("demo-report: %s: %s" % (path, e), file=sys.stderr)
            got[part, row] = vals
    return got


def summary(got):
    """[(part spec, [(label, median, lo, hi, n) or (label, None...)])]"""
    out = []
    for spec in PARTS:
        part, rows = spec[0], spec[6]
        lines = []
        for row, label in rows:
            v = got.get((part, row), [])
            if v:
                lines.append((label, statistics.median(v), min(v), max(v),
                              len(v)))
            else:
                lines.append((label, None, None, None, 0))
        out.append((spec, lines))
    return out


def text(summ, kernel):
    lines = ["sliceext demo on %s" % kernel, ""]
    for spec, rows in summ:
        _, title, _, better, scale, unit, _ = spec
        n = max(r[4] for r in rows)
        lines.append("%s (median of %d runs, lowest-highest); %s" %
                     (title, n, better))
        top = max([r[1] for r in rows if r[1] is not None] or [1]) or 1
        base = rows[0][1]
        for i, (label, med, lo, hi, _) in enumerate(rows):
            if med is None:
                lines.append("  %-14s no result" % label)
                continue
            bar = "█" * max(1, round(BAR * med / top))
            ratio = ""
            if base and i:
                ratio = "  ×%.2f" % (med / base)
            lines.append("  %-14s %-*s %8.0f %s (%.0f-%.0f)%s" %
                         (label, BAR, bar, med * scale, unit, lo * scale,
                          hi * scale, ratio))
        lines.append("")
    return "\n".join(lines)


def svg(summ, kernel):
    w, row_h, left, width = 640, 26, 130, 380
    y = 40
    body = ['<text x="10" y="22" font-size="14">sliceext demo: %s</text>'
            % esc(kernel)]
    for spec, rows in summ:
        _, title, _, better, scale, unit, _ = spec
        body.append('<text x="10" y="%d" font-size="13">%s (%s)</text>'
                    % (y + 14, esc(title), better))
        y += 24
        top = max([r[1] for r in rows if r[1] is not None] or [1]) or 1
        for label, med, lo, hi, _ in rows:
            body.append('<text x="10" y="%d" font-size="12">%s</text>'
                        % (y + 15, esc(label)))
            if med is not None:
                bw = max(1, width * med / top)
                body.append('<rect x="%d" y="%d" width="%.1f" height="18" '
                            'fill="#4c72b0"/>' % (left, y + 2, bw))
                body.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" '
                            'stroke="black"/>' % (left + width * lo / top,
                                                  left + width * hi / top,
                                                  y + 11, y + 11))
                body.append('<text x="%.1f" y="%d" font-size="12">%.0f %s'
                            '</text>' % (left + bw + 6, y + 15, med * scale,
                                         esc(unit)))
            y += row_h
        y += 12
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
            'font-family="sans-serif">\n%s\n</svg>\n'
            % (w, y + 10, "\n".join(body)))


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", help="directory of the demo's JSON files")
    ap.add_argument("--kernel", default="an unnamed kernel",
                    help="what the demo booted, for the heading")
    ap.add_argument("--svg", help="also draw the results here")
    args = ap.parse_args()
    if not os.path.isdir(args.results):
        sys.exit("demo-report: %s: no such directory" % args.results)
    summ = summary(load(args.results))
    if all(r[1] is None for _, rows in summ for r in rows):
        sys.exit("demo-report: no results in %s" % args.results)
    print(text(summ, args.kernel))
    if args.svg:
        with open(args.svg, "w") as f:
            f.write(svg(summ, args.kernel))
    print("Results: %s%s" % (args.results,
                             ", picture: %s" % args.svg if args.svg else ""))
    print("All of it, with mainline 7.3 and spreads across boots: make bench "
          "(docs/results.md)")


if __name__ == "__main__":
    main()
