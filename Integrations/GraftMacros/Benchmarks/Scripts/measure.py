#!/usr/bin/env python3
"""Start-up instructions of 1,000 @Injectable types against the same 1,000 registered by hand.

Builds graft-macros-startup in release mode, strips a copy of debug information (valgrind cannot
read the toolchain's DWARF 5), and runs `graft-macros-startup macro|hand|none` once each under
`valgrind --tool=callgrind`. Instructions per registration = (mode - none) / 1,000: registering,
building (Graft validates the graph) and resolving the last type, as Benchmarks/Scripts/startup.py
counts them for the core.

Usage, from the repository root: python3 Integrations/GraftMacros/Benchmarks/Scripts/measure.py
"""

import pathlib
import re
import subprocess
import tempfile

COUNT = 1_000
package = pathlib.Path(__file__).resolve().parent.parent
subprocess.run(
    ["swift", "build", "--package-path", str(package), "-c", "release", "--product", "graft-macros-startup"],
    check=True,
)
binary = package / ".build" / "release" / "graft-macros-startup"
with tempfile.TemporaryDirectory() as folder:
    stripped = pathlib.Path(folder) / "graft-macros-startup"
    subprocess.run(["objcopy", "--strip-debug", str(binary), str(stripped)], check=True)
    totals = {}
    for mode in ["none", "hand", "macro"]:
        out = pathlib.Path(folder) / f"callgrind.{mode}"
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", str(stripped), mode],
            check=True,
            capture_output=True,
        )
        totals[mode] = int(re.search(r"^totals: (\d+)", out.read_text(), re.M).group(1))
print("| registrations | whole process (instructions) | per registration |")
print("|---|---:|---:|")
for mode, label in [("hand", "1,000 by hand"), ("macro", "1,000 @Injectable"), ("none", "none")]:
    per = (totals[mode] - totals["none"]) / COUNT
    print(f"| {label} | {totals[mode]:,} | {per:,.0f} |" if mode != "none" else f"| {label} | {totals[mode]:,} | — |")
