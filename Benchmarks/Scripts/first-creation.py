#!/usr/bin/env python3
"""Instructions of a registration's first and second creation, under a protocol and concretely,
in a program holding the 30,000 generated service types, counted by callgrind.

Builds `graft-first-creation` (Benchmarks/Sources/GraftFirstCreation/) in release mode, strips
a copy of its debug information (valgrind cannot read the toolchain's DWARF 5), and runs each
mode under `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=...` once for the
first creation (`measuredOnce`) and once for the second (`measuredAgain`): only the
instructions inside that one call are counted.

Usage, from the repository root:
  python3 Benchmarks/Scripts/first-creation.py
"""

import os
import pathlib
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ next to the scripts
import measuring  # noqa: E402 (after the line above)

MODES = ["concrete", "concreteDisposable", "protocol", "protocolDisposable"]


def instructions(binary: pathlib.Path, mode: str, function: str, folder: pathlib.Path) -> int:
    out_file = tempfile.NamedTemporaryFile(dir=folder, prefix="callgrind.", delete=False).name
    subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--collect-atstart=no",
            f"--toggle-collect=*{function}*",
            f"--callgrind-out-file={out_file}",
            str(binary),
            mode,
        ],
        check=True,
        env=measuring.valgrind_environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    text = pathlib.Path(out_file).read_text(errors="replace")
    os.unlink(out_file)
    match = re.search(r"^(?:totals|summary):\s*(\d+)", text, re.MULTILINE)
    if match is None:
        raise RuntimeError(f"no totals in callgrind output of {mode}")
    return int(match.group(1))


def main() -> None:
    measuring.require_valgrind()
    binary = measuring.build_release("graft-first-creation")
    with tempfile.TemporaryDirectory() as folder:
        stripped = measuring.stripped_copy(binary, pathlib.Path(folder))
        print("| registration | first creation | second creation |")
        print("|---|---:|---:|")
        for mode in MODES:
            first = instructions(stripped, mode, "measuredOnce", pathlib.Path(folder))
            second = instructions(stripped, mode, "measuredAgain", pathlib.Path(folder))
            print(f"| {mode} | {first:,} | {second:,} |")


if __name__ == "__main__":
    main()
