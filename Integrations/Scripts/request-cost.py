#!/usr/bin/env python3
"""What a Graft request scope costs on a database route, on Hummingbird and on Vapor.

For each stack, builds one small server in release (once; later runs rebuild only what
changed) and runs it in turn as:

  hand        the route written by hand: a leased connection (Hummingbird: SQLiteNIO from a
              pool; Vapor: Fluent's SQLite driver, req.db.transaction), BEGIN, three SELECTs,
              COMMIT, the connection given back. No Graft in the process.
  graft       the same queries through Graft, as the examples and articles wire it: a request
              scope per request (Hummingbird: RequestScopeMiddleware, guardingRequests(),
              .http1ClosingRequestScopes(); Vapor: app.graft.install), a scoped unit of work
              that leases and begins (Vapor: FluentTransaction), commits in the completion step
              and gives the connection back when the scope closes; the request deadline on (30 s).
  graft-nodl  the same with the request deadline off.
  graft-bare  (Hummingbird, only with --modes) the same without the deadline and without
              guardingRequests(): what the request scope costs by itself.

Each round starts each mode's server on 127.0.0.1, warms it up, reads its /stats (requests
served, user and system CPU seconds from getrusage), runs `wrk -t2 -c8 -d<N>s`, reads /stats
again, and stops it. The order of the modes alternates from round to round. Throughput is wrk's
requests per second; CPU per request is the server's CPU time over the requests it served in
the measured run. The summary gives each mode's medians and Graft's ratios to hand-written:
throughput (goal: at least 0.95) and CPU per request (goal: at most 1.05), as ratios of the
medians and as the median of each round's paired ratio.

Usage (from anywhere in the repository):

  Integrations/Scripts/request-cost.py                       # both stacks, 5 rounds of 5 s
  Integrations/Scripts/request-cost.py --stack vapor --rounds 7 --duration 10
  Integrations/Scripts/request-cost.py --stack hummingbird --perf graft
      # after the rounds, one more run of that mode and one of hand under
      # `perf record -e cpu-clock -g`: prints the top symbols and where the CPU goes by kind
      # (Graft, the framework, SwiftNIO, SQLite, Swift's task runtime, allocation, kernel) as
      # CPU µs per request for both, and keeps the data in .build-request-cost-perf-<stack>/

Needs swift and wrk (and perf, Debian's linux-perf, for --perf). The servers build in the integrations' own
folders (Integrations/GraftHummingbird/.build, Integrations/GraftVapor/.build), in release. The
machine should be otherwise quiet: the numbers are only as steady as it is, and the rounds are
alternated so that drift shows up in both modes alike. Every server and load run is bounded in
time and stopped by the script; nothing listens beyond 127.0.0.1. A measurement, not a test:
CI does not run it.
"""

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

STACKS = {
    "hummingbird": {
        "package": ROOT / "Integrations/Scripts/RequestCostHummingbird",
        "scratch": ROOT / "Integrations/GraftHummingbird/.build",
        "product": "request-cost-hummingbird",
    },
    "vapor": {
        "package": ROOT / "Integrations/Scripts/RequestCostVapor",
        "scratch": ROOT / "Integrations/GraftVapor/.build",
        "product": "request-cost-vapor",
    },
}

MODES = {
    "hand": {"COST_MODE": "hand"},
    "graft": {"COST_MODE": "graft"},
    "graft-nodl": {"COST_MODE": "graft", "COST_DEADLINE": "off"},
    # Hummingbird only, not run unless asked (--modes): no deadline and no RequestGuard, to tell
    # what the request scope costs by itself from what the guard's task costs.
    "graft-bare": {"COST_MODE": "graft", "COST_DEADLINE": "off", "COST_GUARD": "off"},
}


def build(stack):
    spec = STACKS[stack]
    command = [
        "swift", "build", "-c", "release",
        "--package-path", str(spec["package"]),
        "--scratch-path", str(spec["scratch"]),
        "--product", spec["product"],
    ]
    print("$", " ".join(command), flush=True)
    subprocess.run(command, check=True, timeout=3600)
    binary = spec["scratch"] / "release" / spec["product"]
    if not binary.exists():
        sys.exit(f"built, but {binary} is missing")
    return binary


def stats(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/stats", timeout=5) as response:
        served, user, system = response.read().decode().split()
    return int(served), float(user) + float(system)


class Server:
    """One server process in one mode, started and stopped within bounded waits."""

    def __init__(self, binary, mode, port, work):
        environment = dict(os.environ, COST_PORT=str(port), COST_DATABASE=str(work / f"{mode}.sqlite"))
        environment.update(MODES[mode])
        self.port = port
        self.log = open(work / f"{mode}.log", "ab")
        self.process = subprocess.Popen([str(binary)], env=environment, stdout=self.log, stderr=self.log)
        for _ in range(200):  # up to 20 s to open its port
            if self.process.poll() is not None:
                sys.exit(f"the {mode} server exited with {self.process.returncode}; see {self.log.name}")
            try:
                stats(port)
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        sys.exit(f"the {mode} server did not answer on 127.0.0.1:{port} in 20 s")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=15)
        self.log.close()


