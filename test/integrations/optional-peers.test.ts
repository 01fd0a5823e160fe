// The SDKs and frameworks are optional peers: the built weft (ESM and CJS) loads and exports the wrappers and WeftExporter with openai, @anthropic-ai/sdk, ai and Mastra unresolvable.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const SDKS = ['openai', '@anthropic-ai/sdk', 'ai', '@mastra/core', '@mastra/observability'];

it('require()s the CommonJS build and gets the wrappers while the SDKs cannot be resolved', async () => {
  const script = `const Module = require('module'); const resolve = Module._resolveFilename;
    Module._resolveFilename = function (name, ...rest) { if (${JSON.stringify(SDKS)}.includes(name)) throw new Error('blocked ' + name); return resolve.call(this, name, ...rest); };
    const w = require('weft-trace'); console.log([typeof w.wrapOpenAI, typeof w.wrapAnthropic, typeof w.wrapAISDK, typeof w.WeftExporter].join(','));`;
  const { stdout } = await run(process.execPath, ['-e', script], { timeout: 30_000 });
  expect(stdout.trim()).toBe('function,function,function,function');
});

it('the ESM and CJS builds import no SDK', async () => {
  for (const file of ['dist/index.js', 'dist/index.cjs']) {
    const code = await readFile(file, 'utf8');
    for (const sdk of SDKS) {
      expect(code).not.toMatch(new RegExp(`(from|import\\(|require\\()\\s*["']${sdk.replace('/', '\\/')}["']`));
    }
  }
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', "const w = await import('weft-trace'); console.log(typeof w.wrapOpenAI);"], { timeout: 30_000 });
  expect(stdout.trim()).toBe('function');
});
