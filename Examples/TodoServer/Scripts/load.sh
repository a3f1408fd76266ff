#!/usr/bin/env bash
# Load figures for docs/benchmarks.md: what the request scope costs on an empty route, as
# requests/s and as the server's CPU time per request, then a 100,000-request soak with resident
# memory sampled and every scope counted. Everything listens on 127.0.0.1 and every wrk run is
# bounded in time.
#
#   Examples/TodoServer/Scripts/load.sh [rounds] [seconds]
#
# Requests/s move with whatever else the machine runs; the CPU time the server spends per
# request (utime + stime from /proc/PID/stat around each run, divided by the requests wrk
# completed) moves much less, so the scope's cost is given both ways.
#
# TODO_CONFIGURATION=debug measures a debug build (quicker to build; slower to run).
# TODO_METRICS=off runs the server without its metrics observer, to see what that costs.
# TODO_SOAK=off skips the soak. TODO_BINARY=path runs that server instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds="${1:-3}"
seconds="${2:-10}"
port="${TODO_PORT:-18090}"
base="http://127.0.0.1:$port"
work="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

configuration="${TODO_CONFIGURATION:-release}"
binary="${TODO_BINARY:-}"  # a server built beforehand (to compare two builds), used as it is
if [[ -z "$binary" ]]; then
    swift build -c "$configuration" --product todo-server >/dev/null
    binary=".build/$configuration/todo-server"
fi
TODO_METRICS="${TODO_METRICS:-on}" TODO_PORT="$port" TODO_DATABASE="$work/todos.sqlite" "$binary" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -sf "$base/bare/ping" >/dev/null && break; sleep 0.1; done

rss() { awk '/VmRSS/ { print $2 " kB" }' "/proc/$server/status"; }
# The server's CPU time so far, all threads, in clock ticks (fields 14 and 15 of /proc/PID/stat).
ticks() { awk '{ print $14 + $15 }' "/proc/$server/stat"; }
tick_us="$(awk -v hz="$(getconf CLK_TCK)" 'BEGIN { print 1000000 / hz }')"
# One bounded wrk run on route $1: prints its requests/s and the server's CPU µs per request.
measure() {
    local before after
    before="$(ticks)"
    wrk -t2 -c32 -d"${seconds}s" "$base$1" >"$work/wrk.txt"
    after="$(ticks)"
    awk -v used="$((after - before))" -v tick="$tick_us" '
        /requests in/ { requests = $1 }
        /Requests\/sec/ { rate = $2 }
        END { printf "%.0f %.2f\n", rate, used * tick / requests }' "$work/wrk.txt"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "warm-up: $(measure /ping | cut -d' ' -f1) req/s"
# /empty is behind the middleware and resolves nothing: the scope alone. /bare/ping-closure
# answers like /bare/ping but with its body as a closure (head, body and end written apart), the
# shape the middleware gives each response on Hummingbird's plain server; no scope.
# TODO_ROUTES="/ping /bare/ping /bare/ping-closure" measures a server without /empty.
read -r -a routes <<<"${TODO_ROUTES:-/ping /empty /bare/ping /bare/ping-closure}"
echo "round  route               req/s   CPU µs/req"
for round in $(seq 1 "$rounds"); do
    # The order rotates, so no route always runs right after the same other one.
    for i in $(seq 0 $((${#routes[@]} - 1))); do
        route="${routes[$(((i + round) % ${#routes[@]}))]}"
        read -r rate cpu < <(measure "$route")
        echo "$rate $cpu" >>"$work/${route//\//_}"
        printf '%-6s %-19s %-7s %s\n' "$round" "$route" "$rate" "$cpu"
    done
done
# Per round, each route against /bare/ping of the same round: lost requests/s, extra CPU.
costs() {
    paste -d' ' "$work/$1" "$work/_bare_ping" | awk '{ printf "%.1f %.1f\n", ($3 - $1) / $3 * 100, ($2 - $4) / $4 * 100 }' >"$work/costs"
    echo "$2: $(cut -d' ' -f1 "$work/costs" | median)% fewer requests/s, $(cut -d' ' -f2 "$work/costs" | median)% more CPU per request" \
        "(medians of $rounds rounds; CPU µs/req $(cut -d' ' -f2 "$work/$1" | median) vs $(cut -d' ' -f2 "$work/_bare_ping" | median))"
}
for route in "${routes[@]}"; do
    case "$route" in
    /ping) costs _ping "scope and one scoped Disposable (/ping)" ;;
    /empty) costs _empty "scope alone (/empty)" ;;
    /bare/ping-closure) costs _bare_ping-closure "closure body alone (/bare/ping-closure)" ;;
    esac
done
[[ "${TODO_SOAK:-on}" == off ]] && { kill -TERM "$server"; wait "$server" || true; exit 0; }

# 100,000 requests: 2 threads stop after 50,000 responses each; -d bounds the run in time.
cat >"$work/count.lua" <<'LUA'
local done = 0
response = function()
    done = done + 1
    if done >= 50000 then wrk.thread:stop() end
end
LUA
before_stats="$(curl -s "$base/bare/stats")"
echo "RSS after warm-up: $(rss)   ($before_stats)"
wrk -t2 -c32 -d300s -s "$work/count.lua" "$base/ping" >"$work/soak-1.txt" &
soak=$!
sleep 5
echo "RSS during soak:   $(rss)"
wait "$soak"
echo "soak: $(awk '/requests in/ { print $1, $2, $3, $4 }' "$work/soak-1.txt")"
echo "RSS after soak:    $(rss)"
echo "$(curl -s "$base/bare/stats")"

kill -TERM "$server"
wait "$server" && echo "server exited cleanly on SIGTERM" || echo "server exited with $?"
