/**
 * Test helper: a loopback fake of the Anthropic Messages API scripted for a Claude Agent SDK session: a custom MCP tool,
 * a subagent that uses a built-in tool, a denied tool, then a final answer; every answer streamed as the API does.
 * @module
 */
import { messageEvents } from './fake-llm-anthropic.js';
import { listenLoopback, onJsonRequest, sendStream } from './fake-llm.js';

type Obj = Record<string, unknown>;

/** Per-request usage the fake reports: 100 input tokens after the cache breakpoint, 30 written to and 20 read from the cache; 7 output. */
export const AGENT_USAGE = { input_tokens: 100, cache_creation_input_tokens: 30, cache_read_input_tokens: 20, output_tokens: 7 };

/** The prompt the main agent hands its subagent; a request whose first user message carries it is the subagent's. */
export const SUBTASK = 'SUBTASK: read hello.txt';

/** What the fake answers for a conversation: the content blocks and the stop reason. */
export type Turn = { content: Obj[]; stop: string };

function texts(m: Obj): string {
  const c = m['content'];
  return typeof c === 'string' ? c : Array.isArray(c) ? (c as Obj[]).map((b) => (typeof b['text'] === 'string' ? b['text'] : '')).join('\n') : '';
}

function toolResults(messages: Obj[]): number {
  let n = 0;
  for (const m of messages) if (Array.isArray(m['content'])) for (const b of m['content'] as Obj[]) if (b['type'] === 'tool_result') n++;
  return n;
}

const use = (id: string, name: string, input: Obj): Turn => ({ content: [{ type: 'text', text: `Using ${name}.` }, { type: 'tool_use', id, name, input }], stop: 'tool_use' });

/**
 * The script, read from the conversation sent: the subagent (its first user message holds {@link SUBTASK}) reads
 * `file` with the built-in `Read`, then answers; the main agent calls the MCP tool `mcp__weather__get_weather`, then
 * the subagent through `Agent`, then `Bash` (which the test's options deny), then answers `All done.`.
 */
export function agentTurn(body: Obj, file: string): Turn {
  const messages = Array.isArray(body['messages']) ? (body['messages'] as Obj[]) : [];
  const sub = messages.some((m) => m['role'] === 'user' && texts(m).includes(SUBTASK) && !texts(m).includes('Weather'));
  const done = toolResults(messages);
  if (sub) return done === 0 ? use('toolu_read', 'Read', { file_path: file }) : { content: [{ type: 'text', text: 'The file says hello.' }], stop: 'end_turn' };
  if (done === 0) return use('toolu_mcp', 'mcp__weather__get_weather', { city: 'Paris' });
  if (done === 1) return use('toolu_agent', 'Agent', { description: 'Read the file', prompt: SUBTASK, subagent_type: 'general-purpose' });
  if (done === 2) return use('toolu_bash', 'Bash', { command: 'touch /tmp/a52-denied' });
  return { content: [{ type: 'text', text: 'All done.' }], stop: 'end_turn' };
}

/** A running fake: `url` for `ANTHROPIC_BASE_URL`; `requests` the bodies of the Messages requests received. */
export interface FakeClaudeApi {
  url: string;
  requests: Obj[];
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1, port 0; each Messages request gets `turn(body)` streamed (or as one message when not streamed). */
export async function startFakeClaudeApi(turn: (body: Obj) => Turn): Promise<FakeClaudeApi> {
  const requests: Obj[] = [];
  let seq = 0;
  const { url, close } = await listenLoopback(
    onJsonRequest((_req, res, path, _query, body) => {
      if (!path.startsWith('/v1/messages') || body === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no route ${path}` } }));
      }
      if (path.endsWith('/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ input_tokens: 10 }));
      }
      requests.push(body);
      const t = turn(body);
      const message = { id: `msg_${++seq}`, model: String(body['model']), content: t.content, stop_reason: t.stop, usage: AGENT_USAGE };
      if (body['stream'] === true) return sendStream(res, messageEvents(message), false, false, `req_${seq}`);
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${seq}` });
      res.end(JSON.stringify({ ...message, type: 'message', role: 'assistant', stop_sequence: null }));
    }),
  );
  return { url, requests, close };
}