def wrk(port, seconds, threads, connections):
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", f"http://127.0.0.1:{port}/work"]
    output = subprocess.run(command, check=True, capture_output=True, text=True, timeout=seconds + 60).stdout
    rate = None
    bad = 0
    for line in output.splitlines():
        line = line.strip()
        if line.startswith("Requests/sec:"):
            rate = float(line.split()[1])
        elif line.startswith("Non-2xx or 3xx responses:"):
            bad += int(line.split()[-1])
        elif line.startswith("Socket errors:"):
            bad += sum(int(part.split()[-1]) for part in line.split(":", 1)[1].split(","))
    if rate is None:
        sys.exit("wrk printed no Requests/sec:\n" + output)
    return rate, bad


def measure(binary, mode, port, work, args):
    server = Server(binary, mode, port, work)
    try:
        wrk(port, args.warmup, args.threads, args.connections)
        served_before, cpu_before = stats(port)
        rate, bad = wrk(port, args.duration, args.threads, args.connections)
        served_after, cpu_after = stats(port)
    finally:
        server.stop()
    served = served_after - served_before
    if served <= 0:
        sys.exit(f"the {mode} server served no request")
    return {"rate": rate, "cpu": (cpu_after - cpu_before) / served, "bad": bad}


CATEGORIES = [
    # (kind, substrings of a symbol, demangled or not), first match wins
    ("Graft integration", ["GraftHummingbird", "GraftVapor", "GraftFluent", "16GraftHummingbird", "10GraftVapor"]),
    ("Graft core", ["Graft.", "5Graft"]),
    ("SQLite", ["sqlite3", "SQLite"]),
    ("Fluent/SQLKit", ["Fluent", "SQLKit", "FluentKit"]),
    ("framework (Hummingbird/Vapor)", ["Hummingbird", "Vapor", "RoutingKit"]),
    ("SwiftNIO", ["NIO"]),
    ("Swift task runtime", ["swift_task", "swift_job", "swift::", "swift_continuation", "_Concurrency",
                            "TaskGroup", "swift_asyncLet", "dispatch", "_dispatch"]),
    ("allocation/refcount", ["malloc", "free", "swift_retain", "swift_release", "swift_allocObject",
                             "swift_deallocObject", "_int_malloc", "_int_free", "cfree", "swift_bridgeObject"]),
    ("kernel", ["[k]"]),
]


def categorize(report_lines):
    """Self-time percentages by kind, from `perf report --sort symbol` lines."""
    totals = {kind: 0.0 for kind, _ in CATEGORIES}
    totals["other"] = 0.0
    for line in report_lines:
        parts = line.split(None, 1)
        if len(parts) < 2 or not parts[0].endswith("%"):
            continue
        try:
            percent = float(parts[0][:-1])
        except ValueError:
            continue
        symbol = parts[1]
        for kind, needles in CATEGORIES:
            if any(needle in symbol for needle in needles):
                totals[kind] += percent
                break
        else:
            totals["other"] += percent
    return totals


