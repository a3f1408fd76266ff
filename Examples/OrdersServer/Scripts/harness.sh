# A throwaway PostgreSQL cluster and the server on it, for Scripts/acceptance and Scripts/load.sh
# (sourced by both).
#
# Before sourcing, set pg_port, http_port, grace, deadline, request_deadline and server_binary,
# and define fail().
# Sourcing makes a temporary folder, $work, and
# finds PostgreSQL's programs (initdb on PATH, or the newest /usr/lib/postgresql/*/bin). The
# cluster lives in $work/data, listens on 127.0.0.1:$pg_port only (not the default port), and
# has a database named orders. As root, PostgreSQL runs as the user postgres (initdb refuses
# root). The caller's EXIT trap calls cluster_remove.

# The folder initdb really is in (a link on PATH may point there), which has psql and pg_ctl too.
pg_bin="$(dirname "$(readlink -f "$(command -v initdb 2>/dev/null || echo /nonexistent)")")"
if [[ ! -x "$pg_bin/initdb" ]]; then
    pg_bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
fi
[[ -x "$pg_bin/initdb" && -x "$pg_bin/pg_ctl" ]] || fail "PostgreSQL's initdb and pg_ctl were not found"

work="$(mktemp -d)"
chmod 755 "$work"
as_postgres=()
if [[ $(id -u) == 0 ]]; then
    chown postgres "$work"
    as_postgres=(runuser -u postgres --)
fi
pg() { "${as_postgres[@]}" "$pg_bin/$1" "${@:2}"; }
psql_orders() { "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -d orders -At -c "$1"; }
pg_options="-p $pg_port -c listen_addresses=127.0.0.1 -k $work -c fsync=off -c full_page_writes=off"

# Makes the cluster, starts it and creates the database orders.
cluster_start() {
    pg initdb -D "$work/data" -U postgres --auth=trust --no-sync >"$work/initdb.log" 2>&1 || {
        cat "$work/initdb.log"
        fail "initdb"
    }
    pg pg_ctl -D "$work/data" -o "$pg_options" -l "$work/postgres.log" -w start >/dev/null
    "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres orders
}

# Stops PostgreSQL (fast: every session ended), leaving the cluster in place.
cluster_stop() {
    pg pg_ctl -D "$work/data" -m fast -w stop >/dev/null
}

# Restarts PostgreSQL the way an operator would: fast shutdown (every session ended), then start.
cluster_restart() {
    pg pg_ctl -D "$work/data" -o "$pg_options" -l "$work/postgres.log" -m fast -w restart >/dev/null
}

# Stops PostgreSQL at once and removes the folder (kept, and named, with ACCEPTANCE_KEEP set).
cluster_remove() {
    pg pg_ctl -D "$work/data" -m immediate stop >/dev/null 2>&1 || true
    if [[ -n ${ACCEPTANCE_KEEP:-} ]]; then echo "kept $work"; else rm -rf "$work"; fi
}

# Starts the server on 127.0.0.1:$http_port against the cluster, its output appended to
# $work/server.log; its process id is in $server.
launch_server() {
    ORDERS_PORT=$http_port ORDERS_DATABASE_PORT=$pg_port ORDERS_GRACE_PERIOD=$grace ORDERS_DEADLINE=$deadline \
        ORDERS_REQUEST_DEADLINE=$request_deadline "$server_binary" >>"$work/server.log" 2>&1 &
    server=$!
}

# Launches the server and waits until GET /health answers 200: until the container has started.
start_server() {
    launch_server
    for _ in $(seq 1 150); do
        curl -sf "127.0.0.1:$http_port/health" >/dev/null && return 0
        kill -0 "$server" 2>/dev/null || fail "the server exited while starting"
        sleep 0.2
    done
    fail "the server did not answer within 30 s"
}
