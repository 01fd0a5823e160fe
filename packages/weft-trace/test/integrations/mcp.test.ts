// wrapMCPClient and wrapMCPServer with the real @modelcontextprotocol/sdk: in one process (InMemoryTransport) and across two on stdio, one tree joined through params._meta.traceparent.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { flush, init, op, wrapMCPClient, wrapMCPServer } from '../../src/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { mcpChild } from 'weft-test-kit/mcp-child.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const sum = op(async function sum(a: number, b: number) {
  return a + b;
});

/** A server with a tool, a failing tool, a resource and a prompt registered before wrapping, and `late` after. */
function mcpServer(): McpServer {
  const s = new McpServer({ name: 'tools', version: '1.0.0' });
  s.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => text(String(await sum(a, b))));
  s.registerTool('broken', { inputSchema: { why: z.string() } }, async ({ why }) => {
    throw new Error(`broken: ${why}`);
  });
  s.registerResource('readme', 'memo://readme', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'hello' }] }));
  s.registerPrompt('greet', { argsSchema: { who: z.string() } }, ({ who }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hi ${who}` } }] }));
  wrapMCPServer(s);
  s.tool('late', async (extra) => text(String(extra._meta?.['traceparent'])));
  return s;
}

async function connected(): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcpServer().connect(serverSide);
  const client = wrapMCPClient(new Client({ name: 'agent', version: '1.0.0' }));
  await client.connect(clientSide);
  return client;
}

/** `op_name` of each call's parent (`-` for a root), by display name, and checks all share one trace. */
function parents(calls: CallRecord[]): Record<string, string> {
  const byId = new Map(calls.map((c) => [c.id, c]));
  expect(new Set(calls.map((c) => c.trace_id)).size).toBe(1);
  return Object.fromEntries(calls.map((c) => [c.display_name ?? c.op_name, c.parent_id ? (byId.get(c.parent_id)?.display_name ?? byId.get(c.parent_id)?.op_name ?? 'missing') : '-']));
}

describe('MCP client and server in one process', () => {
  it('tool, resource and prompt calls form one tree: agent -> client call -> server handler -> ops inside', async () => {
    const client = await connected();
    const params = { name: 'add', arguments: { a: 2, b: 3 } };
    let results: unknown[] = [];
    const calls = await traced(server(), 'mcp-tree', async () => {
      await op(async function agent() {
        results = [await client.listTools(), await client.callTool(params), await client.readResource({ uri: 'memo://readme' }), await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } }), await client.callTool({ name: 'late' })];
      })();
    });
    await client.close();
    expect(params).toEqual({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(results[1]).toEqual(text('5'));
    const late = calls.find((c) => c.display_name === 'mcp.callTool late') as CallRecord;
    const hex = (uuid: string) => uuid.replaceAll('-', '');
    expect(results[4]).toEqual(text(`00-${hex(late.trace_id)}-${hex(late.id).slice(16)}-01`));
    expect(parents(calls)).toEqual({
      agent: '-',
      'mcp.listTools': 'agent',
      'mcp.callTool add': 'agent',
      'mcp.server.callTool add': 'mcp.callTool add',
      sum: 'mcp.server.callTool add',
      'mcp.readResource': 'agent',
      'mcp.server.readResource readme': 'mcp.readResource',
      'mcp.getPrompt greet': 'agent',
      'mcp.server.getPrompt greet': 'mcp.getPrompt greet',
      'mcp.callTool late': 'agent',
      'mcp.server.callTool late': 'mcp.callTool late',
    });
    const call = calls.find((c) => c.display_name === 'mcp.callTool add') as CallRecord;
    expect(call).toMatchObject({ op_name: 'mcp.callTool', inputs: params, output: text('5') });
    expect(call.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'add', 'gen_ai.operation.name': 'execute_tool' });
    const handler = calls.find((c) => c.display_name === 'mcp.server.callTool add') as CallRecord;
    expect(handler).toMatchObject({ op_name: 'mcp.server.callTool', inputs: { arguments: { a: 2, b: 3 } }, output: text('5') });
    expect(one(calls, 'mcp.server.readResource')).toMatchObject({ inputs: { uri: 'memo://readme' }, attributes: { 'mcp.resource.uri': 'memo://readme' } });
    expect(one(calls, 'mcp.getPrompt').attributes).toMatchObject({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'greet' });
    expect(one(calls, 'mcp.server.getPrompt').inputs).toEqual({ arguments: { who: 'Ada' } });
  });

  it('a tool that throws: the handler call records the error, the client call is marked by the isError result', async () => {
    const client = await connected();
    let result: unknown;
    const calls = await traced(server(), 'mcp-error', async () => {
      result = await client.callTool({ name: 'broken', arguments: { why: 'no disk' } });
    });
    await client.close();
    expect(result).toMatchObject({ isError: true });
    const handler = one(calls, 'mcp.server.callTool');
    expect(handler.exception).toMatchObject({ type: 'Error', message: 'broken: no disk', stack: expect.stringContaining('mcp.test.ts') });
    const caller = one(calls, 'mcp.callTool');
    expect(caller.exception).toMatchObject({ type: 'McpToolError', message: expect.stringContaining('broken: no disk') });
    expect(handler.parent_id).toBe(caller.id);
    expect(caller.summary?.status_counts).toMatchObject({ error: 2 });
  });

  it('a handler replaced by update({ callback, name }) after wrapping is traced under its new name; a sampled-out traceparent records nothing', async () => {
    const s = wrapMCPServer(new McpServer({ name: 'tools', version: '1.0.0' }));
    s.registerTool('old', {}, async () => text('old')).update({ name: 'renamed', callback: async () => text('new') });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await s.connect(serverSide);
    const client = new Client({ name: 'plain', version: '1.0.0' });
    await client.connect(clientSide);
    const calls = await traced(server(), 'mcp-update', async () => {
      expect(await client.callTool({ name: 'renamed' })).toEqual(text('new'));
      await client.callTool({ name: 'renamed', _meta: { traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-00` } });
    });
    await client.close();
    expect(calls.map((c) => [c.display_name, c.output])).toEqual([['mcp.server.callTool renamed', text('new')]]);
  });
});

it('two processes on stdio: the agent\'s tool call and the child server\'s handler are one tree', async () => {
  const project = uniqueProject('mcp-stdio');
  init({ project, baseUrl: server().url, flushIntervalMs: 50 });
  const child = await mcpChild(server().url, project);
  let answer: unknown;
  try {
    await op(async function agent() {
      await child.connect();
      answer = await child.client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    })();
  } finally {
    await child.close(); // ends the child's stdin; it flushes at exit
  }
  expect((await flush()).dropped).toBe(0);
  const pid = child.pid();
  expect(answer).toEqual(text(`Oslo: sunny, ${pid}`));
  const calls = await readCalls(server().url, project);
  expect(parents(calls)).toEqual({
    agent: '-',
    'mcp.callTool weather': 'agent',
    'mcp.server.callTool weather': 'mcp.callTool weather',
    forecast: 'mcp.server.callTool weather',
  });
  expect(one(calls, 'forecast').output).toBe(`Oslo: sunny, ${pid}`);
});
