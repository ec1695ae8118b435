#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the benchmark pipeline's Python: configuration strings
and the points file (scripts/benchlib.py), setting a configuration on a
made-up debugfs tree, the records scripts/bench-record.py writes, and
scripts/bench-report.py on small results files (pooling, spreads, the
rank test, the probe part, docs/results.md, old results, bad input).

Run by tests/host/bench-report.sh; prints one TAP line per test
("ok - NAME" or "not ok - NAME" with "# " diagnostics) and exits 1 if
any failed.
"""

import contextlib
import glob
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SCRIPTS = os.path.join(TOP, "scripts")
sys.path.insert(0, SCRIPTS)
import benchlib  # noqa: E402
from benchreport import results, results_md, stats, tables  # noqa: E402


def load_script(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


report = load_script("bench_report", os.path.join(SCRIPTS,
                                                  "bench-report.py"))
RECORD = os.path.join(SCRIPTS, "bench-record.py")
POINTS = os.path.join(SCRIPTS, "bench-points")
HAVE_SCIPY = importlib.util.find_spec("scipy") is not None
HAVE_MPL = importlib.util.find_spec("matplotlib") is not None


def jl(*recs):
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs)


HOST = {"meta": "host", "schema": 2, "command": "make bench ARGS=\"--repeat 5\"",
        "date": "2027-01-02 03:04 UTC", "cpu": "c", "host_nproc": 2,
        "qemu": "QEMU emulator version 10.0.2", "series_hash": "0123456789ab",
        "series_patches": 13, "git": "6591678", "module_version": "0.9.0",
        "kernels": {"release": "6.12-release-x"}}


def boot(kernel="release", parts="lock,latency,compute,probe", mode="tcg",
         uname="6.12.0-sliceext", **kw):
    b = {"meta": "boot", "schema": 2, "kernel": kernel, "mode": mode,
         "uname": uname, "nproc": 2, "repeat": 5, "duration": 5,
         "parts": parts, "lock_clients": 6, "lock_hogs": 8, "lock_cs_us": 2,
         "lock_outside_us": 2, "load_hogs": 4, "load_forkers": 2,
         "fork_depth": 1000, "pinned_wakeup": "taskset -c 0 wakeup_lat",
         "cmdline": "console=ttyS0"}
    b.update(kw)
    return b


def run(part, pid, label, repeat, config, placement="same", kernel="release",
        **metrics):
    r = {"part": part, "point": label, "point_id": pid, "kernel": kernel,
         "repeat": repeat, "config": config, "placement": placement,
         "tool": "t"}
    r.update(metrics)
    return r


class Tmp(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def read(self, name):
        with open(os.path.join(self.dir, name), encoding="utf-8") as f:
            return f.read()

    def report(self, *args):
        """bench-report.py's main() in-process: (status, stdout, stderr)."""
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = report.main(list(args))
            except SystemExit as e:
                rc = e.code
        return rc, out.getvalue(), err.getvalue()

    def results(self, *lines, name="r.jsonl"):
        return results.Results([self.write(name, jl(*lines))],
                               results.load_points(POINTS))


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


# ---- records -------------------------------------------------------------------

