# SPDX-License-Identifier: GPL-2.0
"""scripts/bench-report.py's modules, one concern each:

  results     reading results.jsonl: points, runs pooled, boots, bases
  stats       a metric's median, quartiles and spread; the rank test
  parts       each part's title, metrics and description
  tables      the tables printed
  pictures    one SVG picture per part (matplotlib)
  results_md  docs/results.md

Python 3.9 or later; scripts/ (for benchlib) on sys.path.
"""
