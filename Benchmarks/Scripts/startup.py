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
  includes the Swift runtime's caches filled on the way (generic metadata, conformances);
- whole process: wall clock from starting the process to its exit, as a launch pays it
  (the dynamic loader, the Swift runtime, making the list of N types, the step, exit). The
  `none` row does all of that but registers nothing.

With --callgrind, runs each library and N once under `valgrind --tool=callgrind` instead, on a
copy of the binary stripped of debug information (valgrind cannot read the toolchain's
DWARF 5). What it counts: the instructions of the whole `graft-startup <library> N` process
minus those of `graft-startup none N`, which does everything else the same (process start-up,
the Swift runtime, making the list of N types, printing) but registers nothing. The difference
is the measured step plus any one-time initialization of the library's own globals on the
way, which a real launch pays too. Instructions per registration = that difference / N. The
whole process's instructions are shown too, with their ratio to hand-written code's.

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
import time

sys.dont_write_bytecode = True  # no __pycache__ next to the scripts
import measuring  # noqa: E402 (after the line above)

LIBRARIES = ["handwritten", "graft", "swinject"]
COUNTS = [1_000, 10_000, 30_000]


def run_once(binary: pathlib.Path, library: str, count: int) -> dict:
    started = time.perf_counter_ns()
    output = subprocess.run([str(binary), library, str(count)], check=True, capture_output=True, text=True).stdout
    whole = time.perf_counter_ns() - started
    report = json.loads(output.strip().splitlines()[-1])
    report["wholeProcessNanoseconds"] = whole
    return report


def spread(values: list[float], digits: int = 2) -> str:
    """A median with the min–max range beside it."""
    return f"{measuring.median(values):,.{digits}f} ({min(values):,.{digits}f}–{max(values):,.{digits}f})"


def wall_clock_table(binary: pathlib.Path, libraries: list[str], counts: list[int], runs: int) -> list[str]:
    # `none` runs too: the whole process of a launch that registers nothing.
    measured = ["none", *[library for library in libraries if library != "none"]]
    results: dict[tuple[str, int], list[dict]] = {(lib, n): [] for lib in measured for n in counts}
    for round_index in range(runs):
        for count in counts:
            for library in measured:
                results[(library, count)].append(run_once(binary, library, count))
        print(f"round {round_index + 1}/{runs} done", file=sys.stderr)
    rows = [
        "| library | services | step, ms: median (min–max) | bytes per registration | whole process, ms | whole process / hand-written |",
        "|---|---:|---|---|---|---:|",
    ]
    for count in counts:
        hand = results.get(("handwritten", count))
        hand_whole = measuring.median([r["wholeProcessNanoseconds"] for r in hand]) if hand else None
        for library in measured:
            reports = results[(library, count)]
            times = [r["nanoseconds"] / 1e6 for r in reports]
            bytes_each = [float(r["bytesPerRegistration"]) for r in reports]
            wholes = [r["wholeProcessNanoseconds"] / 1e6 for r in reports]
            ratio = f"{measuring.median(wholes) * 1e6 / hand_whole:.2f}x" if hand_whole else ""
            rows.append(
                f"| {library} | {count:,} | {spread(times)} | {spread(bytes_each, 0)} | {spread(wholes)} | {ratio} |"
            )
    return rows


def callgrind_table(binary: pathlib.Path, libraries: list[str], counts: list[int]) -> list[str]:
    measuring.require_valgrind()
    totals: dict[tuple[str, int], int] = {}
    with tempfile.TemporaryDirectory(prefix="graft-startup-") as name:
        folder = pathlib.Path(name)
        stripped = measuring.stripped_copy(binary, folder)
        for count in counts:
            for library in ["none", *[library for library in libraries if library != "none"]]:
                totals[(library, count)] = measuring.callgrind_total([str(stripped), library, str(count)], folder)
                print(f"{library} {count}: {totals[(library, count)]:,}", file=sys.stderr)
    rows = [
        "| library | services | instructions of the step | per registration | whole process | whole process / hand-written |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for count in counts:
        baseline = totals[("none", count)]
        hand = totals.get(("handwritten", count))
        rows.append(f"| none | {count:,} | | | {baseline:,} | |")
        for library in libraries:
            if library == "none":
                continue
            whole = totals[(library, count)]
            step = whole - baseline
            ratio = f"{whole / hand:.2f}x" if hand else ""
            rows.append(f"| {library} | {count:,} | {step:,} | {step / count:,.0f} | {whole:,} | {ratio} |")
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
