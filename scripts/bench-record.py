#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Write the benchmark's JSON lines, and set each point's configuration.

scripts/bench-guest.sh calls it in the guest for every line it writes, so
that no JSON is put together by the shell; scripts/bench.sh calls it once
on the host for the run's first line. The record schema is described at
the top of scripts/bench-report.py, which reads what this writes.

  bench-record.py host --command CMD --top DIR [--kernel-dir LABEL=DIR]...
      the run's "host" line, on stdout
  bench-record.py boot RESULTS --kernel K --mode M --parts P --repeat N
                       --duration S [--set KEY=VALUE]... [--set-json KEY=JSON]...
      the boot's line (uname, CPUs and kernel command line read here)
  bench-record.py module RESULTS --kernel K --version V
  bench-record.py run RESULTS TAGS [--timeout S]
                      [--format json|hackbench|pgbench] [--pgbench-log PREFIX]
                      [--server-log FILE] [--ext-stats FILE] [--quiet] -- CMD...
      run CMD (a tools/bench program with --json; hackbench, whose
      "Time:" line is its only result; or pgbench with --log
      --log-prefix=PREFIX, whose "tps =" line and per-transaction log
      files PREFIX.* are read, and removed, here); one run record, or an
      error record and exit 3. --server-log: PostgreSQL's log, whose
      sessions that enabled the slice extension during the run are
      counted; --ext-stats: sliceext's ext/stats, whose counters' moves
      during the run are recorded
  bench-record.py record RESULTS TAGS --json OBJECT
      a result made elsewhere (scripts/bench-hist.py's)
  bench-record.py skip RESULTS TAGS --why WHY [--what WHAT]
  bench-record.py error RESULTS TAGS --why WHY
  bench-record.py points --kind KIND [--points FILE] [--parts P]
      this kernel's points, "part id placement config label" a line
      (tab-separated), each configuration checked
  bench-record.py count --kind KIND --parts P [--points FILE] [--probe N]
      how many points a boot runs (bench.sh's timeout)
  bench-record.py check-configs CONFIG...
      exit 2 naming the first that does not parse
  bench-record.py probe-points --configs LIST --places LIST [--wakes LIST]
      the probe part's points, "probe id placement config label wake" a
      line (tab-separated): every configuration in every placement, woken
      each way of --wakes (futex, pipe; default both)
  bench-record.py snapshot --kind KIND --state FILE [--root DIR]
  bench-record.py apply --kind KIND --state FILE --part P [--root DIR] CONFIG
      restore the snapshot, then set CONFIG; prints its switch (on, off).
      Exit 4, the reason on stdout, when this kernel cannot run it
  bench-record.py restore --kind KIND --state FILE [--root DIR]

TAGS: --part P --id ID --label LABEL --kernel K [--repeat N]
      [--config C] [--placement PL] [--wake W] [--tag KEY=VALUE]...
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import benchlib  # noqa: E402
# scripts/benchrecord/: one module per concern (its __init__.py lists them).
from benchrecord.formats import hackbench_result, last_object  # noqa: E402
from benchrecord.host_facts import (  # noqa: E402
    cpu_model, first_line, package_version, series_of)
from benchrecord.pgbench import (  # noqa: E402
    file_size, pgbench_result, remove_logs, sessions_enabled)

SCHEMA = 2
TAG_KEYS = ("part", "point", "point_id", "kernel", "repeat", "config",
            "placement", "wake")


def die(msg, status=2):
    print("bench-record: %s" % msg, file=sys.stderr)
    sys.exit(status)


def value_of(text):
    """--tag and --set values: integers as numbers, the rest as strings."""
    return int(text) if re.match(r"^-?[0-9]+$", text) else text


def key_values(pairs, parse=value_of):
    out = {}
    for p in pairs or []:
        k, eq, v = p.partition("=")
        if not eq or not k:
            die("%r is not KEY=VALUE" % p)
        try:
            out[k] = parse(v)
        except ValueError as e:
            die("%s: %s" % (k, e))
    return out


def append(path, obj):
    line = json.dumps(obj, ensure_ascii=False)
    if path == "-":
        print(line)
        return
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        f.write(line + "\n")


def add_tags(ap):
    ap.add_argument("results")
    ap.add_argument("--part", required=True)
    ap.add_argument("--id", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--repeat", type=int)
    ap.add_argument("--config")
    ap.add_argument("--placement")
    ap.add_argument("--wake")
    ap.add_argument("--tag", action="append", default=[])


def tags(a):
    t = {"part": a.part, "point": a.label, "point_id": a.id,
         "kernel": a.kernel}
    if a.repeat is not None:
        t["repeat"] = a.repeat
    if a.config is not None:
        try:
            benchlib.parse_config(a.config)
        except benchlib.ConfigError as e:
            die(str(e))
        t["config"] = a.config
    if a.placement is not None:
        t["placement"] = a.placement
    if a.wake is not None:
        if a.wake not in benchlib.WAKES:
            die(unknown_wake(a.wake))
        t["wake"] = a.wake
    t.update(key_values(a.tag))
    return t


def who(t):
    return t["point"] + (" #%d" % t["repeat"] if "repeat" in t else "")


# ---- host and boot lines ---------------------------------------------------

def cmd_host(a):
    series, npatches = series_of(a.top)
    kernels = {}
    for label, d in key_values(a.kernel_dir, str).items():
        kernels[label] = os.path.basename(os.path.normpath(d))
    append("-", {
        "meta": "host", "schema": SCHEMA, "command": a.command,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cpu": cpu_model(), "host_nproc": os.cpu_count(),
        "qemu": first_line(["qemu-system-x86_64", "--version"]),
        "series_hash": series, "series_patches": npatches,
        "git": first_line(["git", "-C", a.top, "describe", "--always",
                           "--dirty"]),
        "module_version": package_version(a.top),
        "kernels": kernels,
    })


def cmd_boot(a):
    try:
        with open("/proc/cmdline", encoding="utf-8") as f:
            cmdline = f.read().strip()
    except OSError:
        cmdline = None
    rec = {"meta": "boot", "schema": SCHEMA, "kernel": a.kernel,
           "mode": a.mode, "uname": os.uname().release,
           "nproc": len(os.sched_getaffinity(0)), "repeat": a.repeat,
           "duration": a.duration, "parts": a.parts}
    rec.update(key_values(a.set))
    rec.update(key_values(a.set_json, json.loads))
    rec["cmdline"] = cmdline
    append(a.results, rec)


def cmd_module(a):
    append(a.results, {"meta": "module", "kernel": a.kernel,
                       "version": a.version})


# ---- run records -----------------------------------------------------------

def counters(path):
    """The "name value" lines of sliceext's ext/stats, or None."""
    try:
        with open(path, encoding="utf-8") as f:
            pairs = [line.split() for line in f]
    except OSError:
        return None
    return {p[0]: int(p[1]) for p in pairs if len(p) == 2 and
            re.match(r"^[0-9]+$", p[1])}


def tail(out, n=2):
    return " ".join(out.strip().splitlines()[-n:])


def record_run(results, t, result):
    rec = dict(t)
    for k, v in result.items():
        if k not in rec:
            rec[k] = v
    append(results, rec)


def cmd_run(a):
    t = tags(a)
    cmd = a.cmd
    if not cmd:
        die("run: no command after --")
    if a.timeout:
        cmd = ["timeout", "-k", "5", str(a.timeout)] + cmd
    if a.pgbench_log:
        remove_logs(a.pgbench_log)
    log_from = file_size(a.server_log) if a.server_log else None
    stats0 = counters(a.ext_stats) if a.ext_stats else None
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, check=False)
        out, rc = p.stdout.decode("utf-8", "replace"), p.returncode
    except OSError as e:
        out, rc = str(e), 127
    result = None
    if rc == 0:
        if a.format == "hackbench":
            result = hackbench_result(out)
        elif a.format == "pgbench":
            result = pgbench_result(out, a.pgbench_log)
        else:
            result = last_object(out)
    if a.pgbench_log:
        remove_logs(a.pgbench_log)
    if result is not None and log_from is not None:
        result["sessions_enabled"] = sessions_enabled(a.server_log, log_from)
    stats1 = counters(a.ext_stats) if stats0 is not None else None
    if result is not None and stats1 is not None:
        for k, v in stats1.items():
            if k in stats0:
                result.setdefault(k, v - stats0[k])
    if result is None:
        why = "exit %d: %s" % (rc, tail(out)) if rc else \
            "no result in its output: %s" % tail(out)
        if rc == 124:
            why = "exit 124 (timed out after %s s): %s" % (a.timeout,
                                                           tail(out))
        append(a.results, dict(t, error=why))
        print("  %s: FAILED: %s" % (who(t), why))
        return 3
    record_run(a.results, t, result)
    if not a.quiet:
        print("  %s: %s" % (who(t), json.dumps(result)[:300]))
    return 0


def cmd_record(a):
    t = tags(a)
    try:
        result = json.loads(a.json)
    except ValueError as e:
        die("record: --json is not JSON: %s" % e)
    if not isinstance(result, dict):
        die("record: --json is not a JSON object")
    record_run(a.results, t, result)
    print("  %s: %s" % (who(t), json.dumps(result)[:300]))
    return 0


def cmd_skip(a):
    t = tags(a)
    rec = dict(t, skipped=a.why)
    if a.what:
        rec["what"] = a.what
    append(a.results, rec)
    print("  %s%s: skipped: %s" % (t["point"],
                                   " (%s)" % a.what if a.what else "", a.why))
    return 0


def cmd_error(a):
    t = tags(a)
    append(a.results, dict(t, error=a.why))
    print("  %s: FAILED: %s" % (who(t), a.why))
    return 0


# ---- points and configurations ---------------------------------------------

def points_of(a):
    try:
        return benchlib.load_points(a.points)
    except (OSError, ValueError) as e:
        die(str(e))


def cmd_points(a):
    parts = set(a.parts.split(",")) if a.parts else None
    for part, pts in points_of(a).items():
        if parts is not None and part not in parts:
            continue
        for p in pts:
            if p.kernel != a.kind:
                continue
            if p.config is None:
                die("%s/%s: the points file gives no configuration"
                    % (part, p.id))
            print("\t".join((part, p.id, p.placement, p.config, p.label)))
    return 0


def cmd_count(a):
    """The points a boot of KIND runs for PARTS; the lock part brings its
    histogram runs, the probe its N."""
    parts = a.parts.split(",")
    n = 0
    for part, pts in points_of(a).items():
        if part in parts or (part == "hist" and "lock" in parts):
            n += sum(1 for p in pts if p.kernel == a.kind)
    if "probe" in parts:
        n += a.probe
    print(n)
    return 0


def cmd_check_configs(a):
    for c in a.configs:
        try:
            cfg = benchlib.parse_config(c)
        except benchlib.ConfigError as e:
            die(str(e))
        if cfg is None:
            die("'-' (no module) is not a configuration to run")
    return 0


def split_list(text):
    return [w for w in re.split(r"[\s,]+", text or "") if w]


def unknown_wake(wake):
    return "unknown wake %r (%s)" % (wake, ", ".join(benchlib.WAKES))


def cmd_probe_points(a):
    configs, places = split_list(a.configs), split_list(a.places)
    wakes = split_list(a.wakes)
    if not configs:
        die("no probe configurations")
    if not places:
        die("no probe placements")
    if not wakes:
        die("no probe wakes (%s)" % ", ".join(benchlib.WAKES))
    for c in configs:
        try:
            if benchlib.parse_config(c) is None:
                raise benchlib.ConfigError("'-' is not a probe configuration")
        except benchlib.ConfigError as e:
            die(str(e))
    if len(set(configs)) != len(configs):
        die("a probe configuration is given twice: %s" % " ".join(configs))
    for pl in places:
        if pl not in benchlib.PLACEMENTS or pl == "-":
            die("unknown placement %r (same, autogroup, cgroup)" % pl)
    for w in wakes:
        if w not in benchlib.WAKES:
            die(unknown_wake(w))
    if len(set(wakes)) != len(wakes):
        die("a probe wake is given twice: %s" % " ".join(wakes))
    for pl in places:
        for w in wakes:
            for c in configs:
                print("\t".join(("probe", benchlib.probe_id(c, pl, w), pl,
                                 c, benchlib.probe_label(c, pl, w), w)))
    return 0


def kernel_of(a):
    try:
        return benchlib.Kernel(a.kind, a.root)
    except ValueError as e:
        die(str(e))


def load_state(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        die("no snapshot in %s (%s): run bench-record.py snapshot first"
            % (path, e))


def cmd_snapshot(a):
    benchlib.save_json(a.state, kernel_of(a).snapshot())
    return 0


def cmd_restore(a):
    for w in kernel_of(a).restore(load_state(a.state)):
        print("  warning: %s" % w, file=sys.stderr)
    return 0


def cmd_apply(a):
    try:
        cfg = benchlib.parse_config(a.config)
    except benchlib.ConfigError as e:
        die(str(e))
    k, snap = kernel_of(a), load_state(a.state)
    try:
        warnings = k.restore(snap) if cfg is None else \
            k.apply(cfg, a.part, snap)
    except benchlib.Missing as e:
        print(e)
        return 4
    for w in warnings:
        print("  warning: %s" % w, file=sys.stderr)
    print(cfg.switch if cfg else "-")
    return 0


def main(argv):
    ap = argparse.ArgumentParser(
        prog="bench-record.py", description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[7:]))
    sub = ap.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("host")
    s.add_argument("--command", required=True)
    s.add_argument("--top", default=os.path.dirname(HERE))
    s.add_argument("--kernel-dir", action="append", default=[])
    s.set_defaults(fn=cmd_host)

    s = sub.add_parser("boot")
    s.add_argument("results")
    s.add_argument("--kernel", required=True)
    s.add_argument("--mode", required=True)
    s.add_argument("--parts", required=True)
    s.add_argument("--repeat", type=int, required=True)
    s.add_argument("--duration", type=int, required=True)
    s.add_argument("--set", action="append", default=[])
    s.add_argument("--set-json", action="append", default=[])
    s.set_defaults(fn=cmd_boot)

    s = sub.add_parser("module")
    s.add_argument("results")
    s.add_argument("--kernel", required=True)
    s.add_argument("--version", required=True)
    s.set_defaults(fn=cmd_module)

    s = sub.add_parser("run")
    add_tags(s)
    s.add_argument("--timeout", type=int)
    s.add_argument("--format", choices=("json", "hackbench", "pgbench"),
                   default="json")
    s.add_argument("--pgbench-log", metavar="PREFIX")
    s.add_argument("--server-log", metavar="FILE")
    s.add_argument("--ext-stats", metavar="FILE")
    s.add_argument("--quiet", action="store_true")
    s.set_defaults(fn=cmd_run)

    s = sub.add_parser("record")
    add_tags(s)
    s.add_argument("--json", required=True)
    s.set_defaults(fn=cmd_record)

    s = sub.add_parser("skip")
    add_tags(s)
    s.add_argument("--why", required=True)
    s.add_argument("--what")
    s.set_defaults(fn=cmd_skip)

    s = sub.add_parser("error")
    add_tags(s)
    s.add_argument("--why", required=True)
    s.set_defaults(fn=cmd_error)

    points = os.path.join(HERE, "bench-points")
    s = sub.add_parser("points")
    s.add_argument("--kind", required=True, choices=benchlib.KINDS)
    s.add_argument("--parts")
    s.add_argument("--points", default=points)
    s.set_defaults(fn=cmd_points)

    s = sub.add_parser("count")
    s.add_argument("--kind", required=True, choices=benchlib.KINDS)
    s.add_argument("--parts", required=True)
    s.add_argument("--probe", type=int, default=0)
    s.add_argument("--points", default=points)
    s.set_defaults(fn=cmd_count)

    s = sub.add_parser("check-configs")
    s.add_argument("configs", nargs="+")
    s.set_defaults(fn=cmd_check_configs)

    s = sub.add_parser("probe-points")
    s.add_argument("--configs", required=True)
    s.add_argument("--places", required=True)
    s.add_argument("--wakes", default=" ".join(benchlib.WAKES))
    s.set_defaults(fn=cmd_probe_points)

    for name, fn in (("snapshot", cmd_snapshot), ("restore", cmd_restore),
                     ("apply", cmd_apply)):
        s = sub.add_parser(name)
        s.add_argument("--kind", required=True, choices=benchlib.KINDS)
        s.add_argument("--state", required=True)
        s.add_argument("--root", default="/")
        if name == "apply":
            s.add_argument("--part", required=True)
            s.add_argument("config")
        s.set_defaults(fn=fn)

    # What follows "--" is the command to run, options and all.
    args, cmd = argv[1:], []
    if "--" in args:
        i = args.index("--")
        args, cmd = args[:i], args[i + 1:]
        if args[:1] != ["run"]:
            # apply's CONFIG may follow "--" too.
            args, cmd = args + cmd, []
    a = ap.parse_args(args)
    a.cmd = cmd
    return a.fn(a) or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
