# SPDX-License-Identifier: GPL-2.0
"""bench-record.py run --format pgbench: pgbench's throughput from its
output, its latencies from its per-transaction log, and the sessions
that enabled the slice extension from PostgreSQL's log."""

import glob
import math
import os
import re


PGBENCH_TPS = re.compile(r"^tps = ([0-9]+(?:\.[0-9]+)?) ", re.M)
# The percentiles of a latency curve, as tools/bench/output.c samples them.
CDF_PCTS = (0, 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 98, 99, 99.5,
            99.9, 99.99, 100)


def percentile(vs, pct):
    """Nearest rank in the ascending list VS, as tools/bench/bench.c."""
    rank = math.ceil(pct / 100.0 * len(vs))
    return vs[min(max(rank, 1), len(vs)) - 1]


def pgbench_log(prefix):
    """The transactions of pgbench --log's files PREFIX.PID[.THREAD]:
    (latencies in µs, count of the rest). A line is "client transaction
    latency script epoch_s epoch_us ...", its latency "failed" or
    "skipped" for a transaction that did not complete."""
    lat, other = [], 0
    for path in glob.glob(glob.escape(prefix) + ".*"):
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                fields = line.split()
                if len(fields) < 6:
                    continue
                if fields[2].isdigit():
                    lat.append(int(fields[2]))
                else:
                    other += 1
    return lat, other


def pgbench_result(out, prefix):
    """pgbench's throughput, from its one "tps = N (...)" line, and its
    latencies, from the per-transaction log (its own summary has the
    average only)."""
    tps = PGBENCH_TPS.findall(out)
    lat, failed = pgbench_log(prefix) if prefix else ([], 0)
    if len(tps) != 1 or not lat:
        return None
    lat.sort()
    return {"tool": "pgbench", "tps": float(tps[0]),
            "transactions": len(lat), "failed": failed,
            "lat_avg_us": round(sum(lat) / len(lat), 1),
            "lat_p50_us": percentile(lat, 50),
            "lat_p99_us": percentile(lat, 99),
            "lat_cdf_us": [[p, percentile(lat, p)] for p in CDF_PCTS]}


def remove_logs(prefix):
    for path in glob.glob(glob.escape(prefix) + ".*"):
        os.remove(path)


def file_size(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return None


def sessions_enabled(path, offset):
    """Lines of PostgreSQL's log after OFFSET in which a process enabled
    the slice extension (tools/examples/postgresql's patch, at DEBUG1)."""
    with open(path, "rb") as f:
        f.seek(offset)
        text = f.read().decode("utf-8", "replace")
    return text.count("time slice extension enabled")
