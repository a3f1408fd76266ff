#!/usr/bin/env python3
"""Instructions, and heap allocations, per resolve operation, counted by valgrind rather than
timed: the wall clock of a shared 2-core machine is too noisy to compare small changes, and
callgrind's counts are the same run after run whatever else the machine does.

Builds `graft-instructions` (Benchmarks/Sources/GraftInstructions/) in release mode once, then
for each scenario and library runs a copy stripped of debug information (valgrind cannot read
the toolchain's DWARF 5):

- under `valgrind --tool=callgrind` at two iteration counts (default 20,000 and 120,000):
  instructions per operation = (total at the high count - total at the low count) / (high -
  low). Everything done once per process (start-up, building and warming the container)
  cancels out; what is left is one operation, including the `blackHole` call that keeps each
  result alive (the same few instructions for every library).
- under `valgrind --tool=memcheck` at two smaller counts (default 2,000 and 12,000): heap
  allocations per operation, from the difference of memcheck's "total heap usage: N allocs".

Runs go in parallel (--jobs, default the number of cores): the counts do not depend on load.

The scenarios (the ordo-one benchmarks 1–5, same containers): singleton, transient, graph
(A(B, C), B(D), C(D), D, all transient), graphSingletonLeaf (D an existing singleton),
requestScope (make a scope, resolve the scoped context and a transient handler, close it).
Not run by default: randomGraphCreate (scenario 8: create the 200-node random graph's container
and let it go) and randomGraphFirstUse (create it and resolve its root, which makes each of its
200 singletons once; the first use alone is the difference of the two), which need far fewer
iterations:
  python3 Benchmarks/Scripts/instructions.py --scenarios randomGraphCreate,randomGraphFirstUse \
      --iterations 10,60 --malloc-iterations 5,25
Nor is randomGraphResolveAgain (issue: "resolving each of the 191 classes once their singletons
exist"): the random graph's container built and its root resolved once, so that all 200
singletons exist, then one operation resolves every one of them again, once each, each through
its own type: `try container.resolve(Node042.self)`, written out for every node in
RandomGraph's generated `resolveEach` (not a loop over metatypes erased to `Any.Type`), so each
call site is specialized for its type, as in an app. Where the `singleton` scenario asks for
one type again and again, this asks for 200 in turn: the table shows the operation and, on a
row of its own, the operation divided by the 200 resolves. Two libraries run only this
scenario: `dictionary`, a `[ObjectIdentifier: AnyObject]` of the same singletons, looked up by
`ObjectIdentifier(Service.self)` and cast back with `as! Service` (to a class, the cheapest
cast: DictionaryRandomGraph.swift says what the others cost), the published benchmark's
"Simple" baseline; and `graftUnspecialized`, Graft called through a generic function that is
never specialized, as from a wrapper generic over the service type in another module.
Hand-written code reads each from a `let`:
  python3 Benchmarks/Scripts/instructions.py \
      --libraries dictionary,handwritten,graft,swinject,graftUnspecialized \
      --scenarios randomGraphResolveAgain,singleton --iterations 1000,6000 --malloc-iterations 100,600
Nor are the child-container scenarios (issue 26: make a child of 10 singletons, each depending on
two of the parent's, under a built parent of 1,000 singletons, or of 10,000, or a child of 100;
and childOf1000InUse: make one, resolve a service of it, shut it down), which have no
hand-written version:
  python3 Benchmarks/Scripts/instructions.py --libraries graft,swinject \
      --scenarios childOf1000,childOf10000,child100Of1000,childOf1000InUse \
      --iterations 200,1200 --malloc-iterations 50,250

Usage, from the repository root:
  python3 Benchmarks/Scripts/instructions.py [--scenarios graph,requestScope]
      [--libraries graft,swinject] [--iterations 20000,120000] [--malloc-iterations 2000,12000]
      [--no-malloc] [--jobs 2]
With `--libraries graft,graftObserved`, the same scenarios with one observer that does nothing.
A library a scenario has no version of (handwritten for the child containers, dictionary and
graftUnspecialized for all but randomGraphResolveAgain) is left out of that row.
"""

import argparse
import concurrent.futures
import os
import pathlib
import re
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ next to the scripts
import measuring  # noqa: E402 (after the line above)

SCENARIOS = ["singleton", "transient", "graph", "graphSingletonLeaf", "requestScope"]
OTHER_SCENARIOS = [
    "randomGraphCreate",
    "randomGraphFirstUse",
    "childOf1000",
    "childOf10000",
    "child100Of1000",
    "childOf1000InUse",
    "randomGraphResolveAgain",
]
LIBRARIES = ["handwritten", "graft", "swinject"]
# Not run by default: Graft with one observer that does nothing, for what observing costs; for
# randomGraphResolveAgain only, a dictionary of the random graph's singletons, and Graft called
# from a generic function that is never specialized.
OTHER_LIBRARIES = ["graftObserved", "dictionary", "graftUnspecialized"]
CHILD_SCENARIOS = {"childOf1000", "childOf10000", "child100Of1000", "childOf1000InUse"}


