// @weft-test: runtime
// `node -r weft-trace/register`: Node runs `-r` preloads in the module loader's thread too (the one module.register
// starts for import-in-the-middle), and the main thread waits for it; the SDK is loaded on the main thread only
// (src/register-require.ts). A probe preloaded after it lists the files of weft-trace's build each thread loaded.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'weft-register-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PROBE = `const path = require('node:path');
const { isMainThread } = require('node:worker_threads');
const weft = Object.keys(require.cache).filter((f) => f.includes(path.join('weft-trace', 'dist') + path.sep)).map((f) => path.basename(f));
process._rawDebug('PROBE ' + JSON.stringify({ main: isMainThread, weft }));
`;

it('loads the SDK on the main thread only: the module loader\'s thread loads the register entry and nothing more', async () => {
  const probe = path.join(dir, 'probe.cjs');
  writeFileSync(probe, PROBE);
  const env = { ...process.env, WEFT_DISABLED: 'true', NODE_OPTIONS: '' };
  const { stderr } = await run(process.execPath, ['-r', 'weft-trace/register', '-r', probe, '-e', 'setTimeout(() => {}, 100)'], { env, timeout: 30_000 });
  const threads = stderr.split('\n').filter((l) => l.startsWith('PROBE ')).map((l) => JSON.parse(l.slice(6)) as { main: boolean; weft: string[] });
  const main = threads.filter((t) => t.main);
  const loader = threads.filter((t) => !t.main);
  expect(main).toHaveLength(1);
  expect(main[0]!.weft).toContain('auto-start.cjs');
  // the loader's thread exists (the register route hooks import()) and ran the preloads
  expect(loader.length).toBeGreaterThanOrEqual(1);
  for (const t of loader) {
    expect(t.weft).toContain('register.cjs');
    expect(t.weft, 'weft-trace files loaded by the module loader\'s thread').not.toContain('auto-start.cjs');
    expect(t.weft.length, t.weft.join(', ')).toBeLessThanOrEqual(2);
  }
});
