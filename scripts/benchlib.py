# SPDX-License-Identifier: GPL-2.0
"""What the benchmark scripts share: configuration strings, the points
file, and applying a configuration to a running kernel.

Used by scripts/bench-record.py (in the guest, and on the host for the
run's first line) and scripts/bench-report.py. Python 3.9 or later, the
standard library only.

Configurations are written one way everywhere (scripts/bench-points, the
--configs of scripts/bench.sh, the "config" of every result):

    CONFIG  := SWITCH ( "+" KNOB "=" VALUE )*   |   "-"
    SWITCH  := "off" | "on"
    KNOB    := "burst/" NAME | "ext/" NAME      sliceext's debugfs file,
                                                /sys/kernel/debug/sliceext/KNOB
             | "sched/" NAME                    the scheduler's debugfs file,
                                                /sys/kernel/debug/sched/NAME
    VALUE   := letters, digits, "_", ".", "-"

e.g. "off", "on", "on+burst/penalty_scale=40",
"on+ext/slice_ext_nsec=50000+sched/features=HRTICK". "-" is a point that
runs without the module (the overhead part's stock and unloaded rows).

The switch turns what the part measures: the slice extension for the
lock, hist and postgres parts (the clients ask for it: lock_table --ext,
the preload library, or PostgreSQL's slice_extension setting; burst
scheduling stays off there), burst scheduling for the others (sliceext's
burst/enabled, or a BORE kernel's sched_bore sysctl).
"sched/features=NAME" or "=NO_NAME" sets one scheduler feature and may
be given more than once; any other knob at most once. On mainline 7.3,
ext/slice_ext_nsec is its /sys/kernel/debug/rseq/slice_ext_nsec. Every
point starts from the values the knobs had when the boot's snapshot was
taken (after the module loaded), so a setting lasts for its own point
only.
"""

import json
import os
import re

SWITCHES = ("off", "on")
EXT_PARTS = ("lock", "hist", "postgres")
KINDS = ("sliceext", "mainline", "stock", "bore")
PLACEMENTS = ("same", "autogroup", "cgroup", "-")
# How a placement reads in a row's label (the probe's generated rows).
PLACE_WORDS = {
    "same": "hogs in its session",
    "autogroup": "hogs in another autogroup",
    "cgroup": "hogs in another cpu cgroup",
    "-": "alone",
}
# How the probe's message thread wakes its worker (wakeup_lat --wake), and
# the prefix of the worker's metrics in wakeup_lat's results for each
# (tools/bench/wakeup_lat.c: lat_p99_us, pipe_p99_us). The first, futex,
# is the probe as it was before the others joined it: its points keep the
# ids and labels they had, and its tool runs without --wake.
WAKES = {"futex": "lat", "pipe": "pipe"}
FIRST_WAKE = next(iter(WAKES))

_KNOB = re.compile(r"^(burst|ext|sched)/[a-z0-9_]+$")
_VALUE = re.compile(r"^[A-Za-z0-9_.-]+$")
_FEATURE = re.compile(r"^(NO_)?[A-Z][A-Z0-9_]*$")


class ConfigError(ValueError):
    """A configuration string that does not parse."""


class Config:
    """A parsed configuration: switch "on" or "off", and settings, a list
    of (knob, value) in the order given. str() gives the string back."""

    def __init__(self, switch, settings):
        self.switch, self.settings = switch, list(settings)

    @property
    def on(self):
        return self.switch == "on"

    def __str__(self):
        return "+".join([self.switch] +
                        ["%s=%s" % kv for kv in self.settings])

    def __repr__(self):
        return "Config(%r)" % str(self)

    def __eq__(self, other):
        return isinstance(other, Config) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


