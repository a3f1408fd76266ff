"""What startup.py and instructions.py share: building a tool of the Benchmarks package once,
running it under valgrind, and describing the machine a table came from.

Not a script of its own; the two scripts import it from this folder.
"""

import datetime
import os
import pathlib
import platform
import re
import shutil
import subprocess
import sys
import tempfile

PACKAGE = pathlib.Path(__file__).resolve().parent.parent


def build_release(product: str) -> pathlib.Path:
    """Builds `product` in release mode (a no-op when it is up to date); returns the binary."""
    command = ["swift", "build", "-c", "release", "--package-path", str(PACKAGE), "--product", product]
    print(f"building: {' '.join(command)}", file=sys.stderr)
    subprocess.run(command, check=True, stdout=sys.stderr)
    bin_path = subprocess.run(
        command[:-2] + ["--show-bin-path"], check=True, capture_output=True, text=True
    ).stdout.strip()
    return pathlib.Path(bin_path) / product


def require_valgrind() -> None:
    if shutil.which("valgrind") is None or shutil.which("objcopy") is None:
        sys.exit("valgrind and objcopy are needed: apt-get update && apt-get install -y valgrind binutils")


def stripped_copy(binary: pathlib.Path, folder: pathlib.Path) -> pathlib.Path:
    """A copy without debug information: valgrind 3.19 cannot read the DWARF 5 the Swift
    toolchain writes. Symbols stay, and the instructions run are the same."""
    copy = folder / binary.name
    subprocess.run(["objcopy", "--strip-debug", str(binary), str(copy)], check=True)
    return copy


def valgrind_environment() -> dict[str, str]:
    """The environment for counted runs. Swift seeds its hashing at random per process, so
    dictionary probes, and with them the instruction count, change from run to run (by about
    0.2% of a whole run of graft-instructions); fixed seeding makes the counts repeat to within
    a few dozen instructions per run."""
    return {**os.environ, "SWIFT_DETERMINISTIC_HASHING": "1"}


def callgrind_total(arguments: list[str], folder: pathlib.Path) -> int:
    """Instructions executed by one run of `arguments` under callgrind (the whole process,
    from the dynamic loader to exit)."""
    out_file = tempfile.NamedTemporaryFile(dir=folder, prefix="callgrind.", delete=False).name
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}", *arguments],
        check=True,
        env=valgrind_environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    text = pathlib.Path(out_file).read_text(errors="replace")
    os.unlink(out_file)
    match = re.search(r"^(?:totals|summary):\s*(\d+)", text, re.MULTILINE)
    if match is None:
        raise RuntimeError(f"no totals in callgrind output of {arguments}")
    return int(match.group(1))


def memcheck_allocations(arguments: list[str]) -> int:
    """The number of heap allocations (malloc, calloc, realloc, new) in one run, from
    memcheck's closing line "total heap usage: N allocs, M frees, B bytes allocated"."""
    result = subprocess.run(
        ["valgrind", "--tool=memcheck", "--leak-check=no", *arguments],
        check=True,
        env=valgrind_environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    match = re.search(r"total heap usage: ([\d,]+) allocs", result.stderr)
    if match is None:
        raise RuntimeError(f"no heap summary in memcheck output of {arguments}")
    return int(match.group(1).replace(",", ""))


def machine_description() -> str:
    """One line naming the machine and toolchain, for the notes under a table."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    swift_version = swift[0] if swift else "swift (version unknown)"
    date = datetime.date.today().isoformat()
    return f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores ({cpu}), {swift_version}, {date}"


def command_line() -> str:
    return " ".join(["python3", os.path.relpath(sys.argv[0], PACKAGE.parent), *sys.argv[1:]])


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
