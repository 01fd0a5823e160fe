// Runs examples/langgraph-mcp-agent.ts (a LangGraph agent on ChatOpenAI over a wrapped client, its tool an MCP server in a child process that asks
// a wrapped model) against this file's server, and checks the one tree both processes recorded and the usage of each model call.
import { expect, it } from 'vitest';
import type { CallRecord } from 'weft-trace';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { runExample } from 'weft-test-kit/examples.js';
import { useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer();

/** One request's usage as the loopback fake answers it (OPENAI_USAGE), keyed by the model it says it served. */
const ONE = { 'gpt-4o-mini-2024-07-18': { prompt_tokens: 1200, input_tokens: 1200, completion_tokens: 80, output_tokens: 80, total_tokens: 1280, requests: 1, cache_read_input_tokens: 200, reasoning_tokens: 30 } };
const usageOf = (c: CallRecord): unknown => c.summary?.usage;

it('examples/langgraph-mcp-agent.ts: one tree across both processes, each model request under its model run, usage per call', async () => {
  const project = uniqueProject('langgraph-mcp');
  const { code, stdout, stderr } = await runExample('examples/langgraph-mcp-agent.ts', [], { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, WEFT_BASE_URL: server().url, WEFT_PROJECT: project, WEFT_DISABLED: undefined });
  expect(code, stderr).toBe(0);
  expect(stdout).toContain('answer: w0 w1 w2 w3 w4');
  expect(stdout).toContain('Trace 1/1 ');
  const tree = stdout.split('\n').filter((l) => /^\s*✓ /.test(l)).map((l) => l.trimEnd().replace(/\s+<?\d+ ms$/, ''));
  expect(tree).toEqual([
    '✓ ask',
    '  ✓ langchain.chain.LangGraph',
    '    ✓ langgraph.node.agent',
    '      ✓ langchain.chat_model.ChatOpenAI',
    '        ✓ openai.chat.completions.create',
    '      ✓ langchain.chain.RunnableLambda', // toolsCondition, the conditional edge
    '    ✓ langgraph.node.tools',
    '      ✓ langchain.tool.get_weather',
    '        ✓ mcp.callTool',
    '          ✓ mcp.server.callTool', // the child process's calls from here down
    '            ✓ openai.chat.completions.create',
    '    ✓ langgraph.node.agent',
    '      ✓ langchain.chat_model.ChatOpenAI',
    '        ✓ openai.chat.completions.create',
    '      ✓ langchain.chain.RunnableLambda',
  ]);

  // what both processes sent, read back: one trace, one root, every other call's parent in it, all ended
  const calls = await readCalls(server().url, project);
  expect(new Set(calls.map((c) => c.trace_id)).size).toBe(1);
  const ids = new Set(calls.map((c) => c.id));
  expect(calls.filter((c) => !c.parent_id).map((c) => c.op_name)).toEqual(['ask']);
  expect(calls.filter((c) => c.parent_id && !ids.has(c.parent_id)), 'orphans').toEqual([]);
  expect(calls.filter((c) => !c.ended_at)).toEqual([]);

  // each model request counted once, in its own call: the three requests (two by the agent's model, one by the tool in the child process)
  const byId = new Map(calls.map((c) => [c.id, c]));
  const requests = calls.filter((c) => c.op_name === 'openai.chat.completions.create');
  expect(requests.map((r) => byId.get(r.parent_id!)!.op_name).sort()).toEqual(['langchain.chat_model.ChatOpenAI', 'langchain.chat_model.ChatOpenAI', 'mcp.server.callTool']);
  for (const r of requests) expect(usageOf(r)).toEqual(ONE);
  for (const m of calls.filter((c) => c.op_name === 'langchain.chat_model.ChatOpenAI')) expect(usageOf(m), 'the model run has its request\'s usage, not its own beside it').toEqual(ONE);
  // the root's totals are the sum over both processes (issue 48, seam 2: the server adds the child process's calls up)
  const root = calls.find((c) => !c.parent_id)!;
  const model = ONE['gpt-4o-mini-2024-07-18'];
  const three = Object.fromEntries(Object.entries(model).map(([k, v]) => [k, v * 3]));
  expect(usageOf(root), 'three requests at the root: two by the agent, one in the child process').toEqual({ 'gpt-4o-mini-2024-07-18': three });
  expect(root.summary?.status_counts).toEqual({ success: calls.length, error: 0 });
}, 65_000);