class Records(Tmp):
    TAGS = ["--part", "probe", "--id", "same:on", "--label",
            "on, hogs in its session", "--kernel", "release", "--repeat", "2",
            "--config", "on", "--placement", "same", "--tag", "position=1"]

    def rec(self, *args):
        return subprocess.run([sys.executable, RECORD] + list(args),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)

    def lines(self, path):
        with open(path, encoding="utf-8") as f:
            return [json.loads(line) for line in f]

    def test_run_keeps_the_tools_json_and_adds_the_tags(self):
        out = os.path.join(self.dir, "r.jsonl")
        tool = ("print('wakeup_lat: human text 1 2 3'); "
                "print('{\"tool\": \"wakeup_lat\", \"lat_p99_us\": 42.5, "
                "\"part\": \"not mine\"}')")
        p = self.rec("run", out, *self.TAGS, "--", sys.executable, "-c", tool)
        self.assertEqual(p.returncode, 0, p.stderr)
        r, = self.lines(out)
        self.assertEqual(r, {"part": "probe", "point": "on, hogs in its session",
                             "point_id": "same:on", "kernel": "release",
                             "repeat": 2, "config": "on", "placement": "same",
                             "position": 1, "tool": "wakeup_lat",
                             "lat_p99_us": 42.5})

    def test_a_failed_run_is_an_error_record(self):
        out = os.path.join(self.dir, "r.jsonl")
        p = self.rec("run", out, *self.TAGS, "--", "sh", "-c",
                     "echo oops; exit 5")
        self.assertEqual(p.returncode, 3)
        r, = self.lines(out)
        self.assertEqual(r["error"], "exit 5: oops")
        p = self.rec("run", out, *self.TAGS, "--", "echo", "no json")
        self.assertEqual(p.returncode, 3)
        self.assertIn("no result", self.lines(out)[1]["error"])
        p = self.rec("run", out, *self.TAGS, "--timeout", "1", "--",
                     "sleep", "10")
        self.assertEqual(p.returncode, 3)
        self.assertIn("timed out", self.lines(out)[2]["error"])

    def test_hackbench(self):
        out = os.path.join(self.dir, "r.jsonl")
        p = self.rec("run", out, *self.TAGS, "--format", "hackbench", "--",
                     "printf", "Running in process mode\\nTime: 1.234\\n")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.lines(out)[0]["hackbench_s"], 1.234)
        p = self.rec("run", out, *self.TAGS, "--format", "hackbench", "--",
                     "echo", "Time: soon")
        self.assertEqual(p.returncode, 3)

    def test_skip_and_error_and_record(self):
        out = os.path.join(self.dir, "r.jsonl")
        self.assertEqual(self.rec("skip", out, *self.TAGS[:8], "--why",
                                  "no knob", "--what", "getppid").returncode, 0)
        self.assertEqual(self.rec("error", out, *self.TAGS[:8], "--why",
                                  "bad").returncode, 0)
        self.assertEqual(self.rec("record", out, *self.TAGS[:8], "--json",
                                  '{"hist": [[1, 1, 2]]}').returncode, 0)
        self.assertEqual(self.rec("record", out, *self.TAGS[:8], "--json",
                                  "[1]").returncode, 2)
        a, b, c = self.lines(out)
        self.assertEqual((a["skipped"], a["what"]), ("no knob", "getppid"))
        self.assertEqual(b["error"], "bad")
        self.assertEqual(c["hist"], [[1, 1, 2]])

    def test_a_bad_config_tag_is_refused(self):
        out = os.path.join(self.dir, "r.jsonl")
        p = self.rec("skip", out, "--part", "probe", "--id", "x", "--label",
                     "x", "--kernel", "release", "--config", "ndz", "--why",
                     "w")
        self.assertEqual(p.returncode, 2)
        self.assertIn("not off or on", p.stderr)
        self.assertFalse(os.path.exists(out))

    def test_boot_and_host_lines(self):
        out = os.path.join(self.dir, "r.jsonl")
        p = self.rec("boot", out, "--kernel", "release", "--mode", "icount",
                     "--parts", "probe", "--repeat", "3", "--duration", "2",
                     "--set", "probe_hogs=4", "--set", "probe_configs=off on")
        self.assertEqual(p.returncode, 0, p.stderr)
        b, = self.lines(out)
        self.assertEqual((b["meta"], b["schema"], b["mode"], b["repeat"],
                          b["probe_hogs"], b["probe_configs"]),
                         ("boot", 2, "icount", 3, 4, "off on"))
        self.assertIn("uname", b)
        p = self.rec("host", "--command", "make bench", "--top", TOP,
                     "--kernel-dir", "release=/x/6.12-release-abc/")
        self.assertEqual(p.returncode, 0, p.stderr)
        h = json.loads(p.stdout)
        self.assertEqual(h["kernels"], {"release": "6.12-release-abc"})
        self.assertEqual(h["series_patches"],
                         len([n for n in os.listdir(os.path.join(
                             TOP, "patches/6.12")) if n.endswith(".patch")]))
        self.assertRegex(h["series_hash"], r"^[0-9a-f]{12}$")

    def fake_pgbench(self, lines, tps="1234.5"):
        """A pgbench that writes LINES as its --log (two files, as two
        threads do) and prints its summary; the server's log and
        ext/stats move while it runs."""
        prefix = os.path.join(self.dir, "pgbench")
        self.write("server.log", "DEBUG:  time slice extension enabled, "
                   "on glibc's rseq area\n")
        self.write("stats", "requested 10\ngranted 7\ndenied 3\n")
        # Left by a run before: not this run's.
        self.write("pgbench.99", "0 1 999999 0 1 2\n")
        half = len(lines) // 2
        code = """
import sys
d = sys.argv[1]
open(d + "/pgbench.123", "w").write(%r)
open(d + "/pgbench.123.1", "w").write(%r)
open(d + "/server.log", "a").write(
    "DEBUG:  time slice extension enabled, on our own rseq area\\n" * 2)
open(d + "/stats", "w").write("requested 25\\ngranted 12\\ndenied 13\\n")
print("pgbench (15.18)\\nlatency average = 5.0 ms\\ntps = %s "
      "(without initial connection time)")
""" % ("".join(lines[:half]), "".join(lines[half:]), tps)
        return prefix, [sys.executable, "-c", code, self.dir]

    def test_pgbench(self):
        out = os.path.join(self.dir, "r.jsonl")
        lines = ["%d %d %d 0 1796655557 %d\n" % (i % 8, i, 10 * (i + 1), i)
                 for i in range(100)]
        lines[5] = "5 5 failed 0 1796655557 5\n"
        prefix, cmd = self.fake_pgbench(lines)
        p = self.rec("run", out, *self.TAGS[:8], "--format", "pgbench",
                     "--pgbench-log", prefix, "--server-log",
                     os.path.join(self.dir, "server.log"), "--ext-stats",
                     os.path.join(self.dir, "stats"), "--", *cmd)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        r, = self.lines(out)
        lat = sorted(10 * (i + 1) for i in range(100) if i != 5)
        self.assertEqual((r["tool"], r["tps"], r["transactions"],
                          r["failed"]), ("pgbench", 1234.5, 99, 1))
        self.assertEqual(r["lat_avg_us"], round(sum(lat) / 99.0, 1))
        # Nearest rank: of 99 latencies, the 50th (ceil 49.5) and the
        # 99th (ceil 98.01).
        self.assertEqual((r["lat_p50_us"], r["lat_p99_us"]),
                         (lat[49], lat[98]))
        cdf = dict((pct, v) for pct, v in r["lat_cdf_us"])
        self.assertEqual((cdf[0], cdf[50], cdf[100]), (10, lat[49], 1000))
        self.assertEqual(r["sessions_enabled"], 2)
        self.assertEqual((r["requested"], r["granted"], r["denied"]),
                         (15, 5, 10))
        self.assertEqual(glob.glob(prefix + ".*"), [],
                         "the logs are removed, the old one too")

    def test_pgbench_without_its_log_or_tps(self):
        out = os.path.join(self.dir, "r.jsonl")
        prefix, cmd = self.fake_pgbench([])
        p = self.rec("run", out, *self.TAGS[:8], "--format", "pgbench",
                     "--pgbench-log", prefix, "--", *cmd)
        self.assertEqual(p.returncode, 3)
        self.assertIn("no result", self.lines(out)[0]["error"])
        prefix, cmd = self.fake_pgbench(["0 1 10 0 1 2\n"] * 2, tps="soon")
        p = self.rec("run", out, *self.TAGS[:8], "--format", "pgbench",
                     "--pgbench-log", prefix, "--", *cmd)
        self.assertEqual(p.returncode, 3)

    def test_probe_points_and_count(self):
        p = self.rec("probe-points", "--configs", "off,on+burst/smoothness=2",
                     "--places", "same cgroup")
        rows = [line.split("\t") for line in p.stdout.splitlines()]
        self.assertEqual(len(rows), 4)
        self.assertEqual(rows[1], ["probe", "same:on+burst/smoothness=2",
                                   "same", "on+burst/smoothness=2",
                                   "on+burst/smoothness=2, hogs in its "
                                   "session"])
        for bad in (["--configs", "off ndz", "--places", "same"],
                    ["--configs", "on on", "--places", "same"],
                    ["--configs", "on", "--places", "moon"]):
            self.assertEqual(self.rec("probe-points", *bad).returncode, 2)
        p = self.rec("count", "--kind", "mainline", "--parts", "lock")
        self.assertEqual(p.stdout.strip(), str(sum(
            1 for part in ("lock", "hist")
            for q in benchlib.load_points(POINTS)[part]
            if q.kernel == "mainline")))
        p = self.rec("count", "--kind", "bore", "--parts", "probe",
                     "--probe", "6")
        self.assertEqual(p.stdout.strip(), "6")


