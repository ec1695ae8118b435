#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/bench-report.py's command line: the postgres
part's rows, ratios and warnings, results written before the probe
joined make bench, and bad input.

Run by tests/host/bench-report.sh, a TAP line per test
(tests/host/bench_testlib.py).
"""

import os
import re
import sys

from bench_testlib import HOST, Tmp, boot, jl, latency_runs, main, run


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


if __name__ == "__main__":
    sys.exit(main(__name__))