def parse_config(text):
    """CONFIG as above -> Config, or None for "-". ConfigError says
    what is wrong."""
    if not isinstance(text, str):
        raise ConfigError("a configuration is a string, not %r" % (text,))
    s = text.strip()
    if s == "-":
        return None
    if not s:
        raise ConfigError("empty configuration (off, on, or "
                          "on+KNOB=VALUE)")
    parts = s.split("+")
    switch = parts[0]
    if switch not in SWITCHES:
        raise ConfigError("%r: starts with %r, not off or on (write "
                          "on+KNOB=VALUE, e.g. on+burst/penalty_scale=40)"
                          % (text, switch))
    settings, seen = [], set()
    for p in parts[1:]:
        knob, eq, value = p.partition("=")
        if not eq or not knob or not value:
            raise ConfigError("%r: %r is not KNOB=VALUE" % (text, p))
        if not _KNOB.match(knob):
            raise ConfigError("%r: knob %r is not burst/NAME, ext/NAME or "
                              "sched/NAME" % (text, knob))
        if not _VALUE.match(value):
            raise ConfigError("%r: value %r of %s: letters, digits, _ . -"
                              % (text, value, knob))
        if knob == "sched/features":
            if not _FEATURE.match(value):
                raise ConfigError("%r: %r is not a scheduler feature "
                                  "(NAME or NO_NAME)" % (text, value))
        elif knob in seen:
            raise ConfigError("%r: %s set twice" % (text, knob))
        seen.add(knob)
        settings.append((knob, value))
    return Config(switch, settings)


# ---- the points file -------------------------------------------------------

class Point:
    """One line of scripts/bench-points."""

    def __init__(self, part, pid, kernel, base, placement, config, label):
        self.part, self.id, self.kernel = part, pid, kernel
        self.base, self.placement, self.label = base, placement, label
        self.config = config    # the string; None: not given (old file)

    def __repr__(self):
        return "Point(%s/%s)" % (self.part, self.id)


def load_points(path):
    """part -> [Point] in file order. Lines of seven tab-separated fields
    (part, id, kernel, base, placement, config, label), or six without the
    config (the file before configurations were written in it). Raises
    ValueError naming the line for anything else."""
    points = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 7:
                part, pid, kernel, base, place, config, label = fields
                try:
                    parse_config(config)
                except ConfigError as e:
                    raise ValueError("%s:%d: %s" % (path, n, e))
            elif len(fields) == 6:
                part, pid, kernel, base, place, label = fields
                config = None
            else:
                raise ValueError("%s:%d: %d fields, not 7 (part, id, kernel, "
                                 "base, placement, config, label)"
                                 % (path, n, len(fields)))
            if kernel not in KINDS:
                raise ValueError("%s:%d: kernel %r is not one of %s"
                                 % (path, n, kernel, ", ".join(KINDS)))
            if place not in PLACEMENTS:
                raise ValueError("%s:%d: placement %r is not one of %s"
                                 % (path, n, place, ", ".join(PLACEMENTS)))
            points.setdefault(part, []).append(
                Point(part, pid, kernel, base, place, config, label))
    return points


def probe_id(config, placement, wake=FIRST_WAKE):
    """The id of a probe row: "PLACEMENT:CONFIG", then ":WAKE" unless it
    is the first wake (futex), whose ids are those it always had."""
    pid = "%s:%s" % (placement, config)
    return pid if wake == FIRST_WAKE else "%s:%s" % (pid, wake)


def probe_label(config, placement, wake=FIRST_WAKE):
    """The label of a probe row: its configuration and where the hogs ran,
    then how its worker is woken unless through a futex (the first wake,
    whose labels are those it always had)."""
    label = "%s, %s" % (config, PLACE_WORDS.get(placement, placement))
    return label if wake == FIRST_WAKE else "%s, %s-woken" % (label, wake)


def wake_metric(key, wake):
    """wakeup_lat's name for the worker metric KEY (a futex one: samples,
    lat_*) when woken by WAKE: pipe_samples, pipe_*. Other keys (timer_*)
    are the same for every wake."""
    prefix = WAKES[wake]
    if key == "samples":
        return key if wake == FIRST_WAKE else "%s_samples" % prefix
    if key.startswith("lat_"):
        return "%s_%s" % (prefix, key[len("lat_"):])
    return key