def profile(binary, mode, port, work, args):
    """One more run of `mode` with `perf record` attached to the server for the load's length.

    Returns (CPU seconds per request, self-time % by kind), or None without perf."""
    if shutil.which("perf") is None:
        print("perf is not installed (Debian: linux-perf); no profile", flush=True)
        return None
    server = Server(binary, mode, port, work)
    data = work / f"perf-{mode}.data"
    try:
        wrk(port, args.warmup, args.threads, args.connections)
        served_before, cpu_before = stats(port)
        recorder = subprocess.Popen(
            ["perf", "record", "-e", "cpu-clock", "-g", "-o", str(data), "-p", str(server.process.pid),
             "--", "sleep", str(args.duration)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        wrk(port, args.duration, args.threads, args.connections)
        recorder.wait(timeout=args.duration + 60)
        served_after, cpu_after = stats(port)
    finally:
        server.stop()
    report = subprocess.run(
        ["perf", "report", "-i", str(data), "--no-children", "--sort", "symbol", "--stdio", "-g", "none"],
        capture_output=True, text=True, timeout=600,
    ).stdout
    # Swift's symbols, readable: `swift demangle` rewrites the mangled names it finds in text.
    report = subprocess.run(
        ["swift", "demangle"], input=report, capture_output=True, text=True, timeout=600
    ).stdout.splitlines()
    lines = [line for line in report if line.strip() and not line.startswith("#")]
    print(f"\nperf, {mode}: the symbols over 0.7% of self time")
    for line in lines:
        parts = line.split(None, 1)
        if parts and parts[0].endswith("%") and float(parts[0][:-1]) >= 0.7:
            print("  " + line.strip()[:150])
    cpu = (cpu_after - cpu_before) / max(1, served_after - served_before)
    return cpu, categorize(lines)


def compare_profiles(stack, profiles):
    """CPU µs per request by kind, for each profiled mode, and Graft's extra over hand."""
    modes = list(profiles)
    print(f"\n{stack}: where the CPU goes, µs per request by kind (self time, from perf)")
    print("  " + f"{'kind':<32}" + "".join(f"{mode:>12}" for mode in modes))
    kinds = [kind for kind, _ in CATEGORIES] + ["other"]
    for kind in kinds + ["total"]:
        row = []
        for mode in modes:
            cpu, shares = profiles[mode]
            share = 100.0 if kind == "total" else shares[kind]
            row.append(cpu * 1e6 * share / 100)
        print("  " + f"{kind:<32}" + "".join(f"{value:>12.1f}" for value in row))


def summarize(stack, results, modes):
    print(f"\n{stack}: medians over {len(results['hand'])} rounds")
    print(f"  {'mode':<11} {'requests/s':>11} {'CPU µs/request':>15}  per round (requests/s)")
    for mode in modes:
        rates = [r["rate"] for r in results[mode]]
        cpus = [r["cpu"] * 1e6 for r in results[mode]]
        bad = sum(r["bad"] for r in results[mode])
        note = f"  ({bad} non-2xx or socket errors)" if bad else ""
        rounds = " ".join(f"{rate:.0f}" for rate in rates)
        print(f"  {mode:<11} {statistics.median(rates):>11.0f} {statistics.median(cpus):>15.1f}  {rounds}{note}")
    hand = results["hand"]
    for mode in modes:
        if mode == "hand":
            continue
        ours = results[mode]
        throughput = statistics.median(r["rate"] for r in ours) / statistics.median(r["rate"] for r in hand)
        cpu = statistics.median(r["cpu"] for r in ours) / statistics.median(r["cpu"] for r in hand)
        paired_throughput = statistics.median(o["rate"] / h["rate"] for o, h in zip(ours, hand))
        paired_cpu = statistics.median(o["cpu"] / h["cpu"] for o, h in zip(ours, hand))
        verdict = "meets" if throughput >= 0.95 and cpu <= 1.05 else "misses"
        print(
            f"  {mode}/hand: throughput {throughput:.3f} (paired {paired_throughput:.3f}), "
            f"CPU per request {cpu:.3f} (paired {paired_cpu:.3f}): {verdict} the goal (≥ 0.95, ≤ 1.05)"
        )


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--stack", choices=["hummingbird", "vapor", "both"], default="both")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (at least 5; default 5)")
    parser.add_argument("--duration", type=int, default=5, help="seconds of each measured wrk run (default 5)")
    parser.add_argument("--warmup", type=int, default=2, help="seconds of wrk before each measured run (default 2)")
    parser.add_argument("--threads", type=int, default=2, help="wrk's -t (default 2)")
    parser.add_argument("--connections", type=int, default=8, help="wrk's -c (default 8)")
    parser.add_argument("--port", type=int, default=18480, help="the servers' port on 127.0.0.1 (default 18480)")
    parser.add_argument(
        "--modes", default="hand,graft,graft-nodl",
        help="which modes to run, comma-separated, hand among them (default hand,graft,graft-nodl)",
    )
    parser.add_argument("--perf", choices=sorted(MODES), help="also profile one run of this mode with perf")
    parser.add_argument("--skip-build", action="store_true", help="use the release binaries already built")
    args = parser.parse_args()
    if args.rounds < 5:
        parser.error("at least 5 rounds")
    if not 1 <= args.duration <= 120 or not 0 <= args.warmup <= 30:
        parser.error("--duration is 1 to 120 seconds, --warmup 0 to 30")
    modes = args.modes.split(",")
    if "hand" not in modes or any(mode not in MODES for mode in modes):
        parser.error(f"--modes: from {', '.join(MODES)}, hand among them")
    for tool in ["swift", "wrk"]:
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is not on PATH (wrk: apt-get install wrk)")

    stacks = ["hummingbird", "vapor"] if args.stack == "both" else [args.stack]
    binaries = {}
    for stack in stacks:
        spec = STACKS[stack]
        binaries[stack] = spec["scratch"] / "release" / spec["product"] if args.skip_build else build(stack)
    with tempfile.TemporaryDirectory(prefix="request-cost-") as folder:
        work = Path(folder)
        for stack in stacks:
            results = {mode: [] for mode in modes}
            for round_number in range(args.rounds):
                order = modes if round_number % 2 == 0 else list(reversed(modes))
                for mode in order:
                    result = measure(binaries[stack], mode, args.port, work, args)
                    results[mode].append(result)
                    print(
                        f"{stack} round {round_number + 1} {mode:<11} {result['rate']:9.0f} requests/s "
                        f"{result['cpu'] * 1e6:7.1f} µs CPU/request",
                        flush=True,
                    )
            summarize(stack, results, modes)
            if args.perf:
                profiles = {}
                for mode in ["hand", args.perf] if args.perf != "hand" else ["hand"]:
                    profiled = profile(binaries[stack], mode, args.port, work, args)
                    if profiled:
                        profiles[mode] = profiled
                if profiles:
                    compare_profiles(stack, profiles)
                kept = ROOT / f".build-request-cost-perf-{stack}"
                kept.mkdir(exist_ok=True)
                for data in work.glob("perf-*.data"):
                    shutil.move(str(data), kept / data.name)
                print(f"perf data kept in {kept}")


if __name__ == "__main__":
    main()
