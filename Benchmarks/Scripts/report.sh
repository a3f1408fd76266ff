#!/usr/bin/env bash
# Every measurement docs/benchmarks.md shows, from one commit, in the order of the document.
#
#   Benchmarks/Scripts/report.sh [--dry-run] [--only SECTION[,SECTION…]] [--skip SECTION[,SECTION…]]
#
# Each section's output goes to Benchmarks/.build/report/<commit>/<section>.txt and to standard
# output; the first file, machine.txt, names the commit, the toolchain and the machine. Copy the
# figures into the document's tables (each table names the section it comes from) and put the
# commit at the top of the document.
#
# Sections, in order (the document's tables):
#   resolve         instructions and mallocs per resolve, scenarios 1–5 (valgrind)
#   random-graph    the random graph: create, first use (valgrind)
#   resolve-again   every singleton of the random graph resolved again (valgrind)
#   observer        what one observer adds (callgrind)
#   children        child containers (valgrind)
#   scaling         time per resolve, one thread and two
#   perf            where two threads spend their samples (perf; skipped if perf is missing)
#   threads         2 and 8 threads: request scope and singleton
#   startup         start-up in a fresh process: time and heap, then instructions (callgrind)
#   concrete        ConcreteProtocols: 3,000 types, then a scratch copy with 30,000
#   macros          @Injectable against hand-written registrations (builds swift-syntax in release)
#   todo-server     the TodoServer under wrk (release build; needs wrk)
#   orders-server   the OrdersServer on a throwaway PostgreSQL (release build; needs initdb, wrk)
#
# The whole run takes hours on 2 cores: the release builds of the server examples and of the
# macros' benchmark, the callgrind runs of start-up and of the 30,000-type scan's alternative,
# and the wall-clock sections' repeats. Run it on a machine nobody else is using, from a clean
# working tree (a dirty tree is refused: the figures must belong to the commit they name).
# Needs valgrind (apt-get install -y valgrind); perf (apt-get install -y linux-perf) for `perf`;
# wrk, curl and PostgreSQL's initdb/pg_ctl for the servers.
set -euo pipefail
cd "$(dirname "$0")/../.."

sections=(resolve random-graph resolve-again observer children scaling perf threads startup concrete macros
    todo-server orders-server)
dry_run=""
only=""
skip=""
while (($#)); do
    case $1 in
        --dry-run) dry_run=1 ;;
        --only) only=",$2," && shift ;;
        --skip) skip=",$2," && shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' && exit 0 ;;
        *) echo "unknown argument: $1 (see --help)" >&2 && exit 2 ;;
    esac
    shift
done
for name in ${only//,/ } ${skip//,/ }; do
    [[ " ${sections[*]} " == *" $name "* ]] || { echo "no section named $name (see --help)" >&2 && exit 2; }
done

if [[ -z $dry_run && -n "$(git status --porcelain --untracked-files=no)" ]]; then
    echo "the working tree has changes: commit them first, so that the figures belong to a commit" >&2
    exit 1
fi
commit="$(git rev-parse --short HEAD)"
out="Benchmarks/.build/report/$commit"
[[ -n $dry_run ]] || mkdir -p "$out"

wanted() { [[ ( -z $only || $only == *",$1,"* ) && $skip != *",$1,"* ]]; }
# Runs a command (printed first), its output on standard output and appended to the section's file.
run() {
    echo "\$ $(printf '%q ' "$@")"
    [[ -n $dry_run ]] || "$@" 2>&1 | tee -a "$out/$section.txt"
}
begin() {
    section=$1
    echo
    echo "== $section"
    [[ -n $dry_run ]] || : >"$out/$section.txt"
}

section=machine
if [[ -z $dry_run ]]; then
    {
        echo "commit: $(git rev-parse HEAD) ($(git log -1 --format=%cd --date=short))"
        echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
        echo "toolchain: $(swift --version 2>&1 | head -n 1)"
        echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)," \
            "$(. /etc/os-release && echo "$PRETTY_NAME"), $(uname -m)"
        echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
    } | tee "$out/machine.txt"
fi

instructions() { run python3 Benchmarks/Scripts/instructions.py "$@"; }
scaling=Benchmarks/.build/release/graft-scaling
build_scaling() { run swift build --package-path Benchmarks -c release --product graft-scaling; }

if wanted resolve; then
    begin resolve
    instructions
