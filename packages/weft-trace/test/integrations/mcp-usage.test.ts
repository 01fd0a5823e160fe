// An MCP tool in a child process (stdio, the real @modelcontextprotocol/sdk) calling a wrapped OpenAI model: the client process's root counts its request, tokens and calls, as stream_query and `weft calls ls` show them.
import { expect, it } from 'vitest';
import { flush, init, op } from '../../src/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { spawnCli } from 'weft-test-kit/child-processes.js';
import { useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { OPENAI_USAGE } from 'weft-test-kit/fake-llm-openai.js';
import { mcpChild } from 'weft-test-kit/mcp-child.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const llm = useFakeLlm();

/** What `weft calls ls --trace-roots` (the built CLI) prints for `project`. */
async function lsRoots(project: string): Promise<string> {
  const child = spawnCli(['calls', 'ls', '--base-url', server().url, '--project', project, '--trace-roots'], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  expect(code).toBe(0);
  return out;
}

it('the root in the client process counts the child process\'s model request, tokens, cost and calls', async () => {
  const project = uniqueProject('mcp-usage');
  init({ project, baseUrl: server().url, flushIntervalMs: 50 });
  const child = await mcpChild(server().url, project, { OPENAI_BASE_URL: llm().openaiURL });
  let answer: unknown;
  try {
    await op(async function agent() {
      await child.connect();
      answer = await child.client.callTool({ name: 'ask', arguments: { question: 'Weather in Oslo?' } });
    })();
  } finally {
    await child.close(); // the child flushes at exit
  }
  expect((await flush()).dropped).toBe(0);
  expect(answer).toMatchObject({ content: [{ type: 'text' }] });
  const calls = await readCalls(server().url, project, { include_costs: true });
  const model = one(calls, 'openai.chat.completions.create');
  const usage = { 'gpt-4o-mini-2024-07-18': expect.objectContaining({ prompt_tokens: OPENAI_USAGE.prompt_tokens, completion_tokens: OPENAI_USAGE.completion_tokens, requests: 1 }) };
  expect(model.summary?.usage).toEqual(usage);
  const root = calls.find((c) => c.parent_id === undefined || c.parent_id === null) as CallRecord;
  expect(root.op_name).toBe('agent');
  for (const c of [root, one(calls, 'mcp.callTool'), one(calls, 'mcp.server.callTool')]) {
    expect(c.summary?.usage, c.op_name).toEqual(usage);
  }
  // every call of the trace, whichever process sent it
  expect(calls.map((c) => c.op_name).sort()).toEqual(['agent', 'mcp.callTool', 'mcp.server.callTool', 'openai.chat.completions.create']);
  expect(root.summary?.status_counts).toMatchObject({ success: calls.length, error: 0 });
  // the viewer's trace header and `weft calls ls` read the root's summary and costs of this very query
  const cost = (c: CallRecord) => c.summary?.costs?.['gpt-4o-mini-2024-07-18']?.total_cost;
  expect(cost(root)).toBeGreaterThan(0);
  expect(cost(root)).toBe(cost(model));
  const row = (await lsRoots(project)).split('\n').find((l) => l.includes(root.id));
  expect(row).toMatch(new RegExp(`agent\\s+success\\s+[\\d.,]+ m?s\\s+${OPENAI_USAGE.total_tokens.toLocaleString('en-US')}\\s+\\$`));
});
