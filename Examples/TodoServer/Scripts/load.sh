#!/usr/bin/env bash
# Load figures for docs/benchmarks.md: requests/s with and without the request scope, then a
# 100,000-request soak with resident memory sampled and every scope counted. Everything listens
# on 127.0.0.1 and every wrk run is bounded in time.
#
#   Examples/TodoServer/Scripts/load.sh [rounds] [seconds]
#
# TODO_CONFIGURATION=debug measures a debug build (quicker to build; slower to run).
set -euo pipefail
cd "$(dirname "$0")/.."

rounds="${1:-3}"
seconds="${2:-10}"
port="${TODO_PORT:-18090}"
base="http://127.0.0.1:$port"
work="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

configuration="${TODO_CONFIGURATION:-release}"
swift build -c "$configuration" --product todo-server >/dev/null
TODO_PORT="$port" TODO_DATABASE="$work/todos.sqlite" ".build/$configuration/todo-server" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -sf "$base/bare/ping" >/dev/null && break; sleep 0.1; done

rss() { awk '/VmRSS/ { print $2 " kB" }' "/proc/$server/status"; }
rate() { wrk -t2 -c32 -d"${seconds}s" "$base$1" | awk '/Requests\/sec/ { print $2 }'; }

echo "warm-up: $(wrk -t2 -c32 -d5s "$base/ping" | awk '/Requests\/sec/ { print $2 }') req/s"
echo "round  /ping (scope)  /bare/ping (no scope)  scope cost"
for round in $(seq 1 "$rounds"); do
    with="$(rate /ping)"
    without="$(rate /bare/ping)"
    cost="$(awk -v a="$with" -v b="$without" 'BEGIN { printf "%.1f%%", (b - a) / b * 100 }')"
    echo "$round      $with       $without              $cost"
done

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
