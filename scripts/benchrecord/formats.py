# SPDX-License-Identifier: GPL-2.0
"""bench-record.py run --format json and hackbench: a tool's output read
into its result (pgbench's is benchrecord/pgbench.py's)."""

import json
import re


def last_object(out):
    """The tool's --json object: the last line that parses as one."""
    for line in reversed(out.splitlines()):
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict):
            return obj
    return None


HACKBENCH_TIME = re.compile(r"^Time:\s*([0-9]+(?:\.[0-9]+)?)\s*$", re.M)


def hackbench_result(out):
    """rt-tests' hackbench has no JSON output: its result is the one
    "Time: SECONDS" line it prints at the end."""
    m = HACKBENCH_TIME.findall(out)
    if len(m) != 1:
        return None
    return {"tool": "hackbench", "hackbench_s": float(m[0])}