fi
if wanted random-graph; then
    begin random-graph
    instructions --scenarios randomGraphCreate,randomGraphFirstUse --iterations 10,60 --malloc-iterations 5,25
fi
if wanted resolve-again; then
    begin resolve-again
    instructions --libraries dictionary,handwritten,graft,swinject,graftUnspecialized \
        --scenarios randomGraphResolveAgain,singleton --iterations 1000,6000 --malloc-iterations 100,600
fi
if wanted observer; then
    begin observer
    instructions --no-malloc --libraries graft,graftObserved
fi
if wanted children; then
    begin children
    instructions --libraries graft,swinject --scenarios childOf1000,childOf10000,child100Of1000,childOf1000InUse \
        --iterations 200,1200 --malloc-iterations 50,250
fi
if wanted scaling; then
    begin scaling
    build_scaling
    run "$scaling" 1 7
fi
if wanted perf; then
    begin perf
    if command -v perf >/dev/null; then
        build_scaling
        # The share of swift_retain + swift_release in the two-thread phase: the samples of the
        # two threads that start last (the highest thread ids).
        # graft-scaling's names: the loop, then the library ("handwritten, returned" is one name).
        for case in "graph|handwritten" "graph|graft" "mixed|handwritten" "mixed|handwritten, returned" \
            "mixed|graft" "requestScope|handwritten" "requestScope|graft"; do
            IFS='|' read -r loop library <<<"$case"
            data="$out/perf-$loop-${library//[, ]/}.data"
            if [[ -n $dry_run ]]; then echo "-- $loop, $library"; else echo "-- $loop, $library" | tee -a "$out/$section.txt"; fi
            run perf record -q -e cpu-clock -o "$data" "$scaling" 3 1 "$loop" "$library"
            [[ -n $dry_run ]] || perf script -F tid,ip,sym -i "$data" 2>/dev/null | python3 -c '
import sys
samples = [line.split() for line in sys.stdin if line.strip()]  # tid, ip, symbol
threads = sorted({int(fields[0]) for fields in samples})[-2:]
mine = [fields[2] if len(fields) > 2 else "" for fields in samples if int(fields[0]) in threads]
counted = sum(1 for sym in mine if sym in ("swift_retain", "swift_release"))
print(f"swift_retain + swift_release: {100 * counted / max(len(mine), 1):.1f}% of {len(mine)} samples (threads {threads})")
' | tee -a "$out/$section.txt"
        done
    else
        echo "perf is not installed: apt-get install -y linux-perf" | tee -a "$out/$section.txt"
    fi
fi
if wanted threads; then
    begin threads
    build_scaling
    # Three runs of each: with more threads than cores a single run moves by up to 40%.
    for _ in 1 2 3; do run "$scaling" 1 7 requestScope --threads 2,8; done
    for _ in 1 2 3; do run "$scaling" 1 7 singleton --threads 2,8; done
fi
if wanted startup; then
    begin startup
    run python3 Benchmarks/Scripts/startup.py --runs 7
    run python3 Benchmarks/Scripts/startup.py --callgrind
fi
if wanted concrete; then
    begin concrete
    run python3 Examples/ConcreteProtocols/Scripts/measure.py --runs 7
    run python3 Examples/ConcreteProtocols/Scripts/measure.py --callgrind
    run python3 Examples/ConcreteProtocols/Scripts/measure.py --types 30000 --runs 5
    run python3 Examples/ConcreteProtocols/Scripts/measure.py --types 30000 --callgrind --modes none,extension
fi
if wanted macros; then
    begin macros
    run python3 Integrations/GraftMacros/Benchmarks/Scripts/measure.py
fi
if wanted todo-server; then
    begin todo-server
    run Examples/TodoServer/Scripts/load.sh 6 4
    run env TODO_METRICS=off TODO_SOAK=off Examples/TodoServer/Scripts/load.sh 6 4
fi
if wanted orders-server; then
    begin orders-server
    run Examples/OrdersServer/Scripts/load.sh 5 5
    run env LOAD_SOAKS=3 Examples/OrdersServer/Scripts/load.sh
    run env LOAD_SOAKS=2 LOAD_SOAK_PATH=/bare/orders/1 Examples/OrdersServer/Scripts/load.sh
fi

echo
if [[ -n $dry_run ]]; then
    echo "dry run: nothing was run"
else
    echo "done: $out ($(ls "$out"/*.txt | wc -l) files), commit $commit"
fi