# ---- the report -------------------------------------------------------------------

def latency_runs(label, pid, config, values, boot_parts=None, placement="same"):
    return [run("latency", pid, label, i + 1, config, placement,
                lat_p99_us=v, lat_p50_us=v / 2)
            for i, v in enumerate(values)]


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

    def test_without_off_the_first_configuration_given(self):
        res = self.results(
            HOST, boot(probe_configs="on on+burst/smoothness=2"),
            *self.probe("same", "on+burst/smoothness=2", [1]),
            *self.probe("same", "on", [2]))
        self.assertEqual(res.base_of("probe", benchlib.probe_label(
            "on+burst/smoothness=2", "same")).config, "on")


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


def pgbench_runs(kernel, pid, label, config, tps, enabled=8, placement="same"):
    return [run("postgres", pid, label, i + 1, config, placement, kernel,
                tool="pgbench", tps=v, lat_p99_us=1e6 / v, lat_avg_us=5e5 / v,
                lat_p50_us=4e5 / v, sessions_enabled=enabled,
                lat_cdf_us=[[0, 10.0], [50, 4e5 / v], [99, 1e6 / v],
                            [100, 2e6 / v]])
            for i, v in enumerate(tps)]


PG = [HOST, boot(parts="postgres", pg_clients=8, pg_threads=2, pg_scale=10,
                 pg_hogs=8, pg_build="15.18-0+deb12u1-abc",
                 pg_server="GLIBC_TUNABLES=glibc.pthread.rseq=0 postgres")]
