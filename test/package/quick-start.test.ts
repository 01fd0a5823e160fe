// @weft-test: runtime
// The README's quick start as a new user runs it, outside this repository: `npm pack` both packages, install the
// tarballs into an empty app (weft-trace, and weft-server without optional dependencies, as a user whose native
// SQLite build failed), trace a function into a real server, then `npx weft calls show` and `npx weft calls export`
// (the SDK's `weft` bin forwarding to weft-server's CLI). The install is shared by the runs of a checkout (packed-app.ts:
// the same on every Node.js major); the program and the commands run on this run's Node.js.
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnTracked } from 'weft-test-kit/child-processes.js';
import { packedApp } from 'weft-test-kit/packed-app.js';
import { useTestServer } from 'weft-test-kit/server.js';

const run = promisify(execFile);
const server = useTestServer();
let app: string;

/** The quick start's program (README "Quick start", step 2), as the user saves it. */
const PROGRAM = `import { init, op, flush } from 'weft-trace';

init({ project: 'acme/quickstart' });

const shout = op(async function shout(text) {
  return text.toUpperCase();
});
const greet = op(async function greet(name) {
  return shout(\`hello \${name}\`);
});

await greet('ada');
const report = await flush();
console.log('sent', report.sent);
`;

beforeAll(async () => {
  // weft-server without optional dependencies: a user whose native SQLite build failed
  const packed = await packedApp({ workspaces: ['weft-trace', 'weft-server'], manifest: { name: 'my-app', private: true, type: 'module' }, installArgs: ['--omit=optional', '--prefer-offline'] });
  app = packed.dir;
  expect(packed.tarballs.sort()).toEqual(['weft-server-0.1.0.tgz', 'weft-trace-0.1.0.tgz']);
}, 300_000);

afterAll(() => rmSync(app, { recursive: true, force: true }));

/** `npx weft ...` in the app, with the server's URL and the project in the environment. */
function npx(args: string[], viaTty = false): Promise<{ code: number | null; out: string; err: string }> {
  const env = { ...process.env, WEFT_BASE_URL: server().url, WEFT_PROJECT: 'acme/quickstart', TERM: 'xterm', COLUMNS: '120' };
  const child = viaTty
    ? spawnTracked('script', ['-qec', ['npx', 'weft', ...args].join(' '), '/dev/null'], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawnTracked('npx', ['weft', ...args], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out, err })));
}

it('installs without the native SQLite module, traces a function, and shows and exports its trace with the CLI', async () => {
  expect(readdirSync(path.join(app, 'node_modules'))).not.toContain('better-sqlite3');
  writeFileSync(path.join(app, 'app.mjs'), PROGRAM);
  const traced = await run(process.execPath, ['app.mjs'], { cwd: app, env: { ...process.env, WEFT_BASE_URL: server().url }, timeout: 30_000 });
  expect(traced.stdout).toContain('sent 4');

  const list = await npx(['calls', 'ls', '--json', '--trace-roots']);
  expect(list.code).toBe(0);
  const [root] = JSON.parse(list.out) as Array<{ id: string; op_name: string }>;
  expect(root?.op_name).toBe('greet');

  // the three commands left read only the server (and export writes its own file): run at once
  const [show, exported, serve] = await Promise.all([
    npx(['calls', 'show', root!.id]),
    npx(['calls', 'export', '--out', 'calls.jsonl'], true),
    npx(['serve', '--port', '0']),
  ]);
  expect(show.code).toBe(0);
  expect(show.out).toMatch(/✓ greet\s+\S+ ms\n {2}✓ shout/);

  expect(exported.code).toBe(0);
  expect(exported.out).toMatch(/100% \| 2\/2 calls/);
  expect(readFileSync(path.join(app, 'calls.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);

  expect(serve.code).toBe(1);
  expect(serve.err).toMatch(/^weft serve: the better-sqlite3 package it stores into is not installed or not built here/m);
  expect(serve.err).toContain('npm install-scripts approve better-sqlite3'); // npm 11 (issue 24 item 11)
}, 120_000);
