// Runs examples/openai-agents.ts (an Agents SDK agent with a tool against the loopback fake) and checks its tree and usage.
import { expect, it } from 'vitest';
import { runExample } from 'weft-test-kit/examples.js';

it('examples/openai-agents.ts prints the run as one tree under the op and the usage of both model requests at the root', { timeout: 60_000 }, async () => {
  // NODE_ENV=test (vitest's) would make the Agents SDK trace nothing: the example runs as an application does
  const { code, stdout, stderr } = await runExample('examples/openai-agents.ts', [], { NODE_ENV: undefined, OPENAI_API_KEY: undefined });
  expect(code, stderr).toBe(0);
  const tree = stdout.split('\n').filter((l) => /^\s*✓ /.test(l)).map((l) => `${l.indexOf('✓') / 2}:${l.trim().split(/\s+/)[1]}`);
  expect(tree).toEqual([
    '0:ask',
    '1:openai.agents.trace',
    '2:openai.agents.task',
    '3:openai.agents.agent',
    '4:openai.agents.turn',
    '5:openai.agents.generation',
    '5:openai.agents.function',
    '4:openai.agents.turn',
    '5:openai.agents.generation',
  ]);
  expect(stdout).toMatch(/usage gpt-4o-mini-2024-07-18: \{"prompt_tokens":2400,"completion_tokens":160,.*"requests":2.*"cache_read_input_tokens":400/);
});
