# SPDX-License-Identifier: GPL-2.0
"""Reading results.jsonl files (the record schema is at the top of
scripts/bench-report.py): each point's runs pooled over every boot and
file, the boots and hosts they came from, and each row's base."""

import json
import statistics
import sys

import benchlib

from .parts import ORDER
from .stats import Stats, number, rank_test

TAGS = {"part", "point", "point_id", "repeat", "kernel", "tool", "skipped",
        "error", "what", "config", "placement", "position", "wake"}
# How each boot's mode reads (scripts/vm.sh).
MODES = {"tcg": "multi-threaded TCG", "icount": "icount"}


class InputError(Exception):
    """Input that is not what bench.sh writes: the message names where."""


def load_points(path):
    """part -> [benchlib.Point] in file order."""
    try:
        return benchlib.load_points(path)
    except (OSError, ValueError) as e:
        raise InputError("points file: %s" % e)


class Point:
    def __init__(self, part, name):
        self.part, self.name = part, name
        self.samples = {}       # metric -> [(boot, value)]
        self.kernels = []
        self.boots = set()
        # wake: the probe's (its records' tag, or wakeup_lat's own
        # "wake"); None in results from before it had one.
        self.id = self.config = self.placement = self.wake = None
        # A run is one repeat in one boot, of one tool or several (the
        # overhead part runs several per repeat): ok if none failed.
        self.runs, self.runs_failed = set(), set()
        self.records = 0
        self.errors = []
        self.skipped = []       # (what, why)
        self.raw = []

    @property
    def values(self):
        return {m: [v for _, v in s] for m, s in self.samples.items()}

    def stats(self, metric):
        s = self.samples.get(metric)
        return Stats(s) if s else None

    def median(self, metric):
        s = self.samples.get(metric)
        return statistics.median(v for _, v in s) if s else None

    def add(self, rec, boot):
        k = rec.get("kernel", "?")
        if k not in self.kernels:
            self.kernels.append(k)
        for attr, key in (("id", "point_id"), ("config", "config"),
                          ("placement", "placement"), ("wake", "wake")):
            if getattr(self, attr) is None and rec.get(key) is not None:
                setattr(self, attr, rec[key])
        if "skipped" in rec:
            self.skipped.append((rec.get("what"), rec["skipped"]))
            return
        self.boots.add(boot)
        # Without a repeat number, every record is a run of its own.
        self.records += 1
        run = (boot, k, rec.get("repeat", ("record", self.records)))
        self.runs.add(run)
        if "error" in rec:
            self.errors.append(rec["error"])
            self.runs_failed.add(run)
            return
        self.raw.append(rec)
        for key, v in rec.items():
            if key not in TAGS and number(v):
                self.samples.setdefault(key, []).append((boot, float(v)))


def load(files, lenient=False):
    """(metas, points, order): metas in file order, each boot meta with
    "_boot" (its index) and "_host" (the host meta of its run or None)."""
    metas, points, order = [], {}, []
    nboots = 0

    def bad(path, n, why):
        msg = "%s:%d: %s" % (path, n, why)
        if not lenient:
            raise InputError(msg)
        print("bench-report: %s; left out" % msg, file=sys.stderr)

    for path in files:
        host = None
        boot = None
        try:
            f = open(path, encoding="utf-8")
        except OSError as e:
            raise InputError("%s: %s" % (path, e.strerror or e))
        with f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    rec = json.loads(line)
                except ValueError as e:
                    bad(path, n, "not JSON (%s): %s" % (e, line[:80]))
                    continue
                if not isinstance(rec, dict):
                    bad(path, n, "not a JSON object: %s" % line[:80])
                    continue
                if "meta" in rec:
                    if rec["meta"] == "host":
                        host = rec
                    elif rec["meta"] == "boot":
                        rec["_boot"] = boot = nboots
                        rec["_host"] = host
                        nboots += 1
                    metas.append(rec)
                    continue
                if not isinstance(rec.get("part"), str) or \
                        not isinstance(rec.get("point"), str):
                    bad(path, n, "neither a meta line nor a record with "
                        "\"part\" and \"point\": %s" % line[:80])
                    continue
                if "repeat" in rec and not isinstance(rec["repeat"], int):
                    bad(path, n, "\"repeat\" is not a number: %s"
                        % line[:80])
                    continue
                key = (rec["part"], rec["point"])
                if key not in points:
                    points[key] = Point(*key)
                    order.append(key)
                # Records before any boot line: a boot of their own.
                points[key].add(rec, boot if boot is not None else
                                ("file", path))
    return metas, points, order


