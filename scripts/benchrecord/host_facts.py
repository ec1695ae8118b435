# SPDX-License-Identifier: GPL-2.0
"""What the host and boot lines say about the machine and the checkout:
a command's first line of output (qemu-system-x86_64 --version, git
describe), the CPU model, the core series' hash and length, and the
module's version."""

import hashlib
import os
import re
import subprocess


def first_line(cmd):
    try:
        out = subprocess.run(cmd, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True,
                             check=False).stdout
    except OSError:
        return None
    return out.splitlines()[0].strip() if out.strip() else None


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                k, _, v = line.partition(":")
                if k.strip() == "model name":
                    return v.strip()
    except OSError:
        pass
    return None


def series_of(top):
    """The core series as the checkout has it: how many patches and a
    hash of their contents, in order."""
    d = os.path.join(top, "patches", "6.12")
    try:
        names = sorted(n for n in os.listdir(d) if n.endswith(".patch"))
    except OSError:
        return None, 0
    h = hashlib.sha256()
    for n in names:
        with open(os.path.join(d, n), "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:12], len(names)


def package_version(top):
    try:
        with open(os.path.join(top, "dkms.conf"), encoding="utf-8") as f:
            for line in f:
                m = re.match(r'^PACKAGE_VERSION="(.*)"$', line.strip())
                if m:
                    return m.group(1)
    except OSError:
        pass
    return None
