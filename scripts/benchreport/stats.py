# SPDX-License-Identifier: GPL-2.0
"""The numbers of bench-report's tables: a metric's runs pooled over
every boot (median, quartiles, min-max, each boot's median), the rank test
of a row against its base, and how a number is printed."""

import math
import statistics
import sys


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
