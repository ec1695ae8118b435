#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/benchreport/'s statistics and bases: runs pooled
over boots and files, median, IQR and spread, the rank test (and
without scipy), each row's base, the probe's base and its run-by-run
table.

Run by tests/host/bench-report.sh, a TAP line per test
(tests/host/bench_testlib.py).
"""

import contextlib
import io
import sys
import unittest

from bench_testlib import (HAVE_SCIPY, HOST, POINTS, Tmp, boot, jl,
                           latency_runs, main, run)

import benchlib
from benchreport import results, stats, tables


class Statistics(Tmp):
    def test_pooled_boots_median_iqr_and_spread(self):
        res = self.results(
            HOST, boot(),
            *latency_runs("burst off", "off", "off", [100, 200, 300]),
            boot(),
            *latency_runs("burst off", "off", "off", [400, 500]))
        p = res.points[("latency", "burst off")]
        st = p.stats("lat_p99_us")
        self.assertEqual(st.n, 5)
        self.assertEqual(st.median, 300)
        self.assertEqual((st.lo, st.hi), (100, 500))
        self.assertEqual((st.q1, st.q3), (200, 400))
        self.assertEqual(st.boot_medians, [200, 450])
        self.assertEqual(st.boots(), "200–450")
        self.assertEqual(len(p.runs), 5)

    def test_pooled_files(self):
        a = self.write("a.jsonl", jl(HOST, boot(), *latency_runs(
            "burst off", "off", "off", [1, 2])))
        b = self.write("b.jsonl", jl(HOST, boot(), *latency_runs(
            "burst off", "off", "off", [3, 4])))
        res = results.Results([a, b], results.load_points(POINTS))
        p = res.points[("latency", "burst off")]
        self.assertEqual(len(p.runs), 4)
        self.assertEqual(len(p.boots), 2)
        self.assertEqual(len(res.hosts), 2)

    @unittest.skipUnless(HAVE_SCIPY, "no python3-scipy")
    def test_rank_test(self):
        # Exact two-sided Mann-Whitney U: 5 against 5, fully apart.
        self.assertAlmostEqual(stats.rank_test([1, 2, 3, 4, 5],
                                                [6, 7, 8, 9, 10]),
                               2 / 252, places=6)
        self.assertAlmostEqual(stats.rank_test([1, 3, 5], [2, 4, 6]), 0.7,
                               places=6)
        self.assertIsNone(stats.rank_test([1], [2, 3]))

    @unittest.skipUnless(HAVE_SCIPY, "no python3-scipy")
    def test_rank_test_against_the_base_row(self):
        res = self.results(
            HOST, boot(),
            *latency_runs("burst off", "off", "off", [10, 11, 12, 13, 14]),
            *latency_runs("burst on", "on", "on", [1, 2, 3, 4, 5]))
        on = res.points[("latency", "burst on")]
        base = res.base_of("latency", "burst on")
        self.assertEqual(base.name, "burst off")
        self.assertAlmostEqual(res.test(on, base, "lat_p99_us"), 2 / 252,
                               places=6)
        rows, _ = tables.table(res)
        row = next(r for r in rows if r[1] == "burst on")
        self.assertEqual((row[2], row[3], row[6], row[7]),
                         ("latency p50 µs ↓", "1.50", "×0.25", "0.008"))

    def test_without_scipy_a_clear_message(self):
        saved = sys.modules.get("scipy"), stats._scipy
        sys.modules["scipy"] = None     # import scipy raises ImportError
        stats._scipy = None
        try:
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                self.assertIsNone(stats.rank_test([1, 2, 3], [4, 5, 6]))
                self.assertIsNone(stats.rank_test([1, 2, 3], [4, 5, 6]))
            self.assertEqual(err.getvalue().count("no scipy"), 1)
            self.assertIn("python3-scipy", err.getvalue())
            path = self.write("r.jsonl", jl(HOST, boot(), *latency_runs(
                "burst off", "off", "off", [1, 2])))
            rc, out, _ = self.report(path)
            self.assertEqual(rc, 0)
            self.assertIn("(not computed: no scipy)", out)
        finally:
            if saved[0] is None:
                del sys.modules["scipy"]
            else:
                sys.modules["scipy"] = saved[0]
            stats._scipy = saved[1]


class Probe(Tmp):
    def probe(self, place, config, values, crossed=0, position=1):
        return [run("probe", "%s:%s" % (place, config),
                    benchlib.probe_label(config, place), i + 1, config, place,
                    lat_p99_us=v, timer_p99_us=v / 10, lat_p50_us=5,
                    lat_over_500us_pct=1.0, lat_crossed_pct=crossed,
                    position=position)
                for i, v in enumerate(values)]

    def test_base_is_off_in_the_same_placement(self):
        res = self.results(
            HOST, boot(probe_configs="on off"),
            *self.probe("same", "on", [30, 35, 50]),
            *self.probe("same", "off", [300, 400, 500], position=2),
            *self.probe("cgroup", "off", [600]),
            *self.probe("cgroup", "on+burst/penalty_scale=40", [60],
                        crossed=80))
        b = res.base_of("probe", "on, hogs in its session")
        self.assertEqual(b.name, "off, hogs in its session")
        b = res.base_of("probe",
                        "on+burst/penalty_scale=40, hogs in another cpu cgroup")
        self.assertEqual(b.name, "off, hogs in another cpu cgroup")
        rows = tables.probe_table(res)
        same_on = next(r for r in rows if r[0] == "on, hogs in its session")
        self.assertEqual(same_on[1:], ("3", "2", "0", "1.00%", "3"))
        cg = next(r for r in rows if r[0].startswith("on+burst"))
        self.assertEqual(cg[3], "1")

    def pipe(self, place, config, values, crossed=0, position=1):
        return [run("probe", benchlib.probe_id(config, place, "pipe"),
                    benchlib.probe_label(config, place, "pipe"), i + 1,
                    config, place, wake="pipe", pipe_p99_us=v,
                    timer_p99_us=v / 10, pipe_p50_us=5,
                    pipe_over_500us_pct=2.0, pipe_crossed_pct=crossed,
                    position=position)
                for i, v in enumerate(values)]

    def test_each_wake_against_its_own_off(self):
        """A pipe row's base is the pipe's off row of its placement; the
        futex rows, tagged or from before the tag, keep theirs."""
        futex = self.probe("same", "on", [30, 35, 50])
        for r in futex:
            r["wake"] = "futex"
        res = self.results(
            HOST, boot(probe_configs="off on", probe_wakes="futex pipe"),
            *self.probe("same", "off", [300, 400, 500]), *futex,
            *self.pipe("same", "off", [1000, 1000]),
            *self.pipe("same", "on", [250, 250], crossed=90, position=2),
            *self.pipe("cgroup", "on", [7]))
        self.assertEqual(res.base_of("probe", "on, hogs in its session").name,
                         "off, hogs in its session")
        b = res.base_of("probe", "on, hogs in its session, pipe-woken")
        self.assertEqual(b.name, "off, hogs in its session, pipe-woken")
        self.assertIs(res.base_of("probe", b.name), b)
        # No off row of the pipe's there: its own first row, not futex's.
        self.assertEqual(res.base_of(
            "probe", "on, hogs in another cpu cgroup, pipe-woken").name,
            "on, hogs in another cpu cgroup, pipe-woken")
        rows, _ = tables.table(res)
        pipe_on = [r for r in rows if r[1] == "on, hogs in its session, "
                   "pipe-woken"][0]
        self.assertEqual((pipe_on[2], pipe_on[3], pipe_on[6]),
                         ("pipe wakeup p99 µs ↓", "250", "×0.25"))
        # Each row's metrics: its own wake's, and the timer's.
        shown, row = {}, None
        for r in rows[1:]:
            row = r[1] or row
            shown.setdefault(row, []).append(r[2])
        self.assertEqual(shown["on, hogs in its session, pipe-woken"], [
            "pipe wakeup p99 µs ↓", "timer wakeup p99 µs ↓",
            "pipe wakeup p50 µs ↓", "pipe wakeups over 500 µs % ↓",
            "woken on another CPU %"])
        self.assertEqual(shown["on, hogs in its session"], [
            "futex wakeup p99 µs ↓", "timer wakeup p99 µs ↓",
            "futex wakeup p50 µs ↓", "futex wakeups over 500 µs % ↓",
            "woken on another CPU %"])
        pt = {r[0]: r for r in tables.probe_table(res)}
        self.assertEqual(pt["on, hogs in its session, pipe-woken"][1:],
                         ("2", "0", "2", "2.00%", "0"))
        self.assertEqual(pt["on, hogs in its session"][1:4], ("3", "2", "0"))

    def test_without_off_the_first_configuration_given(self):
        res = self.results(
            HOST, boot(probe_configs="on on+burst/smoothness=2"),
            *self.probe("same", "on+burst/smoothness=2", [1]),
            *self.probe("same", "on", [2]))
        self.assertEqual(res.base_of("probe", benchlib.probe_label(
            "on+burst/smoothness=2", "same")).config, "on")


if __name__ == "__main__":
    sys.exit(main(__name__))