PG += pgbench_runs("release", "ro_off", "select-only, ext off", "off",
                   [100, 110, 90], enabled=0)
PG += pgbench_runs("release", "ro_on_50", "select-only, ext on, 50 µs",
                   "on+ext/slice_ext_nsec=50000", [150, 140, 160])
PG += [boot(kernel="mainline", uname="7.3.4-mainline", parts="postgres",
            pg_clients=8)]
PG += pgbench_runs("mainline", "ml_ro_off", "mainline 7.3, select-only, ext off",
                   "off", [100, 100, 100], enabled=0)
PG += pgbench_runs("mainline", "ml_ro_on_5",
                   "mainline 7.3, select-only, ext on, 5 µs",
                   "on+ext/slice_ext_nsec=5000", [120, 120, 120], enabled=0)


class Postgres(Tmp):
    def test_rows_ratios_and_warnings(self):
        rc, out, err = self.report(self.write("r.jsonl", jl(*PG)))
        self.assertEqual(rc, 0, err)
        self.assertRegex(out, r"\| select-only, ext off +\| TPS ↑ +\| 100 +"
                         r"\| 95–105 +\| 90–110 +\| base ")
        self.assertRegex(out, r"\| select-only, ext on, 50 µs +\| TPS ↑ +"
                         r"\| 150 +\| [^|]+\| [^|]+\| ×1\.50 ")
        self.assertRegex(out, r"\| +\| latency p99 µs ↓ +\| 6667 +\| "
                         r"[^|]+\| [^|]+\| ×0\.67 ")
        self.assertRegex(out, r"\| mainline 7\.3, select-only, ext on, 5 µs "
                         r"+\| TPS ↑ +\| 120 +\| [^|]+\| [^|]+\| ×1\.20 ")
        self.assertIn("pgbench -c 8 -j 2", out)
        self.assertIn("15.18-0+deb12u1-abc", out)
        # Mainline's "on" row ran without the extension: said so; the off
        # rows, which never enable it, are not.
        self.assertIn("mainline 7.3, select-only, ext on, 5 µs: no "
                      "PostgreSQL session enabled the extension in 3 run(s)",
                      out)
        self.assertEqual(out.count("no PostgreSQL session enabled"), 1)

    def test_results_md_section(self):
        path = self.write("res/results.jsonl", jl(*PG))
        md = os.path.join(self.dir, "results.md")
        rc, _, err = self.report("--results-md", md, path)
        self.assertEqual(rc, 0, err)
        text = self.read("results.md")
        sec = re.search(r"^## PostgreSQL\n(.*?)(?=^## |\Z)", text,
                        re.M | re.S).group(1)
        self.assertIn("- Kernels: `6.12.0-sliceext` (release), "
                      "`7.3.4-mainline` (mainline)", sec)
        self.assertRegex(sec, r"\| select-only, ext on, 50 µs \(`on\+ext/"
                         r"slice_ext_nsec=50000`\) \| TPS ↑ \| 150 \|")
        self.assertIn("|  | latency p99 µs ↓ | 6667 |", sec)


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

    def test_a_part_not_run_keeps_its_anchor(self):
        text, _ = self.make(ALL_PARTS[:6])
        for title in ("Wakeup latency", "Compute", "Overhead"):
            self.assertIn("Not measured in these results",
                          self.section(text, title))


