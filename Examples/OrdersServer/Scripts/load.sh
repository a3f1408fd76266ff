#!/usr/bin/env bash
# Load figures for docs/benchmarks.md, against a throwaway PostgreSQL cluster (Scripts/harness.sh):
#
#   1. requests/s through the request scope, GET /orders/:id (a scope, a connection leased from
#      withConnection, BEGIN, one SELECT, COMMIT in the completion step), against GET
#      /bare/orders/:id (the same database work written by hand, no Graft), in alternating
#      bounded wrk rounds, with the median of each;
#   2. resident memory (VmRSS) before, during and after 100,000 requests to GET /orders/:id;
#   3. milliseconds from SIGTERM to exit, under load with a request in flight (exit 0), and with a
#      request stuck in pg_sleep (grace period 3 s, deadline 1 s: exit 1).
#
#   Examples/OrdersServer/Scripts/load.sh [rounds] [seconds]
#
# LOAD_SOAKS=N measures only memory instead: N soaks of 100,000 requests in a fresh server, to
# LOAD_SOAK_PATH (/orders/:id unless given; /bare/orders/1 for the baseline).
#
# Builds the release configuration once (ORDERS_CONFIGURATION=debug for a debug build). Everything
# listens on 127.0.0.1; every wrk run is bounded in time, and the soak in count too. Needs what the
# acceptance script needs: PostgreSQL's initdb and pg_ctl, curl and wrk.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-5}"
seconds="${2:-5}"
configuration="${ORDERS_CONFIGURATION:-release}"
server_binary="$here/.build/$configuration/orders-server"
http_port="${LOAD_HTTP_PORT:-18091}"
pg_port="${LOAD_PG_PORT:-54330}"
grace=3
deadline=1
request_deadline=30
url="http://127.0.0.1:$http_port"
fail() {
    echo "load FAILED: $1" >&2
    [[ -f "${work:-}/server.log" ]] && tail -n 20 "$work/server.log" >&2
    exit 1
}

swift build -c "$configuration" --package-path "$here" --product orders-server >/dev/null
source "$(dirname "$0")/harness.sh"
server=""
cleanup() {
    if [[ -n $server ]] && kill -0 "$server" 2>/dev/null; then kill -KILL "$server" 2>/dev/null || true; fi
    cluster_remove
}
trap cleanup EXIT
cluster_start
start_server

post() { curl -s --max-time "${2:-10}" -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' -d "$1" "$url/orders"; }
[[ "$(post '{"item": "tyres", "quantity": 4}')" == 201 ]] || fail "POST /orders"
id="$(psql_orders "SELECT max(id) FROM orders")"
rate() { wrk -t2 -c8 -d"${seconds}s" "$url$1" | awk '/Requests\/sec/ { printf "%d", $2 }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
rss() { awk '/VmRSS/ { print $2 }' "/proc/$server/status"; }

# 100,000 requests to $1: two wrk threads stop after 50,000 responses each and say so in a file;
# wrk's main thread sleeps out its -d bound whatever its threads do, so SIGINT ends it once both
# have. VmRSS is sampled into $work/during every 2 s; wrk's report is in $work/soak.txt.
soak() {
    cat >"$work/count.lua" <<LUA
local done = 0
response = function()
    done = done + 1
    if done == 50000 then
        local stopped = io.open("$work/stopped", "a")
        stopped:write("stopped\\n")
        stopped:close()
        wrk.thread:stop()
    end
end
LUA
    : >"$work/stopped"
    : >"$work/during"
    wrk -t2 -c8 -d600s -s "$work/count.lua" "$url$1" >"$work/soak.txt" &
    local load=$!
    while kill -0 "$load" 2>/dev/null; do
        rss >>"$work/during"
        (($(wc -l <"$work/stopped") < 2)) || kill -INT "$load" 2>/dev/null || true
        sleep 2
    done
    wait "$load" || true
}

# LOAD_SOAKS=N: only memory, in a fresh server: N soaks to LOAD_SOAK_PATH (/orders/:id unless
# given, e.g. /bare/orders/1), VmRSS after start and after each.
if [[ -n ${LOAD_SOAKS:-} ]]; then
    path="${LOAD_SOAK_PATH:-/orders/$id}"
    echo "VmRSS after start: $(rss) kB"
    for k in $(seq 1 "$LOAD_SOAKS"); do
        soak "$path"
        echo "VmRSS after soak $k (100,000 requests to $path): $(rss) kB"
    done
    exit 0
fi

echo "warm-up: $(rate "/orders/$id") req/s through the scope, $(rate "/bare/orders/$id") req/s bare"
echo
echo "| round | \`/orders/:id\` (Graft), req/s | \`/bare/orders/:id\` (hand-written), req/s | Graft / hand-written |"
echo "|---|---:|---:|---:|"
: >"$work/with"
: >"$work/without"
for round in $(seq 1 "$rounds"); do
    with="$(rate "/orders/$id")"
    without="$(rate "/bare/orders/$id")"
    echo "$with" >>"$work/with"
    echo "$without" >>"$work/without"
    echo "| $round | $with | $without | $(awk -v a="$with" -v b="$without" 'BEGIN { printf "%.3f", a / b }') |"
done
with="$(median <"$work/with")"
without="$(median <"$work/without")"
echo "| median | $with | $without | $(awk -v a="$with" -v b="$without" 'BEGIN { printf "%.3f", a / b }') |"

before="$(rss)"
soak "/orders/$id"
after="$(rss)"
echo
echo "| resident memory (VmRSS), kB | |"
echo "|---|---:|"
echo "| before the soak (after the rounds above) | $before |"
echo "| during: lowest – highest of $(wc -l <"$work/during") samples, one each 2 s | $(sort -n "$work/during" | head -n 1) – $(sort -n "$work/during" | tail -n 1) |"
echo "| after | $after |"
echo
echo "soak: $(awk '/requests in/ { print $1, $2, $3, $4 }' "$work/soak.txt"), $(awk '/Requests\/sec/ { print $2 }' "$work/soak.txt") req/s$(grep -E 'Non-2xx|Socket errors' "$work/soak.txt" | tr -s ' ' | sed 's/^/; /' | tr -d '\n')"

# SIGTERM to exit, three times each: sets ms (from the signal to the exit) and code (its status).
stop_server() {
    local signalled
    signalled="$(now_ms)"
    kill -TERM "$server"
    code=0
    wait "$server" || code=$?
    ms=$(($(now_ms) - signalled))
    server=""
}
echo
echo "| SIGTERM to exit | ms | exit status |"
echo "|---|---:|---:|"
stop_server
echo "| idle, after the soak | $ms | $code |"
for _ in 1 2 3; do
    start_server
    wrk -t2 -c8 -d4s "$url/orders/$id" >/dev/null 2>&1 &
    load=$!
    # In flight when the signal comes: the database sleeps 1 s before inserting.
    post '{"item": "in flight", "quantity": 1, "delay": 1}' 20 >"$work/in-flight" &
    in_flight=$!
    sleep 0.5
    stop_server
    wait "$in_flight" || true
    wait "$load" || true
    echo "| under wrk load, a request in flight (answered $(cat "$work/in-flight")) | $ms | $code |"
done
for _ in 1 2 3; do
    start_server
    post '{"item": "stuck", "quantity": 1, "delay": 60}' 30 >/dev/null &
    stuck=$!
    sleep 0.5
    stop_server
    kill "$stuck" 2>/dev/null || true
    wait "$stuck" 2>/dev/null || true
    echo "| a request stuck in pg_sleep(60), grace period $grace s, deadline $deadline s | $ms | $code |"
done
