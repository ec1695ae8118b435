#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The slice extension used per grant, as one JSON object on one line.

Both kernels' histograms in the same log2 buckets, so that
scripts/bench-report.py can put them side by side:

  bench-hist.py sliceext HIST0 HIST1 STATS0 STATS1
      sliceext's own: the change of ext/hist ("low_ns high_ns count"
      lines) and of ext/stats between two copies taken around a run.
      Every grant's end counts, at its time from grant to end.

  bench-hist.py trace REPORT
      mainline 7.x's, as tools/testing/selftests/rseq/rseq-slice-hist.py
      takes it: `trace-cmd report -t` of the timer:hrtimer_start,
      hrtimer_cancel and hrtimer_expire_entry events. A grant starts its
      CPU's rseq_slice_expired hrtimer; a cancel (rseq_slice_yield() or any
      other system call) or the timer's expiry ends it. Mainline leaves the
      timer running when the holder is preempted, so such a grant counts
      at its expiry; one whose timer was re-armed by the next grant first
      has no end time and is counted as "unended".

Output keys: "hist" ([[low_ns, high_ns, count], ...], low_ns = 2^i as
ext/hist), "ends" (their sum), "expired", and "revoked" (sliceext) or
"unended" (mainline).
"""

import json
import re
import sys

TIMER_FN = "rseq_slice_expired"


def bucket(ns):
    """ext/hist's: i = ilog2(ns), [2^i, 2^(i+1) - 1]; 0 for 0."""
    return max(int(ns), 1).bit_length() - 1


def hist_out(counts):
    return [[1 << i if i else 0, (1 << (i + 1)) - 1, counts[i]]
            for i in sorted(counts) if counts[i]]


def read_pairs(path, fn):
    """Lines of two or three numbers, keyed by fn(fields)."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            p = line.split()
            if p:
                k, v = fn(p)
                out[k] = v
    return out


def sliceext(hist0, hist1, stats0, stats1):
    def h(p):
        return bucket(int(p[0])), int(p[2])

    def s(p):
        return p[0], int(p[1])

    a, b = read_pairs(hist0, h), read_pairs(hist1, h)
    counts = {i: b.get(i, 0) - a.get(i, 0) for i in set(a) | set(b)}
    sa, sb = read_pairs(stats0, s), read_pairs(stats1, s)
    d = {k: sb[k] - sa.get(k, 0) for k in sb}
    return {"hist": hist_out(counts), "ends": sum(counts.values()),
            "expired": d.get("expired"), "revoked": d.get("revoked"),
            "granted": d.get("granted")}


# "  comm-pid  [001]  123.456789012: hrtimer_start:  hrtimer=0x... function=..."
EVENT = re.compile(r"\s(\d+)\.(\d+):\s+(hrtimer_start|hrtimer_cancel|"
                   r"hrtimer_expire_entry):\s+hrtimer=(\S+)(.*)")


def trace(report):
    pending, counts = {}, {}
    expired = unended = 0

    def end(t, ts):
        i = bucket(ts - pending.pop(t))
        counts[i] = counts.get(i, 0) + 1

    with open(report, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = EVENT.search(line)
            if not m:
                continue
            sec, frac, ev, t, rest = m.groups()
            # -t prints nanoseconds; without it, microseconds.
            ts = int(sec) * 10**9 + int(frac.ljust(9, "0")[:9])
            if ev == "hrtimer_start":
                if "function=" + TIMER_FN not in rest:
                    continue
                if t in pending:
                    unended += 1
                pending[t] = ts
            elif t not in pending:
                continue
            elif ev == "hrtimer_cancel":
                end(t, ts)
            else:
                expired += 1
                end(t, ts)
    unended += len(pending)
    return {"hist": hist_out(counts), "ends": sum(counts.values()),
            "expired": expired, "unended": unended}


def main(argv):
    if len(argv) == 6 and argv[1] == "sliceext":
        out = sliceext(*argv[2:])
    elif len(argv) == 3 and argv[1] == "trace":
        out = trace(argv[2])
    else:
        print("usage: bench-hist.py sliceext HIST0 HIST1 STATS0 STATS1\n"
              "       bench-hist.py trace REPORT", file=sys.stderr)
        return 2
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
