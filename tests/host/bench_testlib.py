# SPDX-License-Identifier: GPL-2.0
"""What the unit tests of the benchmark pipeline's Python share: paths,
made-up records (HOST, boot(), run(), latency_runs()), a test case with a
temporary directory (Tmp) that runs scripts/bench-report.py in-process,
and the TAP runner each tests/host/bench*_test.py ends with.

Each test file prints one TAP line per test ("ok - FILE Class.test" or
"not ok - ..." with "# " diagnostics) and exits 1 if any failed;
tests/host/bench-report.sh runs them all.
"""

import contextlib
import importlib.util
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SCRIPTS = os.path.join(TOP, "scripts")
sys.path.insert(0, SCRIPTS)
from benchreport.results import Results, load_points  # noqa: E402


def load_script(name, path):
    """A script whose name is no module name (bench-report.py), loaded."""
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
        return Results([self.write(name, jl(*lines))], load_points(POINTS))


def latency_runs(label, pid, config, values, boot_parts=None, placement="same"):
    return [run("latency", pid, label, i + 1, config, placement,
                lat_p99_us=v, lat_p50_us=v / 2)
            for i, v in enumerate(values)]


# ---- TAP -----------------------------------------------------------------------

class Tap(unittest.TestResult):
    def __init__(self, prefix):
        super().__init__()
        self.prefix = prefix
        self.failed = 0

    def name(self, test):
        return "%s %s.%s" % (self.prefix, type(test).__name__,
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


def main(name):
    """Run the tests of module NAME (a test file's __name__), TAP lines
    named after its file: 0 if all passed, else 1."""
    mod = sys.modules[name]
    suite = unittest.defaultTestLoader.loadTestsFromModule(mod)
    result = Tap(os.path.splitext(os.path.basename(mod.__file__))[0])
    suite.run(result)
    sys.stdout.flush()
    return 1 if result.failed else 0
