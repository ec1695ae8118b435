#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/benchreport/results_md.py: docs/results.md from
results of every part, its sections and anchors, how each says to
reproduce it, its short tables and its pictures.

Run by tests/host/bench-report.sh, a TAP line per test
(tests/host/bench_testlib.py).
"""

import os
import re
import sys
import unittest

from bench_testlib import HAVE_MPL, HOST, Tmp, boot, jl, main, run

from benchreport import results_md


ALL_PARTS = [
    HOST,
    boot(parts="lock,latency,compute,probe", probe_configs="off on",
         probe_places="same", probe_hogs=4, probe_order="alternate",
         probe_cmd="wakeup_lat --message-threads 1"),
    {"meta": "module", "kernel": "release", "version": "0.9.0"},
    run("lock", "ext_off", "ext off", 1, "off", ops_per_s=100,
        wait_cdf_us=[[0, 1.0], [50, 2.0], [99, 30.0], [100, 40.0]]),
    run("lock", "ext_off", "ext off", 2, "off", ops_per_s=110,
        wait_cdf_us=[[0, 1.0], [50, 3.0], [99, 35.0], [100, 45.0]]),
    run("lock", "ext_on_5", "ext on, 5 µs", 1, "on+ext/slice_ext_nsec=5000",
        ops_per_s=150, wait_cdf_us=[[0, 1.0], [50, 2.0], [99, 9.0],
                                    [100, 10.0]]),
    run("lock", "ext_on_5", "ext on, 5 µs", 2, "on+ext/slice_ext_nsec=5000",
        ops_per_s=160),
    run("latency", "off", "burst off", 1, "off", lat_p99_us=900,
        lat_cdf_us=[[0, 1.0], [50, 20.0], [99, 900.0], [100, 1000.0]]),
    run("latency", "on", "burst on", 1, "on", lat_p99_us=90,
        lat_cdf_us=[[0, 1.0], [50, 10.0], [99, 90.0], [100, 100.0]]),
    run("compute", "off", "under load, burst off", 1, "off",
        rounds_per_s=50),
    run("compute", "on", "under load, burst on", 1, "on", rounds_per_s=48),
    run("probe", "same:off", "off, hogs in its session", 1, "off",
        lat_p99_us=700, timer_p99_us=70, position=1),
    run("probe", "same:on", "on, hogs in its session", 1, "on",
        lat_p99_us=35, timer_p99_us=60, position=2),
    boot(parts="overhead", mode="icount"),
    run("overhead", "unloaded", "patched, module not loaded", 1, "-",
        placement="-", tool="hackbench", hackbench_s=2.0),
    run("overhead", "idle", "module loaded, idle", 1, "off", placement="-",
        tool="hackbench", hackbench_s=2.1),
    run("overhead", "idle", "module loaded, idle", 1, "off", placement="-",
        tool="syscall_loop", ns_per_call=300.0),
]


class ResultsMarkdown(Tmp):
    def make(self, lines=ALL_PARTS):
        path = self.write("res/results.jsonl", jl(*lines))
        md = os.path.join(self.dir, "docs/results.md")
        os.makedirs(os.path.dirname(md))
        rc, out, err = self.report("--results-md", md, path)
        self.assertEqual(rc, 0, err)
        with open(md, encoding="utf-8") as f:
            return f.read(), out

    def section(self, text, title):
        m = re.search(r"^## %s\n(.*?)(?=^## |\Z)" % re.escape(title), text,
                      re.M | re.S)
        self.assertIsNotNone(m, title)
        return m.group(1)

    def test_sections_and_anchors(self):
        text, _ = self.make()
        heads = re.findall(r"^## (.*)$", text, re.M)
        self.assertEqual([results_md.slug(h) for h in heads],
                         ["lock-table", "wakeup-latency", "compute",
                          "overhead", "wakeup-probe", "postgresql",
                          "extension-used-per-grant"])

    def test_each_section_says_how_to_reproduce_it(self):
        text, _ = self.make()
        for title in ("Lock table", "Wakeup latency", "Compute", "Overhead",
                      "Wakeup probe"):
            s = self.section(text, title)
            self.assertIn("- Reproduce: `make bench ARGS=\"--repeat 5\"`, "
                          "then `scripts/bench-report.py --results-md ", s)
            self.assertIn("- Core series: `0123456789ab` (13 patches, "
                          "checkout `6591678`)", s)
            self.assertIn("- Kernels: `6.12.0-sliceext` (release)", s)
        self.assertIn("- Mode: multi-threaded TCG\n",
                      self.section(text, "Lock table"))
        self.assertIn("- Mode: icount\n", self.section(text, "Overhead"))

    def test_one_short_table_per_part(self):
        text, _ = self.make()
        lock = self.section(text, "Lock table")
        self.assertIn("Metric: ops/s ↑.", lock)
        self.assertRegex(lock, r"\| ext on, 5 µs \(`on\+ext/slice_ext_nsec="
                         r"5000`\) \| 155 \| 152–158 \| 150–160 \| ×1\.48 \|")
        self.assertEqual(len(re.findall(r"^\|", lock, re.M)), 4)
        probe = self.section(text, "Wakeup probe")
        self.assertIn("| on, hogs in its session | futex wakeup p99 µs ↓ | 35 |",
                      probe)
        self.assertIn("|  | timer wakeup p99 µs ↓ | 60 |", probe)
        self.assertIn("| on, hogs in its session | 1 | 1 | 0 |", probe)
        # Results without probe_wakes (futex only): the line as it was.
        self.assertIn("- What runs: wakeup_lat --message-threads 1 (a timer "
                      "wakes it every millisecond, it wakes its worker "
                      "through a futex: both wakeups measured) beside load "
                      "--hogs 4, in each placement; configurations off on, "
                      "alternate order\n", probe)
        hist = self.section(text, "Extension used per grant")
        self.assertIn("Not measured in these results", hist)

    @unittest.skipUnless(HAVE_MPL, "no python3-matplotlib")
    def test_one_picture_per_part_beside_it(self):
        text, out = self.make()
        for part, title in (("lock", "Lock table"),
                            ("latency", "Wakeup latency"),
                            ("compute", "Compute"), ("overhead", "Overhead"),
                            ("probe", "Wakeup probe")):
            self.assertIn("![%s](results-%s.svg)" % (title, part),
                          self.section(text, title))
            with open(os.path.join(self.dir, "docs/results-%s.svg" % part),
                      encoding="utf-8") as f:
                svg = f.read()
            self.assertIn("<svg", svg)
        self.assertIn("results: ", out)

    def test_the_probe_with_both_wakes(self):
        """bench.sh's default --wakes futex,pipe: the futex rows as
        before, each pipe row with its own metric against the pipe's off
        row, and the What runs line naming both wakes."""
        cmd = ("wakeup_lat --message-threads 1 --workers 1 --work-us 200 "
               "--interval-us 1000 [--wake pipe]")
        lines = [HOST, boot(parts="probe", probe_configs="off on",
                            probe_places="same", probe_wakes="futex pipe",
                            probe_hogs=4, probe_order="alternate",
                            probe_cmd=cmd)]
        for wake, key, p99 in (("futex", "lat", (700, 35)),
                               ("pipe", "pipe", (400, 100))):
            for i, config in enumerate(("off", "on")):
                pid = "same:%s" % config + ("" if wake == "futex" else
                                            ":pipe")
                label = "%s, hogs in its session" % config + (
                    "" if wake == "futex" else ", pipe-woken")
                metrics = {key + "_p99_us": p99[i],
                           key + "_crossed_pct": 80 if wake == "pipe" else 0,
                           key + "_over_500us_pct": 1.0 + i,
                           key + "_cdf_us": [[0, 1.0], [50, 5.0],
                                             [99, p99[i]], [100, 999.0]],
                           "timer_p99_us": 60 + i}
                lines.append(run("probe", pid, label, 1, config, wake=wake,
                                 position=i + 1, **metrics))
        text, _ = self.make(lines)
        probe = self.section(text, "Wakeup probe")
        self.assertIn("- What runs: %s (a timer wakes it every millisecond, "
                      "it wakes its worker through a futex or by a write to "
                      "a pipe the worker reads, with --wake pipe: both "
                      "wakeups measured) beside load --hogs 4" % cmd, probe)
        self.assertIn("\"off, hogs in its session, pipe-woken\" for \"on, "
                      "hogs in its session, pipe-woken\"", probe)
        self.assertIn("| on, hogs in its session | futex wakeup p99 µs ↓ | "
                      "35 |", probe)
        self.assertRegex(probe, r"\| off, hogs in its session, pipe-woken "
                         r"\| pipe wakeup p99 µs ↓ \| 400 \| [^|]+\| [^|]+\| "
                         r"base \|")
        self.assertRegex(probe, r"\| on, hogs in its session, pipe-woken "
                         r"\| pipe wakeup p99 µs ↓ \| 100 \| [^|]+\| [^|]+\| "
                         r"×0\.25 \|")
        self.assertRegex(probe, r"\|  \| timer wakeup p99 µs ↓ \| 61 \| "
                         r"[^|]+\| [^|]+\| ×1\.02 \|")
        # Run by run: the pipe rows' counts from the pipe's metrics.
        self.assertIn("| on, hogs in its session, pipe-woken | 1 | 0 | 1 | "
                      "2.00% | 0 |", probe)
        self.assertIn("| on, hogs in its session | 1 | 1 | 0 | 2.00% | 0 |",
                      probe)
        if HAVE_MPL:
            with open(os.path.join(self.dir, "docs/results-probe.svg"),
                      encoding="utf-8") as f:
                svg = f.read()
            # Bars and curves of both wakes, each against its own base.
            for text in ("futex/pipe wakeup latency",
                         "on, hogs in its session, pipe-woken · pipe wakeup "
                         "p99 µs ↓", "on, hogs in its session · futex "
                         "wakeup p99 µs ↓", "×0.25"):
                self.assertTrue(text in svg, text)

    def test_a_part_not_run_keeps_its_anchor(self):
        text, _ = self.make(ALL_PARTS[:6])
        for title in ("Wakeup latency", "Compute", "Overhead"):
            self.assertIn("Not measured in these results",
                          self.section(text, title))


if __name__ == "__main__":
    sys.exit(main(__name__))
