#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/benchlib.py: configuration strings, the points
file (scripts/bench-points), and setting a configuration on a made-up
debugfs tree (also through bench-record.py snapshot, apply, restore).

Run by tests/host/bench-report.sh, a TAP line per test
(tests/host/bench_testlib.py).
"""

import os
import re
import subprocess
import sys
import unittest

from bench_testlib import POINTS, RECORD, TOP, Tmp, main

import benchlib


# ---- configuration strings --------------------------------------------------

class ConfigStrings(unittest.TestCase):
    def test_off_and_on(self):
        self.assertFalse(benchlib.parse_config("off").on)
        self.assertTrue(benchlib.parse_config("on").on)
        self.assertEqual(benchlib.parse_config("on").settings, [])

    def test_knob_settings(self):
        c = benchlib.parse_config("on+burst/penalty_scale=40")
        self.assertEqual(c.switch, "on")
        self.assertEqual(c.settings, [("burst/penalty_scale", "40")])
        c = benchlib.parse_config(
            "off+ext/slice_ext_nsec=50000+sched/features=NO_HRTICK")
        self.assertEqual(c.settings, [("ext/slice_ext_nsec", "50000"),
                                      ("sched/features", "NO_HRTICK")])

    def test_round_trip(self):
        for s in ("off", "on", "on+burst/penalty_scale=40",
                  "on+sched/features=HRTICK+sched/features=NO_DELAY_ZERO"):
            self.assertEqual(str(benchlib.parse_config(s)), s)

    def test_no_module(self):
        self.assertIsNone(benchlib.parse_config("-"))

    def test_errors_say_what(self):
        for bad, says in (("", "empty"), ("bogus", "not off or on"),
                          ("ndz", "not off or on"),
                          ("on+x", "not KNOB=VALUE"),
                          ("on+burst/x=", "not KNOB=VALUE"),
                          ("on+foo/bar=1", "burst/NAME, ext/NAME"),
                          ("on+burst/x=1+burst/x=2", "set twice"),
                          ("on+burst/x=a b", "letters, digits"),
                          ("on+sched/features=hrtick", "scheduler feature"),
                          ("on burst/x=1", "not off or on")):
            with self.assertRaises(benchlib.ConfigError) as cm:
                benchlib.parse_config(bad)
            self.assertIn(says, str(cm.exception), bad)


class PointsFile(Tmp):
    def test_every_point_has_a_configuration_that_parses(self):
        pts = benchlib.load_points(POINTS)
        for part, rows in pts.items():
            for p in rows:
                self.assertIsNotNone(p.config, "%s/%s" % (part, p.id))
                c = benchlib.parse_config(p.config)
                if part == "overhead" and p.id in ("stock", "unloaded"):
                    self.assertIsNone(c)
                else:
                    self.assertIsNotNone(c, "%s/%s" % (part, p.id))

    def test_knobs_named_exist_in_the_module(self):
        with open(os.path.join(TOP, "module/knob_list.h"),
                  encoding="utf-8") as f:
            knobs = {"%s/%s" % m for m in re.findall(
                r"SLICEEXT_KNOB\((\w+),\s*(\w+),", f.read())}
        for rows in benchlib.load_points(POINTS).values():
            for p in rows:
                c = benchlib.parse_config(p.config)
                for k, _ in c.settings if c else []:
                    if not k.startswith("sched/"):
                        self.assertIn(k, knobs, "%s/%s" % (p.part, p.id))

    def test_switch_agrees_with_the_label(self):
        for part in ("latency", "compute"):
            for p in benchlib.load_points(POINTS)[part]:
                c = benchlib.parse_config(p.config)
                on = "burst on" in p.label or "sched_bore 1" in p.label
                self.assertEqual(c.on, on, "%s/%s" % (part, p.id))
        for p in benchlib.load_points(POINTS)["lock"]:
            c = benchlib.parse_config(p.config)
            self.assertEqual(c.on, "ext on" in p.label or
                             "preload library" in p.label, p.id)
        for p in benchlib.load_points(POINTS)["postgres"]:
            c = benchlib.parse_config(p.config)
            self.assertEqual(c.on, "ext on" in p.label, p.id)

    def test_postgres_rows_compare_like_with_like(self):
        """Each postgres row's base runs the same pgbench script on the
        same kernel with the hogs in the same place, the extension off;
        the ids say the script (bench-guest.sh runs -S for ro_)."""
        rows = benchlib.load_points(POINTS)["postgres"]
        by_id = {p.id: p for p in rows}
        for kernel in ("sliceext", "mainline"):
            mine = [p for p in rows if p.kernel == kernel]
            self.assertEqual(len(mine), 16, kernel)
            for p in mine:
                self.assertRegex(p.id, r"^(ml_)?(ro|tpcb)_")
                self.assertEqual(p.id.startswith("ml_"), kernel == "mainline")
                script = "select-only" if "ro_" in p.id else "TPC-B-like"
                self.assertIn(script, p.label, p.id)
                if p.base == "-":
                    self.assertEqual(p.config, "off", p.id)
                    continue
                b = by_id[p.base]
                self.assertEqual((b.kernel, b.placement, b.config),
                                 (kernel, p.placement, "off"), p.id)
                self.assertEqual(b.id.split("_off")[0],
                                 p.id.split("_on")[0], p.id)

    def test_old_six_field_file(self):
        path = self.write("p", "lock\ta\tsliceext\t-\tsame\text off\n")
        p = benchlib.load_points(path)["lock"][0]
        self.assertIsNone(p.config)
        self.assertEqual(p.label, "ext off")

    def test_bad_lines(self):
        for text, says in (("lock\ta\tsliceext\n", "3 fields"),
                           ("lock\ta\tnowhere\t-\tsame\toff\tx\n", "kernel"),
                           ("lock\ta\tsliceext\t-\tmoon\toff\tx\n",
                            "placement"),
                           ("lock\ta\tsliceext\t-\tsame\tbogus\tx\n",
                            "not off or on")):
            path = self.write("p", "# c\n" + text)
            with self.assertRaises(ValueError) as cm:
                benchlib.load_points(path)
            self.assertIn(says, str(cm.exception))
            self.assertIn(":2:", str(cm.exception))


# ---- the probe's points ------------------------------------------------------

class ProbePoints(unittest.TestCase):
    def test_futex_ids_and_labels_are_those_it_always_had(self):
        """Pooled with results from before the pipe joined the probe, a
        futex row is the same row."""
        self.assertEqual(benchlib.FIRST_WAKE, "futex")
        for wake in (None, "futex"):
            kw = {"wake": wake} if wake else {}
            self.assertEqual(benchlib.probe_id("on", "same", **kw), "same:on")
            self.assertEqual(benchlib.probe_label("on", "same", **kw),
                             "on, hogs in its session")
            self.assertEqual(benchlib.probe_id(
                "on+burst/penalty_scale=40", "cgroup", **kw),
                "cgroup:on+burst/penalty_scale=40")
            self.assertEqual(benchlib.probe_label("off", "autogroup", **kw),
                             "off, hogs in another autogroup")

    def test_pipe_ids_and_labels_say_the_wake(self):
        self.assertEqual(benchlib.probe_id("on", "same", "pipe"),
                         "same:on:pipe")
        self.assertEqual(benchlib.probe_label("on", "same", "pipe"),
                         "on, hogs in its session, pipe-woken")
        self.assertEqual(benchlib.probe_id(
            "on+burst/penalty_scale=40", "cgroup", "pipe"),
            "cgroup:on+burst/penalty_scale=40:pipe")

    def test_every_wake_has_ids_and_labels_of_its_own(self):
        ids = {benchlib.probe_id(c, pl, w) for c in ("off", "on")
               for pl in ("same", "cgroup") for w in benchlib.WAKES}
        labels = {benchlib.probe_label(c, pl, w) for c in ("off", "on")
                  for pl in ("same", "cgroup") for w in benchlib.WAKES}
        self.assertEqual(len(ids), 4 * len(benchlib.WAKES))
        self.assertEqual(len(labels), 4 * len(benchlib.WAKES))

    def test_wake_metric_names_the_tools_keys(self):
        """As tools/bench/wakeup_lat.c names them (tests/host/
        bench-tools.sh runs the tool with each wake and checks)."""
        for key in ("samples", "lat_p99_us", "lat_cdf_us", "timer_p99_us",
                    "run_delay_per_switch_us"):
            self.assertEqual(benchlib.wake_metric(key, "futex"), key)
        for key, pipe in (("samples", "pipe_samples"),
                          ("lat_p99_us", "pipe_p99_us"),
                          ("lat_over_500us_pct", "pipe_over_500us_pct"),
                          ("lat_crossed_pct", "pipe_crossed_pct"),
                          ("lat_cdf_us", "pipe_cdf_us"),
                          ("timer_p99_us", "timer_p99_us"),
                          ("run_delay_per_switch_us",
                           "run_delay_per_switch_us")):
            self.assertEqual(benchlib.wake_metric(key, "pipe"), pipe)


# ---- setting a configuration --------------------------------------------------

class FakeKernel(Tmp):
    KNOBS = {"burst/enabled": "1", "burst/penalty_scale": "1536",
             "burst/group_keep": "1", "ext/enabled": "1",
             "ext/slice_ext_nsec": "5000"}

    def setUp(self):
        super().setUp()
        self.root = os.path.join(self.dir, "root")
        dbg = "sys/kernel/debug/"
        for k, v in self.KNOBS.items():
            self.write("root/" + dbg + "sliceext/" + k, v + "\n")
        self.write("root/" + dbg + "sliceext/ext/hist", "0 1 3\n")
        self.write("root/" + dbg + "sliceext/ext/stats", "granted 1\n")
        self.write("root/" + dbg + "sched/features", "GENTLE NO_HRTICK\n")
        self.write("root/" + dbg + "sched/base_slice_ns", "3000000\n")
        self.k = benchlib.Kernel("sliceext", self.root)
        self.snap = self.k.snapshot()

    def knob(self, k):
        return self.read("root/sys/kernel/debug/sliceext/" + k).strip()

    def apply(self, config, part):
        return self.k.apply(benchlib.parse_config(config), part, self.snap)

    def test_snapshot_holds_the_writable_numbers(self):
        self.assertEqual(self.snap["knobs"][
            "sys/kernel/debug/sliceext/burst/penalty_scale"], "1536")
        self.assertNotIn("sys/kernel/debug/sliceext/ext/hist",
                         self.snap["knobs"])
        self.assertEqual(self.snap["features"]["HRTICK"], "NO_HRTICK")

    def test_burst_parts_switch_burst(self):
        self.apply("off", "latency")
        self.assertEqual(self.knob("burst/enabled"), "0")
        self.apply("on+burst/penalty_scale=40", "probe")
        self.assertEqual(self.knob("burst/enabled"), "1")
        self.assertEqual(self.knob("burst/penalty_scale"), "40")

    def test_a_setting_lasts_for_its_point(self):
        self.apply("on+burst/penalty_scale=40", "latency")
        self.apply("on", "latency")
        self.assertEqual(self.knob("burst/penalty_scale"), "1536")

    def test_ext_parts_keep_burst_off(self):
        self.apply("on+ext/slice_ext_nsec=50000", "lock")
        self.assertEqual(self.knob("burst/enabled"), "0")
        self.assertEqual(self.knob("ext/enabled"), "1")
        self.assertEqual(self.knob("ext/slice_ext_nsec"), "50000")
        self.apply("off", "lock")
        self.assertEqual(self.knob("ext/slice_ext_nsec"), "5000")

    def test_scheduler_features(self):
        self.apply("off+sched/features=HRTICK", "latency")
        self.assertEqual(self.read("root/sys/kernel/debug/sched/features")
                         .strip(), "HRTICK")
        self.apply("off", "latency")
        self.assertEqual(self.read("root/sys/kernel/debug/sched/features")
                         .strip(), "NO_HRTICK")

    def test_missing_knob_writes_nothing(self):
        with self.assertRaises(benchlib.Missing) as cm:
            self.apply("on+burst/penalty_scale=40+burst/nope=1", "latency")
        self.assertIn("/sys/kernel/debug/sliceext/burst/nope",
                      str(cm.exception))
        self.assertEqual(self.knob("burst/enabled"), "1")
        self.assertEqual(self.knob("burst/penalty_scale"), "1536")

    def test_missing_feature(self):
        with self.assertRaises(benchlib.Missing) as cm:
            self.apply("on+sched/features=NO_DELAY_ZERO", "latency")
        self.assertIn("DELAY_ZERO", str(cm.exception))

    def test_other_kernels(self):
        dbg = "root/sys/kernel/debug/"
        self.write(dbg + "rseq/slice_ext_nsec", "5000\n")
        ml = benchlib.Kernel("mainline", self.root)
        ml.apply(benchlib.parse_config("on+ext/slice_ext_nsec=50000"), "lock")
        self.assertEqual(self.read(dbg + "rseq/slice_ext_nsec").strip(),
                         "50000")
        with self.assertRaises(benchlib.Missing) as cm:
            ml.apply(benchlib.parse_config("on"), "latency")
        self.assertIn("no burst scheduling", str(cm.exception))
        with self.assertRaises(benchlib.Missing):
            ml.apply(benchlib.parse_config("on+burst/penalty_scale=1"),
                     "lock")
        self.write("root/proc/sys/kernel/sched_bore", "1\n")
        bore = benchlib.Kernel("bore", self.root)
        bore.apply(benchlib.parse_config("off"), "latency")
        self.assertEqual(self.read("root/proc/sys/kernel/sched_bore").strip(),
                         "0")
        bore.apply(benchlib.parse_config("on"), "probe")
        self.assertEqual(self.read("root/proc/sys/kernel/sched_bore").strip(),
                         "1")
        with self.assertRaises(benchlib.Missing):
            benchlib.Kernel("stock", self.root).apply(
                benchlib.parse_config("on"), "probe")

    def test_apply_cli(self):
        state = os.path.join(self.dir, "s.json")
        base = [sys.executable, RECORD]
        subprocess.run(base + ["snapshot", "--kind", "sliceext", "--state",
                               state, "--root", self.root], check=True)
        p = subprocess.run(base + ["apply", "--kind", "sliceext", "--state",
                                   state, "--root", self.root, "--part",
                                   "latency", "--",
                                   "on+burst/penalty_scale=40"],
                           stdout=subprocess.PIPE, text=True)
        self.assertEqual((p.returncode, p.stdout.strip()), (0, "on"))
        self.assertEqual(self.knob("burst/penalty_scale"), "40")
        p = subprocess.run(base + ["apply", "--kind", "sliceext", "--state",
                                   state, "--root", self.root, "--part",
                                   "latency", "on+burst/nope=1"],
                           stdout=subprocess.PIPE, text=True)
        self.assertEqual(p.returncode, 4)
        self.assertIn("burst/nope", p.stdout)
        p = subprocess.run(base + ["restore", "--kind", "sliceext",
                                   "--state", state, "--root", self.root])
        self.assertEqual(p.returncode, 0)
        self.assertEqual(self.knob("burst/penalty_scale"), "1536")


if __name__ == "__main__":
    sys.exit(main(__name__))
