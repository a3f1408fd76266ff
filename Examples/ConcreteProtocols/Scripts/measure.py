#!/usr/bin/env python3
"""Start-up cost of the concrete-protocols example in fresh processes, and under callgrind.

Builds `concrete-protocols` in release mode, then:
- runs each mode (none, extension, scan) RUNS times as a new process, rounds interleaved, and
  prints the median and min–max of the process's wall clock (spawn to exit, timed here) and of
  the step the program times itself;
- with --callgrind, runs each mode once under `valgrind --tool=callgrind` on a copy stripped of
  debug information (valgrind cannot read the toolchain's DWARF 5) and prints the instructions
  of the whole process, and each mode minus `none`.

Usage, from the repository root: python3 Examples/ConcreteProtocols/Scripts/measure.py [--runs 7] [--callgrind]
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile
import time
import pathlib

MODES = ["none", "extension", "scan"]


def build() -> pathlib.Path:
    command = ["swift", "build", "-c", "release", "--product", "concrete-protocols"]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    bin_path = subprocess.run(command[:-2] + ["--show-bin-path"], check=True, capture_output=True, text=True)
    return pathlib.Path(bin_path.stdout.strip()) / "concrete-protocols"


def fresh_processes(binary: pathlib.Path, runs: int) -> None:
    wall: dict[str, list[float]] = {mode: [] for mode in MODES}
    step: dict[str, list[float]] = {mode: [] for mode in MODES}
    types = 0
    for _ in range(runs):
        for mode in MODES:
            start = time.perf_counter()
            output = subprocess.run([str(binary), mode], check=True, capture_output=True, text=True).stdout
            wall[mode].append((time.perf_counter() - start) * 1000)
            report = json.loads(output.strip().splitlines()[-1])
            step[mode].append(report["stepMicroseconds"] / 1000)
            types = report["types"]
    print(f"| mode ({types:,} types) | process, ms: median (min–max) | step inside, ms: median (min–max) |")
    print("|---|---|---|")
    for mode in MODES:
        cells = [f"{statistics.median(v):.2f} ({min(v):.2f}–{max(v):.2f})" for v in (wall[mode], step[mode])]
        print(f"| {mode} | {cells[0]} | {cells[1]} |")


def callgrind(binary: pathlib.Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        stripped = pathlib.Path(folder) / binary.name
        subprocess.run(["objcopy", "--strip-debug", str(binary), str(stripped)], check=True)
        totals = {}
        for mode in MODES:
            out_file = pathlib.Path(folder) / f"callgrind.{mode}"
            subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", str(stripped), mode],
                check=True,
                env={**os.environ, "SWIFT_DETERMINISTIC_HASHING": "1"},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            match = re.search(r"^(?:totals|summary):\s*(\d+)", out_file.read_text(errors="replace"), re.MULTILINE)
            totals[mode] = int(match.group(1))
    print("| mode | instructions, whole process | minus `none` |")
    print("|---|---:|---:|")
    for mode in MODES:
        print(f"| {mode} | {totals[mode]:,} | {totals[mode] - totals['none']:,} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--callgrind", action="store_true")
    arguments = parser.parse_args()
    binary = build()
    if arguments.callgrind:
        callgrind(binary)
    else:
        fresh_processes(binary, arguments.runs)


if __name__ == "__main__":
    main()