# Results as scripts/bench.sh wrote them before the probe joined it: no
# schema, no config or placement, the host line printf'd by bash.
OLD = """\
{"meta":"host","command":"make bench","date":"2026-12-01 10:00 UTC","cpu":"c","host_nproc":2,"qemu":"QEMU emulator version 10.0.2"}
{"meta":"boot","kernel":"release","mode":"tcg","uname":"6.12.0-sliceext","nproc":2,"repeat":2,"duration":5,"parts":"lock,latency","lock_clients":6,"lock_hogs":8,"lock_cs_us":2,"lock_outside_us":2,"load_hogs":4,"load_forkers":2,"fork_depth":1000,"pinned_wakeup":"taskset -c 0 wakeup_lat --message-threads 1","cmdline":"console=ttyS0"}
{"part":"lock","point":"ext off","point_id":"ext_off","kernel":"release","repeat":1,"tool":"lock_table","ops_per_s":100.0,"ext_available":true}
{"part":"lock","point":"ext off","point_id":"ext_off","kernel":"release","repeat":2,"tool":"lock_table","ops_per_s":120.0,"ext_available":true}
{"part":"lock","point":"ext on, 50 µs","point_id":"ext_on_50","kernel":"release","repeat":1,"tool":"lock_table","ops_per_s":200.0,"ext_available":false}
{"part":"lock","point":"ext on, 50 µs","point_id":"ext_on_50","kernel":"release","repeat":2,"error":"exit 124: "}
{"part":"latency","point":"burst on, wakeup_half_slice 0","point_id":"on_nohalfslice","kernel":"release","skipped":"no /sys/kernel/debug/sliceext/burst/wakeup_half_slice"}
{"part":"latency","point":"burst off","point_id":"off","kernel":"release","repeat":1,"tool":"wakeup_lat","lat_p99_us":500.0,"lat_cdf_us":null}
"""


