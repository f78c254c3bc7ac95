# A scratch PostgreSQL server for the catalogue's tests, sourced by .ci/run (bash).
#
#   pg_scratch_start   initdb a cluster in a temporary folder, start it on a free localhost
#                      port, create a role and a database, export NONOPRESS_TEST_POSTGRES_URL
#   pg_scratch_stop    stop the server and delete the folder (safe to call twice)
#
# Debian's `postgresql` package provides the binaries; run as root (the server runs as the
# `postgres` user) or as any other user (it then runs as that user).

pg_scratch_bin() {
    local bin
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$bin" ] && command -v pg_config >/dev/null 2>&1; then
        bin=$(pg_config --bindir)
    fi
    [ -n "$bin" ] && [ -x "$bin/initdb" ] || { echo "postgres.sh: no PostgreSQL binaries (apt-get install postgresql)" >&2; return 1; }
    echo "$bin"
}

pg_scratch_as() {  # run a command as the cluster's owner
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

pg_scratch_start() {
    local bin port
    bin=$(pg_scratch_bin) || return 1
    PG_SCRATCH_DIR=$(mktemp -d /tmp/nonopress-pg.XXXXXX)
    chmod 755 "$PG_SCRATCH_DIR"
    [ "$(id -u)" = 0 ] && chown postgres: "$PG_SCRATCH_DIR"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    pg_scratch_as "$bin/initdb" -D "$PG_SCRATCH_DIR/data" -U postgres --auth-local=trust \
        --auth-host=scram-sha-256 -E UTF8 >"$PG_SCRATCH_DIR/initdb.log" 2>&1 \
        || { cat "$PG_SCRATCH_DIR/initdb.log" >&2; return 1; }
    pg_scratch_as "$bin/pg_ctl" -D "$PG_SCRATCH_DIR/data" -l "$PG_SCRATCH_DIR/server.log" -w \
        -o "-p $port -k $PG_SCRATCH_DIR -c listen_addresses=127.0.0.1 -c fsync=off" start \
        >/dev/null || { cat "$PG_SCRATCH_DIR/server.log" >&2; return 1; }
    PG_SCRATCH_BIN=$bin
    pg_scratch_as "$bin/psql" -q -h "$PG_SCRATCH_DIR" -p "$port" -U postgres -d postgres \
        -c "CREATE ROLE nonopress LOGIN PASSWORD 'scratch'" \
        -c "CREATE DATABASE nonopress_test OWNER nonopress" >/dev/null || return 1
    export NONOPRESS_TEST_POSTGRES_URL="postgresql://nonopress:scratch@127.0.0.1:$port/nonopress_test"
    echo "postgres.sh: scratch PostgreSQL on 127.0.0.1:$port ($PG_SCRATCH_DIR)" >&2
}

pg_scratch_stop() {
    if [ -n "${PG_SCRATCH_DIR:-}" ] && [ -d "$PG_SCRATCH_DIR" ]; then
        pg_scratch_as "$PG_SCRATCH_BIN/pg_ctl" -D "$PG_SCRATCH_DIR/data" -m immediate -w stop \
            >/dev/null 2>&1 || true
        rm -rf "$PG_SCRATCH_DIR"
    fi
    PG_SCRATCH_DIR=
}
