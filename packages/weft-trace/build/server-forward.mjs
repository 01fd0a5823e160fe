// The last step of the root's build (package.json), after weft-server's, whose export names it reads (docs/packaging.md):
// `weft-trace/server`, a forwarder to weft-server (an optional peer of weft-trace), or one clear error when it is not
// installed. weft-server's build needs weft-trace's (it imports weft-trace/wire, ...), so this cannot run within it.
import { mkdirSync, writeFileSync } from 'node:fs';

const SERVER_EXPORTS = (await import('weft-server').then((m) => Object.keys(m))).sort();
const MISSING =
  "weft-trace/server moved to the weft-server package: run `npm install weft-server` and import from 'weft-server' (weft-trace/server forwards to it)";
const isMissing = `(err) => err && /MODULE_NOT_FOUND/.test(String(err.code)) && String(err.message).includes("'weft-server'")`;

/** `weft-trace/server`: weft-server's exports, or one clear error when it is not installed. */
function writeServerForward() {
  mkdirSync('dist/server', { recursive: true });
  const head = '// weft-trace/server: the server ships in weft-server (an optional peer of weft-trace).\n';
  writeFileSync(
    'dist/server/index.js',
    `${head}const isMissing = ${isMissing};
const server = await import('weft-server').catch((err) => { throw isMissing(err) ? new Error(${JSON.stringify(MISSING)}, { cause: err }) : err; });
export const { ${SERVER_EXPORTS.join(', ')} } = server;
`,
  );
  writeFileSync(
    'dist/server/index.cjs',
    `'use strict';
${head}const isMissing = ${isMissing};
try {
  module.exports = require('weft-server');
} catch (err) {
  throw isMissing(err) ? new Error(${JSON.stringify(MISSING)}, { cause: err }) : err;
}
`,
  );
  for (const ext of ['d.ts', 'd.cts']) writeFileSync(`dist/server/index.${ext}`, "export * from 'weft-server';\n");
}

writeServerForward();
