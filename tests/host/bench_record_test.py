#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/bench-record.py: the records it writes around a
run (a tool's JSON, hackbench's time, pgbench's log), skip, error and
record lines, the host and boot lines, the probe's points and a boot's
point count.

Run by tests/host/bench-report.sh, a TAP line per test
(tests/host/bench_testlib.py).
"""

import glob
import json
import os
import subprocess
import sys

from bench_testlib import POINTS, RECORD, TOP, Tmp, main

import benchlib


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

    def test_the_wake_tag(self):
        out = os.path.join(self.dir, "r.jsonl")
        tags = self.TAGS[:8] + ["--config", "on", "--placement", "same"]
        p = self.rec("skip", out, *tags, "--wake", "pipe", "--why", "w")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.lines(out)[0]["wake"], "pipe")
        p = self.rec("skip", out, *tags, "--wake", "foo", "--why", "w")
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown wake 'foo' (futex, pipe)", p.stderr)
        self.assertEqual(len(self.lines(out)), 1)

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
                     "--places", "same cgroup", "--wakes", "futex")
        rows = [line.split("\t") for line in p.stdout.splitlines()]
        self.assertEqual(len(rows), 4)
        self.assertEqual(rows[1], ["probe", "same:on+burst/smoothness=2",
                                   "same", "on+burst/smoothness=2",
                                   "on+burst/smoothness=2, hogs in its "
                                   "session", "futex"])
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

    def test_probe_points_of_both_wakes(self):
        """bench.sh's default, --wakes futex,pipe: the futex rows as they
        always were, each pipe row beside them with the wake added."""
        p = self.rec("probe-points", "--configs", "off,on", "--places",
                     "same,cgroup", "--wakes", "futex,pipe")
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = [line.split("\t") for line in p.stdout.splitlines()]
        self.assertEqual(rows, [
            ["probe", "same:off", "same", "off",
             "off, hogs in its session", "futex"],
            ["probe", "same:on", "same", "on",
             "on, hogs in its session", "futex"],
            ["probe", "same:off:pipe", "same", "off",
             "off, hogs in its session, pipe-woken", "pipe"],
            ["probe", "same:on:pipe", "same", "on",
             "on, hogs in its session, pipe-woken", "pipe"],
            ["probe", "cgroup:off", "cgroup", "off",
             "off, hogs in another cpu cgroup", "futex"],
            ["probe", "cgroup:on", "cgroup", "on",
             "on, hogs in another cpu cgroup", "futex"],
            ["probe", "cgroup:off:pipe", "cgroup", "off",
             "off, hogs in another cpu cgroup, pipe-woken", "pipe"],
            ["probe", "cgroup:on:pipe", "cgroup", "on",
             "on, hogs in another cpu cgroup, pipe-woken", "pipe"]])
        # Without --wakes, every wake, as bench.sh's default.
        q = self.rec("probe-points", "--configs", "off,on", "--places",
                     "same,cgroup")
        self.assertEqual(q.stdout, p.stdout)
        p = self.rec("probe-points", "--configs", "off", "--places", "same",
                     "--wakes", "pipe")
        self.assertEqual(p.stdout, "probe\tsame:off:pipe\tsame\toff\t"
                         "off, hogs in its session, pipe-woken\tpipe\n")

    def test_probe_points_refuse_a_bad_wake(self):
        for wakes, says in (("bad", "unknown wake 'bad' (futex, pipe)"),
                            ("futex,Pipe", "unknown wake 'Pipe'"),
                            ("pipe pipe", "given twice"),
                            ("", "no probe wakes"), (",", "no probe wakes")):
            p = self.rec("probe-points", "--configs", "off", "--places",
                         "same", "--wakes", wakes)
            self.assertEqual(p.returncode, 2, wakes)
            self.assertIn(says, p.stderr, wakes)
            self.assertEqual(p.stdout, "", wakes)


if __name__ == "__main__":
    sys.exit(main(__name__))