# ---- applying a configuration ----------------------------------------------

class Missing(Exception):
    """This kernel cannot run the configuration: the point is skipped."""


class Kernel:
    """The files a configuration writes, under ROOT ("/" in the guest, a
    made-up tree in the tests). KIND: sliceext, mainline, stock or bore."""

    def __init__(self, kind, root="/"):
        if kind not in KINDS:
            raise ValueError("kind %r is not one of %s" % (kind,
                                                           ", ".join(KINDS)))
        self.kind, self.root = kind, root
        dbg = os.path.join(root, "sys/kernel/debug")
        self.sliceext = os.path.join(dbg, "sliceext")
        self.sched = os.path.join(dbg, "sched")
        self.features = os.path.join(self.sched, "features")
        self.ml_knob = os.path.join(dbg, "rseq/slice_ext_nsec")
        self.bore = os.path.join(root, "proc/sys/kernel/sched_bore")

    # -- paths

    def knob_path(self, knob):
        """The file of a burst/, ext/ or sched/ knob on this kernel, or
        Missing with the reason."""
        top, name = knob.split("/", 1)
        if top == "sched":
            return os.path.join(self.sched, name)
        if self.kind == "mainline" and knob == "ext/slice_ext_nsec":
            return self.ml_knob
        if self.kind != "sliceext":
            raise Missing("%s: no sliceext knob on this kernel (%s)"
                          % (knob, self.kind))
        return os.path.join(self.sliceext, knob)

    # -- reading and writing

    @staticmethod
    def read(path):
        with open(path, encoding="utf-8") as f:
            return f.read().strip()

    def write(self, path, value):
        """Write VALUE unless the file holds it already (BORE's kernel shows
        its base slice read-only: only a change may be written)."""
        if not os.path.exists(path):
            raise Missing("no %s" % self.guest_path(path))
        try:
            if self.read(path) == str(value):
                return
        except OSError:
            pass
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write("%s\n" % value)
        except OSError as e:
            raise Missing("could not write %s to %s: %s"
                          % (value, self.guest_path(path), e.strerror or e))

    def guest_path(self, path):
        """PATH as the guest names it (without the test's root)."""
        rel = os.path.relpath(path, self.root)
        return "/" + rel if not rel.startswith("..") else path

    def feature_states(self):
        """Scheduler feature name -> "NAME" or "NO_NAME"; {} without the
        file."""
        try:
            words = self.read(self.features).split()
        except OSError:
            return {}
        return {w[3:] if w.startswith("NO_") else w: w for w in words}

    def set_feature(self, word):
        if not os.path.exists(self.features):
            raise Missing("no %s" % self.guest_path(self.features))
        name = word[3:] if word.startswith("NO_") else word
        states = self.feature_states()
        if name not in states:
            raise Missing("no scheduler feature %s on this kernel" % name)
        if states[name] == word:
            return
        try:
            with open(self.features, "w", encoding="utf-8") as f:
                f.write(word + "\n")
        except OSError as e:
            raise Missing("could not write %s to %s: %s" % (
                word, self.guest_path(self.features), e.strerror or e))

    # -- the snapshot every point starts from

    def snapshot(self):
        """The knobs a configuration may change, as they are now: a dict
        to save as JSON and give back to apply() and restore(). Knobs are
        keyed by their path under the root."""
        paths = []
        if self.kind == "sliceext":
            for d in ("burst", "ext"):
                top = os.path.join(self.sliceext, d)
                names = sorted(os.listdir(top)) if os.path.isdir(top) else []
                paths += [os.path.join(top, n) for n in names]
        paths += [self.ml_knob, self.bore,
                  os.path.join(self.sched, "base_slice_ns")]
        knobs = {}
        for path in paths:
            if not os.path.isfile(path) or not os.stat(path).st_mode & 0o222:
                continue
            try:
                v = self.read(path)
            except OSError:
                continue
            if re.match(r"^-?[0-9]+$", v):
                knobs[os.path.relpath(path, self.root)] = v
        return {"kind": self.kind, "knobs": knobs,
                "features": self.feature_states()}

    def restore(self, snap, keep=(), keep_features=()):
        """Back to SNAP, writing only what changed, except the paths in
        KEEP and the features in KEEP_FEATURES (which a configuration is
        about to set); what cannot be written is returned as warnings."""
        warnings = []
        for key, v in snap.get("knobs", {}).items():
            path = os.path.join(self.root, key)
            if path in keep:
                continue
            try:
                self.write(path, v)
            except Missing as e:
                warnings.append(str(e))
        now = self.feature_states()
        for name, word in snap.get("features", {}).items():
            if name in keep_features or now.get(name, word) == word:
                continue
            try:
                self.set_feature(word)
            except Missing as e:
                warnings.append(str(e))
        return warnings

    # -- a configuration

    def need(self, path, why=None):
        if not os.path.exists(path):
            raise Missing(why or "no %s" % self.guest_path(path))
        return path

    def plan(self, config, part):
        """What CONFIG (a Config) writes for a point of PART: ([(path,
        value)], [feature word]). Missing if this kernel cannot run it;
        nothing is written."""
        writes, features = [], []
        burst = os.path.join(self.sliceext, "burst/enabled")
        on = config.on and part not in EXT_PARTS
        # Burst scheduling: on or off as the switch says, off in the
        # parts whose switch is the extension.
        if self.kind == "bore":
            if on or os.path.exists(self.bore):
                writes.append((self.need(
                    self.bore, "no %s on this kernel (bore)"
                    % self.guest_path(self.bore)), int(on)))
        elif self.kind == "sliceext":
            if on or os.path.exists(burst):
                writes.append((self.need(burst), int(on)))
        elif on:
            raise Missing("this kernel (%s) has no burst scheduling"
                          % self.kind)
        # The extension, for clients that ask.
        if config.on and part in EXT_PARTS:
            if self.kind == "mainline":
                self.need(self.ml_knob, "no %s (CONFIG_RSEQ_SLICE_EXTENSION,"
                          " debugfs)" % self.guest_path(self.ml_knob))
            elif self.kind == "sliceext":
                for f in ("ext/slice_ext_nsec", "ext/hist", "ext/stats"):
                    self.need(os.path.join(self.sliceext, f))
                writes.append((self.need(
                    os.path.join(self.sliceext, "ext/enabled")), 1))
            else:
                raise Missing("this kernel (%s) has no slice extension"
                              % self.kind)
        for knob, value in config.settings:
            if knob == "sched/features":
                self.need(self.features)
                name = value[3:] if value.startswith("NO_") else value
                if name not in self.feature_states():
                    raise Missing("no scheduler feature %s on this kernel"
                                  % name)
                features.append(value)
                continue
            path = self.need(self.knob_path(knob))
            writes = [(p, v) for p, v in writes if p != path]
            writes.append((path, value))
        return writes, features

    def apply(self, config, part, snap=None):
        """Set CONFIG for a point of PART, from SNAP (snapshot()'s) for
        every knob it does not set. Missing if this kernel cannot run it,
        before anything is written; warnings from the restore returned."""
        writes, features = self.plan(config, part)
        warnings = []
        if snap is not None:
            warnings = self.restore(
                snap, keep={p for p, _ in writes},
                keep_features={w[3:] if w.startswith("NO_") else w
                               for w in features})
        for path, value in writes:
            self.write(path, value)
        for word in features:
            self.set_feature(word)
        return warnings


def save_json(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(obj, f)
    os.replace(tmp, path)
