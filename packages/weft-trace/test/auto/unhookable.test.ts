// What the no-code route cannot hook is said once, with the explicit wrapper to use: a library required before
// instrument(), and libraries bundled into the app with weft itself (esbuild, everything inlined).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../../..');
const base = path.join(ROOT, 'node_modules', '.cache', 'weft-register-apps');
mkdirSync(base, { recursive: true });
const dir = mkdtempSync(path.join(base, 'unhookable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { ...process.env, WEFT_DISABLED: 'true', NODE_OPTIONS: '' };

/** Runs `file` with node, returns its stderr lines from weft. */
async function weftLines(file: string): Promise<string[]> {
  const { stderr } = await run(process.execPath, [file], { cwd: dir, env, timeout: 30_000 });
  return stderr.split('\n').filter((l) => l.startsWith('[weft]'));
}

it('a library required before instrument() is named once, with its wrapper; one required after is traced', async () => {
  const file = path.join(dir, 'early.cjs');
  writeFileSync(
    file,
    `const OpenAI = require('openai');
const { instrument } = require('weft-trace/instrument');
instrument().then(() => {
  const Anthropic = require('@anthropic-ai/sdk');
  const early = new OpenAI({ apiKey: 'x' })[Symbol.for('weft.wrappedClient')] === true;
  const late = new Anthropic({ apiKey: 'x' })[Symbol.for('weft.wrappedClient')] === true;
  return instrument().then(() => console.error('[weft] probe', early, late));
});`,
  );
  const lines = await weftLines(file);
  expect(lines.filter((l) => l.includes('openai was loaded before'))).toHaveLength(1);
  expect(lines.find((l) => l.includes('openai was loaded before'))).toContain('wrapOpenAI(new OpenAI())');
  expect(lines).toContain('[weft] probe false true');
});

it('weft bundled into the app (and the SDKs with it) says once that they cannot be hooked, naming the wrappers', async () => {
  const entry = path.join(dir, 'bundled-entry.mjs');
  writeFileSync(entry, "import { instrument } from 'weft-trace/instrument';\nimport OpenAI from 'openai';\nawait instrument();\nawait instrument({ only: ['openai'] });\nconsole.error('[weft] probe', new OpenAI({ apiKey: 'x' })[Symbol.for('weft.wrappedClient')] === true);\n");
  const out = path.join(dir, 'bundle.mjs');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'silent', banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" } });
  const lines = await weftLines(out);
  const said = lines.filter((l) => l.includes('runs from a bundle'));
  expect(said).toHaveLength(1);
  expect(said[0]).toContain('wrapOpenAI(new OpenAI())');
  expect(lines).toContain('[weft] probe false');
});