class Results:
    """The runs, the points file and the boots, and what follows from them."""

    def __init__(self, files, defs, lenient=False):
        self.metas, self.points, self.order = load(files, lenient)
        self.defs = defs
        self.boots = [m for m in self.metas if m.get("meta") == "boot"]
        self.hosts = [m for m in self.metas if m.get("meta") == "host"]
        self.host = self.hosts[0] if self.hosts else {}
        self.modules = [m for m in self.metas if m.get("meta") == "module"]

    def defn(self, part, name):
        return next((d for d in self.defs.get(part, []) if d.label == name),
                    None)

    def label(self, part, pid):
        d = next((d for d in self.defs.get(part, []) if d.id == pid), None)
        return d.label if d else None

    def config_of(self, p):
        if p.config is not None:
            return p.config
        d = self.defn(p.part, p.name)
        return d.config if d else None

    @staticmethod
    def wake_of(p):
        """How the probe point P's worker was woken: futex for results
        from before the probe had a wake."""
        return p.wake or benchlib.FIRST_WAKE

    def probe_rows(self, placement, wake):
        """The probe's points of PLACEMENT and WAKE, in order."""
        return [self.points[k] for k in self.order if k[0] == "probe" and
                self.points[k].placement == placement and
                self.wake_of(self.points[k]) == wake]

    def probe_base_config(self, placement, wake=benchlib.FIRST_WAKE):
        """The probe's base in PLACEMENT and WAKE: "off" if it ran, else
        the first configuration the boot was given, else the first row
        seen."""
        rows = self.probe_rows(placement, wake)
        configs = [p.config for p in rows]
        if "off" in configs:
            return "off"
        for b in self.boots:
            for c in (b.get("probe_configs") or "").replace(",", " ").split():
                if c in configs:
                    return c
        return configs[0] if configs else None

    def base_of(self, part, name):
        """The row's base Point, itself if it is one, or None."""
        me = self.points.get((part, name))
        d = self.defn(part, name)
        if d is None:
            if part != "probe" or me is None or me.config is None:
                return None
            wake = self.wake_of(me)
            c = self.probe_base_config(me.placement, wake)
            return next((p for p in self.probe_rows(me.placement, wake)
                         if p.config == c), None)
        for alt in d.base.split("|"):
            if alt == "-":
                return me
            p = self.points.get((part, self.label(part, alt)))
            if p and p.samples:
                return p
        return None

    def parts(self):
        present = {p for p, _ in self.order}
        return [p for p in ORDER if p in present] + \
            sorted(present - set(ORDER) - {"hist"})

    def rows(self, part):
        known = [d.label for d in self.defs.get(part, [])]
        keys = [k for k in self.order if k[0] == part]
        return sorted(keys, key=lambda k: known.index(k[1]) if k[1] in known
                      else len(known) + keys.index(k))

    def boots_of(self, part):
        """The boots that gave this part's rows."""
        runs_in = "lock" if part == "hist" else part
        kernels = {k for key in self.rows(part)
                   for k in self.points[key].kernels}
        return [b for b in self.boots
                if runs_in in str(b.get("parts", "")).split(",") and
                b.get("kernel") in kernels]

    def modes(self, part):
        out = []
        for b in self.boots_of(part):
            m = MODES.get(b.get("mode", "tcg"), b.get("mode"))
            if m not in out:
                out.append(m)
        return out

    def boot_of(self, part):
        runs_in = "lock" if part == "hist" else part
        return next((b for b in self.boots
                     if runs_in in str(b.get("parts", "")).split(",")), None)

    def test(self, p, base, metric):
        """p value of P's runs against BASE's for METRIC, or None."""
        if base is None or base is p:
            return None
        a, b = p.samples.get(metric), base.samples.get(metric)
        if not a or not b:
            return None
        return rank_test([v for _, v in a], [v for _, v in b])
