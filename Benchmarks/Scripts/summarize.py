#!/usr/bin/env python3
"""Reads the markdown the benchmark harness prints (`--format markdown`) and prints the median
(p50) of every metric of every benchmark, one line each: `name | metric | median`.

    swift package --package-path Benchmarks benchmark --format markdown --no-progress > run.md
    python3 Benchmarks/Scripts/summarize.py run.md
"""
import re
import sys

SCALE = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}


def medians(lines):
    name = None
    for line in lines:
        if line.startswith("### "):
            name = line[4:].strip()
            continue
        if name is None or not line.startswith("| ") or line.startswith("| Metric"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 5 or cells[0].startswith(":"):
            continue
        metric = cells[0].rstrip(" *")
        unit = re.search(r"\((K|M|G)\)\s*$", metric)
        factor = SCALE[unit.group(1)] if unit else 1
        yield name, re.sub(r"\s*\((K|M|G)\)\s*$", "", metric), float(cells[3]) * factor


def main():
    with open(sys.argv[1], encoding="utf-8") as run:
        for name, metric, median in medians(run):
            print(f"{name} | {metric} | {median:,.0f}")


if __name__ == "__main__":
    main()
