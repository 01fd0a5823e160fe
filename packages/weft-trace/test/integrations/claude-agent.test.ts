// wrapClaudeAgentQuery against the real @anthropic-ai/claude-agent-sdk (its bundled Claude Code CLI, run as the SDK runs
// it) pointed at a loopback fake of the Anthropic Messages API: the session, its turns with usage, an MCP tool, a
// built-in tool inside a subagent, a denied tool, streaming input.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSdkMcpServer, query as sdkQuery, tool, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { op, wrapClaudeAgentQuery } from '../../src/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { AGENT_USAGE, agentTurn, startFakeClaudeApi } from 'weft-test-kit/fake-claude-agent.js';
import { useStarted } from 'weft-test-kit/fake-llm.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const dir = mkdtempSync(path.join(tmpdir(), 'weft-claude-agent-'));
const file = path.join(dir, 'hello.txt');
writeFileSync(file, 'hello\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fake = useStarted('fake Anthropic API', () => startFakeClaudeApi((body) => agentTurn(body, file)));

const MODEL = 'claude-sonnet-4-5';
// input_tokens 100 + cache writes 30 + cache reads 20 (Anthropic counts the cache on top of input_tokens); 7 output tokens.
const USAGE = { input_tokens: 150, output_tokens: AGENT_USAGE.output_tokens, cache_read_input_tokens: 20, cache_creation_input_tokens: 30, requests: 1 };

/** Options for a session in `dir` against the fake: no network beyond it (no telemetry, no update checks), a config home of its own. */
function options(): Record<string, unknown> {
  const weather = createSdkMcpServer({
    name: 'weather',
    version: '1.0.0',
    tools: [tool('get_weather', 'The weather of a city', { city: z.string() }, async ({ city }) => ({ content: [{ type: 'text', text: await op(async function lookup(c: string) { return `Weather in ${c}: sunny`; })(city) }] }))],
  });
  return {
    model: MODEL,
    cwd: dir,
    maxTurns: 8,
    mcpServers: { weather },
    allowedTools: ['mcp__weather__get_weather', 'Read', 'Agent', 'Task'],
    permissionMode: 'dontAsk',
    env: {
      PATH: process.env['PATH'],
      HOME: dir,
      CLAUDE_CONFIG_DIR: path.join(dir, '.claude'),
      ANTHROPIC_BASE_URL: fake().url,
      ANTHROPIC_API_KEY: 'sk-ant-fake',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
    },
  };
}

const byName = (calls: CallRecord[], name: string): CallRecord[] => calls.filter((c) => c.op_name === name);

describe('wrapClaudeAgentQuery', () => {
  it('records the session, each turn with usage, the MCP tool, the subagent under its tool use and the denied tool', async () => {
    const query = wrapClaudeAgentQuery(sdkQuery);
    const types: string[] = [];
    const calls = await traced(server(), 'claude-agent', () =>
      op(async function agent() {
        for await (const m of query({ prompt: 'Weather in Paris, then read the file', options: options() })) types.push(m.type);
      })(),
    );
    expect(types).not.toContain('stream_event');
    expect(types).toContain('result');
    const session = one(calls, 'claude_agent.query');
    expect(session.parent_id).toBe(one(calls, 'agent').id);
    expect(session.inputs).toMatchObject({ prompt: 'Weather in Paris, then read the file', options: { model: MODEL, mcpServers: { weather: { type: 'sdk', name: 'weather' } } } });
    // the environment as its names only: no value of it is recorded
    expect((session.inputs as { options: { env: unknown } }).options.env).toEqual(expect.arrayContaining(['ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY']));
    expect(JSON.stringify(session.inputs)).not.toContain('sk-ant-fake');
    expect(session.output).toMatchObject({ subtype: 'success', result: 'All done.' });
    expect(typeof (session.summary as Record<string, unknown>)['claude_agent.total_cost_usd']).toBe('number');

    const turns = byName(calls, 'claude_agent.turn');
    const main = turns.filter((t) => t.parent_id === session.id);
    expect(main.length).toBeGreaterThanOrEqual(4);
    expect(main[0]!.inputs).toMatchObject({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Paris, then read the file' }] });
    expect(main[0]!.output).toMatchObject({ content: [{ type: 'text' }, { type: 'tool_use', name: 'mcp__weather__get_weather', input: { city: 'Paris' } }], stop_reason: 'tool_use' });
    expect(main[0]!.attributes).toMatchObject({ 'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': MODEL });
    // a streamed main turn: the exact usage of the message's end, cache counts included
    expect(main[0]!.summary).toMatchObject({ usage: { [MODEL]: USAGE }, 'gen_ai.response.finish_reasons': ['tool_use'] });
    expect(typeof (main[0]!.summary as Record<string, unknown>)['time_to_first_token_ms']).toBe('number');

    const mcp = byName(calls, 'claude_agent.tool').find((t) => t.display_name === 'mcp__weather__get_weather')!;
    expect(mcp.parent_id).toBe(session.id);
    expect(mcp.inputs).toEqual({ city: 'Paris' });
    expect(mcp.output).toEqual([{ type: 'text', text: 'Weather in Paris: sunny' }]);
    expect(mcp.attributes).toMatchObject({ 'mcp.server.name': 'weather', 'gen_ai.tool.name': 'get_weather' });
    // code the custom tool's handler runs (in this process) nests under the tool use's call
    expect(one(calls, 'lookup').parent_id).toBe(mcp.id);

    const agentTool = byName(calls, 'claude_agent.tool').find((t) => t.display_name === 'Agent')!;
    const subTurns = turns.filter((t) => t.parent_id === agentTool.id);
    expect(subTurns).toHaveLength(2);
    const read = byName(calls, 'claude_agent.tool').find((t) => t.display_name === 'Read')!;
    expect(read.parent_id).toBe(agentTool.id);
    expect(read.inputs).toEqual({ file_path: file });
    expect(read.summary).toMatchObject({ status: 'success' });
    expect(Date.parse(agentTool.ended_at!)).toBeGreaterThanOrEqual(Date.parse(subTurns[1]!.ended_at!));

    const bash = byName(calls, 'claude_agent.tool').find((t) => t.display_name === 'Bash')!;
    expect(bash.exception).toMatchObject({ type: 'ToolPermissionDenied', message: expect.stringMatching(/^Permission to use Bash has been denied/) });
    expect(bash.summary).toMatchObject({ status: 'error' });
    // every turn's usage adds up in the session (7 requests to the fake, one call each)
    expect(turns).toHaveLength(fake().requests.length);
  }, 120_000);

  it('a session that ends in an error result (the turn limit): the error the SDK throws fails the session; its turns and tools stay recorded', async () => {
    const query = wrapClaudeAgentQuery(sdkQuery);
    let last: Record<string, unknown> | undefined;
    let thrown: unknown;
    const calls = await traced(server(), 'claude-agent-max-turns', async () => {
      try {
        for await (const m of query({ prompt: 'Weather in Paris, then read the file', options: { ...options(), maxTurns: 1 } })) if (m.type === 'result') last = m as unknown as Record<string, unknown>;
      } catch (err) {
        thrown = err;
      }
    });
    expect(last).toMatchObject({ subtype: 'error_max_turns', is_error: true });
    expect((thrown as Error).message).toMatch(/maximum number of turns/);
    const session = one(calls, 'claude_agent.query');
    expect(session.exception).toMatchObject({ message: (thrown as Error).message });
    expect(byName(calls, 'claude_agent.turn').length).toBeGreaterThanOrEqual(1);
    expect(one(calls, 'claude_agent.tool')).toMatchObject({ display_name: 'mcp__weather__get_weather', summary: { status: 'success' } });
  }, 120_000);

  it('streaming input: each user message is the input of the turn it starts; breaking out cancels the session', async () => {
    const query = wrapClaudeAgentQuery(sdkQuery);
    async function* prompt(): AsyncGenerator<SDKUserMessage> {
      yield { type: 'user', message: { role: 'user', content: 'Weather in Paris, then read the file' }, parent_tool_use_id: null, session_id: '' };
    }
    const calls = await traced(server(), 'claude-agent-stream', async () => {
      for await (const m of query({ prompt: prompt(), options: options() })) if (m.type === 'result') break;
    });
    const session = one(calls, 'claude_agent.query');
    expect(session.inputs).toMatchObject({ prompt: '[streaming input]' });
    expect(session.summary).toMatchObject({ status: 'cancelled' });
    const first = byName(calls, 'claude_agent.turn').find((t) => t.parent_id === session.id)!;
    expect(first.inputs).toMatchObject({ messages: [{ role: 'user', content: 'Weather in Paris, then read the file' }] });
  }, 120_000);
});
