// examples/trace-to-test, the path of docs/evaluations.md "A trace becomes a test", run whole: the agent with its bug
// answers wrongly in a traced "production" run against a loopback fake; `weft calls cassette` writes the trace's model
// calls beside a copy of the eval; the eval fails in a child vitest replaying them (CI, fake stopped); the example as
// committed (the fix, and the cassette the command writes, byte for byte) passes. The child vitest uses the built weft-trace.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { listenLoopback, onJsonRequest } from 'weft-test-kit/fake-llm.js';
import { spawnTracked } from 'weft-test-kit/child-processes.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';
import { cassetteCommand } from '../../src/cli/calls-cassette.js';

const server = useTestServer();
const EXAMPLE = fileURLToPath(new URL('../../../../examples/trace-to-test/', import.meta.url));
const CASSETTE = '__llm_cache__/calculator-agent.eval.test.ts.jsonl';
/** The example as production ran it, before the fix (`docs/evaluations.md` shows the change). */
const BUGGY = join(EXAMPLE, `tmp-before-fix-${process.pid}`);
const FIXED_LINE = '  return Number(answer);';
const BUGGY_LINE = '  return Number.parseInt(answer); // reads "3.5" as 3';
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(BUGGY, { recursive: true, force: true });
});

type Obj = Record<string, unknown>;

/** A fake OpenAI calculator model: asks for `calculator` on the question's arithmetic, then answers the tool's result. */
function calculatorModel(body: Obj): Obj {
  const messages = body['messages'] as Obj[];
  const last = messages.at(-1)!;
  const expression = /-?\d+(\.\d+)?\s*[-+*/]\s*-?\d+(\.\d+)?/.exec(String(messages[0]!['content']))?.[0] ?? '';
  const message =
    last['role'] === 'tool'
      ? { role: 'assistant', content: String(last['content']), refusal: null }
      : { role: 'assistant', content: null, refusal: null, tool_calls: [{ id: 'call_calc_1', type: 'function', function: { name: 'calculator', arguments: JSON.stringify({ expression }) } }] };
  const finish = last['role'] === 'tool' ? 'stop' : 'tool_calls';
  return { id: `chatcmpl-calc-${messages.length}`, object: 'chat.completion', created: 1_763_900_000, model: 'gpt-4o-mini-2024-07-18', choices: [{ index: 0, message, logprobs: null, finish_reason: finish }], usage: { prompt_tokens: 60, completion_tokens: 12, total_tokens: 72 } };
}

/** Runs the example's evals under `root` in a child vitest, in CI (replaying) with the provider's address closed. */
async function childEval(root: string): Promise<{ code: unknown; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', NO_COLOR: '1', WEFT_PROJECT: uniqueProject('trace-to-test'), WEFT_BASE_URL: server().url, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
  for (const k of Object.keys(env)) if (k.startsWith('VITEST') || k === 'WEFT_LLM_CACHE' || k === 'WEFT_LLM_CACHE_DIR' || k === 'OPENAI_API_KEY') delete env[k];
  const vitest = join(EXAMPLE, '../../node_modules/vitest/vitest.mjs');
  const child = spawnTracked(process.execPath, [vitest, 'run', '--root', root], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const code = await new Promise((resolve) => child.once('close', resolve));
  return { code, out };
}

describe('examples/trace-to-test: a failing production trace becomes a failing eval, and passes once fixed', () => {
  it('production answers 3 for 7 / 2; its cassette replays the failure; the fixed example passes', { timeout: 120_000 }, async () => {
    // the app as production ran it: the committed example with the fix undone
    const agent = readFileSync(join(EXAMPLE, 'calculator-agent.ts'), 'utf8');
    expect(agent).toContain(FIXED_LINE);
    mkdirSync(BUGGY, { recursive: true });
    writeFileSync(join(BUGGY, 'calculator-agent.ts'), agent.replace(FIXED_LINE, BUGGY_LINE));
    for (const f of ['calculator-agent.eval.test.ts', 'vitest.config.mjs']) cpSync(join(EXAMPLE, f), join(BUGGY, f));

    // 1. production: traced against the fake
    const fake = await listenLoopback(onJsonRequest((_req, res, _path, _query, body) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_calc' });
      res.end(JSON.stringify(calculatorModel(body ?? {})));
    }));
    vi.stubEnv('WEFT_LLM_CACHE', 'off');
    vi.stubEnv('OPENAI_BASE_URL', `${fake.url}/v1`);
    vi.stubEnv('OPENAI_API_KEY', 'sk-production');
    let answer: unknown;
    let calls;
    try {
      const { calculatorAgent } = (await import(join(BUGGY, 'calculator-agent.ts'))) as { calculatorAgent(q: string): Promise<number> };
      calls = await traced(server(), 'trace-to-test-prod', async () => (answer = await calculatorAgent('What is 7 / 2?')));
    } finally {
      await fake.close();
    }
    expect(answer).toBe(3);
    const root = one(calls, 'calculatorAgent');

    // 2. its model calls as the cassette beside the eval
    let stdout = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => ((stdout += String(c)), true));
    try {
      await cassetteCommand().exitOverride().parseAsync([root.id, '--out', join(BUGGY, CASSETTE), '--base-url', server().url, '--project', root.project_id], { from: 'user' });
    } finally {
      spy.mockRestore();
    }
    expect(stdout).toBe(`wrote 2 model calls to ${join(BUGGY, CASSETTE)}\n`);
    // the example commits the very file the command writes
    expect(readFileSync(join(BUGGY, CASSETTE), 'utf8')).toBe(readFileSync(join(EXAMPLE, CASSETTE), 'utf8'));

    // 3. the eval replays production's answers and fails as production did
    const failing = await childEval(BUGGY);
    expect(failing.code, failing.out).not.toBe(0);
    expect(failing.out).toContain('exact_match = false < 1; output: 3');
    expect(failing.out).not.toContain('llm_cache_miss');

    // 4. the fix: the example as committed passes on the same cassette
    const passing = await childEval(EXAMPLE);
    expect(passing.code, passing.out).toBe(0);
    expect(passing.out).toContain('weft eval "calculator-regressions": 1 rows, exact_match 1,');
  });
});