class OldResults(Tmp):
    def test_read_as_before(self):
        path = self.write("old.jsonl", OLD)
        rc, out, err = self.report(path)
        self.assertEqual(rc, 0, err)
        self.assertIn("- Command: `make bench`", out)
        self.assertRegex(out, r"\| ext on, 50 µs +\| ops/s ↑ +\| 200 +\| "
                         r"200–200 +\| 200–200 +\| ×1\.82 +\| – +\| 1/2 ")
        self.assertIn("ext_available=false in 1 run", out)
        self.assertIn("1 run(s) failed", out)
        self.assertRegex(out, r"burst on, wakeup_half_slice 0 +\| skipped: no "
                         r"/sys/kernel/debug/sliceext/burst/wakeup_half_slice")

    def test_results_md_from_old_results(self):
        path = self.write("old.jsonl", OLD)
        md = os.path.join(self.dir, "results.md")
        rc, _, err = self.report("--results-md", md, path)
        self.assertEqual(rc, 0, err)
        with open(md, encoding="utf-8") as f:
            text = f.read()
        self.assertIn("not recorded (results written before the series was)",
                      text)
        # The configuration comes from the points file.
        self.assertIn("ext on, 50 µs (`on+ext/slice_ext_nsec=50000`)", text)

    def test_old_points_file(self):
        pts = self.write("points", "lock\text_off\tsliceext\t-\tsame\text off\n"
                         "lock\text_on_50\tsliceext\text_off\tsame\text on, 50 µs\n")
        rc, out, err = self.report("--points", pts,
                                   self.write("old.jsonl", OLD))
        self.assertEqual(rc, 0, err)
        self.assertIn("×1.82", out)


class BadInput(Tmp):
    def test_a_malformed_line_is_an_error(self):
        path = self.write("r.jsonl", jl(HOST, boot()) + '{"part": "lock",\n')
        rc, out, err = self.report(path)
        self.assertEqual(rc, 1)
        self.assertIn("%s:3: not JSON" % path, err)
        self.assertEqual(out, "")

    def test_other_bad_lines(self):
        for line, says in (("[1, 2]", "not a JSON object"),
                           ('{"point": "x"}', "neither a meta line"),
                           ('{"part": "lock", "point": "x", "repeat": "1"}',
                            "\"repeat\" is not a number")):
            path = self.write("r.jsonl", jl(HOST) + line + "\n")
            rc, _, err = self.report(path)
            self.assertEqual(rc, 1, line)
            self.assertIn(":2: " + says, err)

    def test_lenient_leaves_it_out(self):
        path = self.write("r.jsonl", jl(HOST, boot(), *latency_runs(
            "burst off", "off", "off", [1])) + "garbage\n")
        rc, out, err = self.report("--lenient", path)
        self.assertEqual(rc, 0)
        self.assertIn(":4: not JSON", err)
        self.assertIn("left out", err)
        self.assertIn("burst off", out)

    def test_missing_file_and_no_results(self):
        rc, _, err = self.report(os.path.join(self.dir, "nope.jsonl"))
        self.assertEqual(rc, 1)
        self.assertIn("nope.jsonl", err)
        rc, _, err = self.report(self.write("empty.jsonl", ""))
        self.assertEqual(rc, 1)
        self.assertIn("no results", err)

    def test_a_bad_points_file(self):
        pts = self.write("points", "lock\tx\n")
        rc, _, err = self.report("--points", pts, self.write("r.jsonl", OLD))
        self.assertEqual(rc, 1)
        self.assertIn("points file", err)


# ---- TAP -----------------------------------------------------------------------

class Tap(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.failed = 0

    @staticmethod
    def name(test):
        return "bench_report_test %s.%s" % (type(test).__name__,
                                            test._testMethodName)

    def addSuccess(self, test):
        print("ok - %s" % self.name(test))

    def addSkip(self, test, reason):
        print("ok - %s # SKIP %s" % (self.name(test), reason))

    def _bad(self, test, err):
        self.failed += 1
        print("not ok - %s" % self.name(test))
        for line in self._exc_info_to_string(err, test).splitlines():
            print("# " + line)

    def addFailure(self, test, err):
        self._bad(test, err)

    def addError(self, test, err):
        self._bad(test, err)


def main():
    suite = unittest.defaultTestLoader.loadTestsFromModule(
        sys.modules[__name__])
    result = Tap()
    suite.run(result)
    sys.stdout.flush()
    return 1 if result.failed else 0


if __name__ == "__main__":
    sys.exit(main())
