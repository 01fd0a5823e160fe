// The SDKs, frameworks and vitest are optional peers: the built weft (ESM and CJS) loads and exports the wrappers (and the ai 7 telemetry integration)
// with openai, @anthropic-ai/sdk, ai, @modelcontextprotocol/sdk, @google/genai, the OpenAI Agents SDK, Mastra, the Claude Agent SDK, the Bedrock Runtime client and vitest unresolvable, imports no framework, and
// the framework entry points (weft-trace/langchain) import theirs (not bundled).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const SDKS = ['openai', '@anthropic-ai/sdk', 'ai', '@modelcontextprotocol/sdk', '@langchain/core', '@google/genai', '@mastra/core', '@mastra/observability', 'vitest', '@openai/agents', '@openai/agents-core', '@openai/agents-openai', '@anthropic-ai/claude-agent-sdk', '@aws-sdk/client-bedrock-runtime'];

it('require()s the CommonJS build and gets the wrappers and integrations while the SDKs cannot be resolved', async () => {
  const script = `const Module = require('module'); const resolve = Module._resolveFilename;
    Module._resolveFilename = function (name, ...rest) { if (${JSON.stringify(SDKS)}.some((s) => name === s || name.startsWith(s + '/'))) throw new Error('blocked ' + name); return resolve.call(this, name, ...rest); };
    const w = require('weft-trace'); console.log([typeof w.wrapOpenAI, typeof w.wrapAnthropic, typeof w.wrapAISDK, typeof w.wrapMCPClient, typeof w.wrapMCPServer, typeof w.wrapGoogleGenAI, typeof w.aiSDKTelemetry().onStart, typeof new w.WeftTracingProcessor().onSpanStart, typeof w.WeftExporter, typeof w.wrapClaudeAgentQuery, typeof w.wrapBedrock].join(','));`;
  const { stdout } = await run(process.execPath, ['-e', script], { timeout: 30_000 });
  expect(stdout.trim()).toBe('function,function,function,function,function,function,function,function,function,function,function');
});

/** An import of `pkg` or one of its subpaths, in ESM or CommonJS. */
const importOf = (pkg: string): RegExp => new RegExp(`(from|import\\(|require\\()\\s*["']${pkg.replace('/', '\\/')}(\\/[^"']*)?["']`);

it('the ESM and CJS builds import no SDK or framework', async () => {
  for (const file of ['packages/weft-trace/dist/index.js', 'packages/weft-trace/dist/index.cjs']) {
    const code = await readFile(file, 'utf8');
    for (const sdk of SDKS) expect(code).not.toMatch(importOf(sdk));
  }
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', "const w = await import('weft-trace'); console.log(typeof w.wrapOpenAI, typeof w.WeftTracingProcessor);"], { timeout: 30_000 });
  expect(stdout.trim()).toBe('function function');
});

it('weft-trace/langchain imports @langchain/core (not bundled) and loads from both builds', async () => {
  for (const file of ['packages/weft-trace/dist/langchain/index.js', 'packages/weft-trace/dist/langchain/index.cjs']) expect(await readFile(file, 'utf8')).toMatch(importOf('@langchain/core'));
  const cjs = `const l = require('weft-trace/langchain'); console.log([typeof l.WeftTracer, typeof l.registerWeftTracer].join(','));`;
  expect((await run(process.execPath, ['--no-experimental-require-module', '-e', cjs], { timeout: 30_000 })).stdout.trim()).toBe('function,function');
  const esm = "const l = await import('weft-trace/langchain'); console.log(typeof new l.WeftTracer().handleChainStart);";
  expect((await run(process.execPath, ['--input-type=module', '-e', esm], { timeout: 30_000 })).stdout.trim()).toBe('function');
});
