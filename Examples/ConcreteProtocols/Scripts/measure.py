#!/usr/bin/env python3
"""Start-up cost of the concrete-protocols example in fresh processes, and under callgrind.

Builds `concrete-protocols` in release mode, then:
- runs each mode (none, extension, scan) RUNS times as a new process, rounds interleaved, and
  prints the median and min–max of the process's wall clock (spawn to exit, timed here) and of
  the step the program times itself;
- with --callgrind, runs each mode once under `valgrind --tool=callgrind` on a copy stripped of
  debug information (valgrind cannot read the toolchain's DWARF 5) and prints the instructions
  of the whole process, and each mode minus `none`.

With --types N (say 30000, the seed's count), it measures a copy of the example with N types
instead, in a scratch package under .build-concrete-protocols/ (a release build of 30,000
types takes about two minutes), so the committed example stays small enough for a fast debug
build. --modes picks the modes to run: a `scan` of 30,000 types under callgrind would take hours.

Usage, from the repository root:
python3 Examples/ConcreteProtocols/Scripts/measure.py [--runs 7] [--callgrind] [--types N] [--modes none,extension,scan]
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
import shutil

MODES = ["none", "extension", "scan"]


EXAMPLE = pathlib.Path(__file__).resolve().parent.parent

SCRATCH_MANIFEST = """// swift-tools-version:6.2
import PackageDescription

// Written by Examples/ConcreteProtocols/Scripts/measure.py --types N: the example with N types.
let package = Package(
    name: "ConcreteProtocolsScratch",
    products: [.executable(name: "concrete-protocols", targets: ["ConcreteProtocols"])],
    targets: [.executableTarget(name: "ConcreteProtocols", path: "Sources")],
    swiftLanguageModes: [.v6]
)
"""


def scratch_package(types: int) -> pathlib.Path:
    """A package holding the example's code and `types` generated types; returns its folder."""
    package = pathlib.Path(".build-concrete-protocols") / str(types)
    sources = package / "Sources"
    sources.mkdir(parents=True, exist_ok=True)
    (package / "Package.swift").write_text(SCRATCH_MANIFEST)
    for name in ["main.swift", "Greeter.swift"]:
        shutil.copyfile(EXAMPLE / name, sources / name)
    subprocess.run(
        ["python3", str(EXAMPLE / "Scripts" / "generate-types.py"), "--count", str(types), "--output", str(sources / "Generated")],
        check=True,
    )
    return package


def build(package: pathlib.Path | None) -> pathlib.Path:
    command = ["swift", "build", "-c", "release"]
    if package is not None:
        command += ["--package-path", str(package)]
    subprocess.run(command + ["--product", "concrete-protocols"], check=True, stdout=subprocess.DEVNULL)
    bin_path = subprocess.run(command + ["--show-bin-path"], check=True, capture_output=True, text=True)
    return pathlib.Path(bin_path.stdout.strip()) / "concrete-protocols"


def fresh_processes(binary: pathlib.Path, runs: int, modes: list[str]) -> None:
    wall: dict[str, list[float]] = {mode: [] for mode in modes}
    step: dict[str, list[float]] = {mode: [] for mode in modes}
    types = 0
    for _ in range(runs):
        for mode in modes:
            start = time.perf_counter()
            output = subprocess.run([str(binary), mode], check=True, capture_output=True, text=True).stdout
            wall[mode].append((time.perf_counter() - start) * 1000)
            report = json.loads(output.strip().splitlines()[-1])
            step[mode].append(report["stepMicroseconds"] / 1000)
            types = report["types"]
    print(f"| mode ({types:,} types) | process, ms: median (min–max) | step inside, ms: median (min–max) |")
    print("|---|---|---|")
    for mode in modes:
        cells = [f"{statistics.median(v):.2f} ({min(v):.2f}–{max(v):.2f})" for v in (wall[mode], step[mode])]
        print(f"| {mode} | {cells[0]} | {cells[1]} |")


def callgrind(binary: pathlib.Path, modes: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        stripped = pathlib.Path(folder) / binary.name
        subprocess.run(["objcopy", "--strip-debug", str(binary), str(stripped)], check=True)
        totals = {}
        for mode in modes:
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
    for mode in modes:
        beyond = f"{totals[mode] - totals['none']:,}" if "none" in totals else "—"
        print(f"| {mode} | {totals[mode]:,} | {beyond} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--types", type=int, help="measure a scratch copy with this many types")
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated, from: " + ", ".join(MODES))
    arguments = parser.parse_args()
    modes = arguments.modes.split(",")
    if unknown := [mode for mode in modes if mode not in MODES]:
        parser.error(f"unknown mode {unknown[0]!r}; the modes are {', '.join(MODES)}")
    binary = build(scratch_package(arguments.types) if arguments.types else None)
    if arguments.callgrind:
        callgrind(binary, modes)
    else:
        fresh_processes(binary, arguments.runs, modes)


if __name__ == "__main__":
    main()