def has_version(scenario: str, library: str) -> bool:
    """Whether graft-instructions runs `scenario` with `library` (main.swift refuses the rest)."""
    if library in ("dictionary", "graftUnspecialized"):
        return scenario == "randomGraphResolveAgain"
    return not (library == "handwritten" and scenario in CHILD_SCENARIOS)


def resolves_per_operation(scenario: str) -> int | None:
    """The resolves one operation makes, for a scenario that makes more than one: the random
    graph's node count, read from the generated Sources/RandomGraph/RandomGraph.swift."""
    if scenario != "randomGraphResolveAgain":
        return None
    text = (measuring.PACKAGE / "Sources/RandomGraph/RandomGraph.swift").read_text()
    match = re.search(r"nodeCount = (\d+)", text)
    if match is None:
        raise RuntimeError("no nodeCount in Sources/RandomGraph/RandomGraph.swift")
    return int(match.group(1))


def per_operation(count, binary: pathlib.Path, scenario: str, library: str, iterations: tuple[int, int]) -> float:
    low, high = (count([str(binary), scenario, library, str(n)]) for n in iterations)
    return (high - low) / (iterations[1] - iterations[0])


def pair(text: str) -> tuple[int, int]:
    low, high = (int(value) for value in text.split(","))
    if high <= low:
        raise argparse.ArgumentTypeError("the second count must be larger")
    return low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help="comma-separated scenarios")
    parser.add_argument("--libraries", default=",".join(LIBRARIES), help="comma-separated libraries")
    parser.add_argument("--iterations", type=pair, default=(20_000, 120_000), help="low,high for callgrind")
    parser.add_argument("--malloc-iterations", type=pair, default=(2_000, 12_000), help="low,high for memcheck")
    parser.add_argument("--no-malloc", action="store_true", help="skip the memcheck runs")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="valgrind runs at once")
    arguments = parser.parse_args()
    scenarios = arguments.scenarios.split(",")
    libraries = arguments.libraries.split(",")
    for name, known in (("scenario", SCENARIOS + OTHER_SCENARIOS), ("library", LIBRARIES + OTHER_LIBRARIES)):
        unknown = set(scenarios if name == "scenario" else libraries) - set(known)
        if unknown:
            sys.exit(f"unknown {name}: {', '.join(sorted(unknown))} (known: {', '.join(known)})")

    measuring.require_valgrind()
    binary = measuring.build_release("graft-instructions")
    cases = [(scenario, library) for scenario in scenarios for library in libraries if has_version(scenario, library)]
    with tempfile.TemporaryDirectory(prefix="graft-instructions-") as name:
        folder = pathlib.Path(name)
        stripped = measuring.stripped_copy(binary, folder)

        def instructions(arguments_: list[str]) -> int:
            return measuring.callgrind_total(arguments_, folder)

        with concurrent.futures.ThreadPoolExecutor(max_workers=arguments.jobs) as pool:
            counted = {
                case: pool.submit(per_operation, instructions, stripped, *case, arguments.iterations) for case in cases
            }
            allocated = {}
            if not arguments.no_malloc:
                allocated = {
                    case: pool.submit(
                        per_operation, measuring.memcheck_allocations, stripped, *case, arguments.malloc_iterations
                    )
                    for case in cases
                }
            results = {case: counted[case].result() for case in cases}
            mallocs = {case: future.result() for case, future in allocated.items()}

    print_table(scenarios, libraries, results, mallocs)
    print()
    iterations = ", ".join(f"{n:,}" for n in arguments.iterations)
    malloc_note = "" if arguments.no_malloc else f"; mallocs from memcheck at {arguments.malloc_iterations[0]:,} and {arguments.malloc_iterations[1]:,}"
    print(
        f"Machine: {measuring.machine_description()}. Command: `{measuring.command_line()}` "
        f"(callgrind at {iterations} iterations{malloc_note})."
    )


def print_table(scenarios, libraries, results, mallocs) -> None:
    header = "| scenario | " + " | ".join(f"{library} instructions/op" for library in libraries)
    if mallocs:
        header += " | " + " | ".join(f"{library} mallocs/op" for library in libraries)
    print(header + " |")
    print("|---|" + "---:|" * (len(libraries) * (2 if mallocs else 1)))
    for scenario in scenarios:
        rows = [(scenario, 1, "{:,.0f}", "{:.1f}")]
        resolves = resolves_per_operation(scenario)
        if resolves is not None:
            rows.append((f"{scenario}, per resolve (/{resolves})", resolves, "{:,.1f}", "{:.2f}"))
        for label, divisor, instruction_format, malloc_format in rows:
            cells = [cell(results, (scenario, library), divisor, instruction_format) for library in libraries]
            if mallocs:
                cells += [cell(mallocs, (scenario, library), divisor, malloc_format) for library in libraries]
            print(f"| {label} | " + " | ".join(cells) + " |")


def cell(values, case, divisor: int, number_format: str) -> str:
    """One figure of the table, or a dash where the library has no version of the scenario."""
    return number_format.format(values[case] / divisor) if case in values else "–"


if __name__ == "__main__":
    main()
