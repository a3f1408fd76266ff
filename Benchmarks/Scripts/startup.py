#!/usr/bin/env python3
"""Start-up cost of each container in a fresh process: register N distinct services, build,
resolve the last one (`graft-startup`, Benchmarks/Sources/GraftStartup/).

Builds graft-startup in release mode once, then runs it RUNS times (default 7) for each
library and N (1,000, 10,000, 30,000), each run a new process, rounds interleaved so that a
noisy moment hits every cell alike. Prints a markdown table of medians with min–max of:

- time: wall clock (ContinuousClock) of registering, building (Graft validates the graph) and
  the first resolve, measured inside the process;
- bytes per registration: heap in use (glibc mallinfo2: uordblks + hblkhd) with the container
  alive after the first resolve, minus heap in use before registering, divided by N. It
  includes the Swift runtime's caches filled on the way (generic metadata, conformances).

With --callgrind, runs each library and N once under `valgrind --tool=callgrind` instead, on a
copy of the binary stripped of debug information (valgrind cannot read the toolchain's
DWARF 5). What it counts: the instructions of the whole `graft-startup <library> N` process
minus those of `graft-startup none N`, which does everything else the same (process start-up,
the Swift runtime, making the list of N types, printing) but registers nothing. The difference
is the measured step plus any one-time initialization of the library's own globals on the
way, which a real launch pays too. Instructions per registration = that difference / N.

Usage, from the repository root:
  python3 Benchmarks/Scripts/startup.py [--runs 7] [--counts 1000,10000,30000]
                                        [--libraries handwritten,graft,swinject] [--callgrind]
"""

import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ next to the scripts
import measuring  # noqa: E402 (after the line above)

LIBRARIES = ["handwritten", "graft", "swinject"]
COUNTS = [1_000, 10_000, 30_000]


def run_once(binary: pathlib.Path, library: str, count: int) -> dict:
    output = subprocess.run([str(binary), library, str(count)], check=True, capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def wall_clock_table(binary: pathlib.Path, libraries: list[str], counts: list[int], runs: int) -> list[str]:
    results: dict[tuple[str, int], list[dict]] = {(lib, n): [] for lib in libraries for n in counts}
    for round_index in range(runs):
        for count in counts:
            for library in libraries:
                results[(library, count)].append(run_once(binary, library, count))
        print(f"round {round_index + 1}/{runs} done", file=sys.stderr)
    rows = [
        "| library | services | time, ms: median (min–max) | bytes per registration: median (min–max) |",
        "|---|---:|---|---|",
    ]
    for library in libraries:
        for count in counts:
            reports = results[(library, count)]
            times = [r["nanoseconds"] / 1e6 for r in reports]
            bytes_each = [r["bytesPerRegistration"] for r in reports]
            rows.append(
                f"| {library} | {count:,} | {measuring.median(times):,.2f} ({min(times):,.2f}–{max(times):,.2f}) "
                f"| {measuring.median(bytes_each):,.0f} ({min(bytes_each):,.0f}–{max(bytes_each):,.0f}) |"
            )
    return rows


def callgrind_table(binary: pathlib.Path, libraries: list[str], counts: list[int]) -> list[str]:
    measuring.require_valgrind()
    steps: dict[tuple[str, int], int] = {}
    with tempfile.TemporaryDirectory(prefix="graft-startup-") as name:
        folder = pathlib.Path(name)
        stripped = measuring.stripped_copy(binary, folder)
        for count in counts:
            baseline = measuring.callgrind_total([str(stripped), "none", str(count)], folder)
            for library in libraries:
                steps[(library, count)] = measuring.callgrind_total([str(stripped), library, str(count)], folder) - baseline
                print(f"{library} {count}: {steps[(library, count)]:,}", file=sys.stderr)
    rows = [
        "| library | services | instructions of the step | instructions per registration |",
        "|---|---:|---:|---:|",
    ]
    for library in libraries:
        for count in counts:
            step = steps[(library, count)]
            rows.append(f"| {library} | {count:,} | {step:,} | {step / count:,.0f} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="processes per library and N (default 7)")
    parser.add_argument("--counts", default=",".join(map(str, COUNTS)), help="comma-separated service counts")
    parser.add_argument("--libraries", default=",".join(LIBRARIES), help="comma-separated libraries")
    parser.add_argument("--callgrind", action="store_true", help="count instructions under callgrind instead")
    arguments = parser.parse_args()
    libraries = arguments.libraries.split(",")
    counts = [int(count) for count in arguments.counts.split(",")]

    binary = measuring.build_release("graft-startup")
    if arguments.callgrind:
        rows = callgrind_table(binary, libraries, counts)
        note = "one run each under callgrind; the step = the whole process minus `graft-startup none N`"
    else:
        rows = wall_clock_table(binary, libraries, counts, arguments.runs)
        note = f"{arguments.runs} processes each; time and heap measured inside the process"
    print("\n".join(rows))
    print()
    print(f"Machine: {measuring.machine_description()}. Command: `{measuring.command_line()}` ({note}).")


if __name__ == "__main__":
    main()
