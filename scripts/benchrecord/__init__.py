# SPDX-License-Identifier: GPL-2.0
"""scripts/bench-record.py's modules, one concern each:

  host_facts  what the host and boot lines say about the machine
  formats     run --format json and hackbench: a tool's output read
  pgbench     run --format pgbench: its output, its log, the server's log

Python 3.9 or later, the standard library only.
"""
