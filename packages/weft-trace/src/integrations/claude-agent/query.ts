/**
 * wrapClaudeAgentQuery(): traces `query()` of the Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`) as a session call with its turns, tools and subagents.
 * @module
 */
import type { ActiveCall } from '../../instrument/active-call.js';
import { runInContext } from '../../instrument/context.js';
import { parentContext } from '../../instrument/framework-context.js';
import { diag } from '../../internal/diag.js';
import { safeMessage } from '../../internal/safe-message.js';
import { startUnder } from '../start-recorded.js';
import { sessionOp } from './ops.js';
import { bindSdkServers } from './sdk-tools.js';
import { AgentSession } from './session.js';

type Obj = Record<string, unknown>;
type QueryFn = (params: { prompt: unknown; options?: Obj }) => AsyncGenerator<unknown, void> & Obj;

const TRACED = Symbol.for('weft.claudeAgentQuery');

/** Runs `f` on the session; a failure of weft's is logged, never thrown into the caller's loop. */
function guard(f: () => void): void {
  try {
    f();
  } catch (err) {
    diag.warn(`claude agent tracing failed (the session goes on, this part is not recorded): ${safeMessage(err)}`);
  }
}

/** The caller's streaming input, each user message noted as the next main turn's input as the SDK reads it. */
async function* notedPrompt(prompt: AsyncIterable<unknown>, session: AgentSession): AsyncGenerator<unknown, void> {
  for await (const m of prompt) {
    guard(() => session.prompt((m as Obj | undefined)?.['message'] ?? m));
    yield m;
  }
}

function sessionSummary(session: AgentSession): Obj {
  const last = session.results[session.results.length - 1];
  const out: Obj = {};
  if (typeof last?.['total_cost_usd'] === 'number') out['claude_agent.total_cost_usd'] = last['total_cost_usd'];
  if (typeof session.init?.['session_id'] === 'string') out['claude_agent.session_id'] = session.init['session_id'];
  return out;
}

/** What the session's call ends with: the last result's text and facts, with every result when there were several. */
function sessionOutput(session: AgentSession): unknown {
  const [last] = session.results.slice(-1);
  if (last === undefined) return undefined;
  const pick = (r: Obj): Obj => {
    const o: Obj = {};
    for (const k of ['subtype', 'result', 'is_error', 'num_turns', 'stop_reason', 'total_cost_usd', 'permission_denials', 'errors']) if (r[k] !== undefined) o[k] = r[k];
    return o;
  };
  return session.results.length === 1 ? pick(last) : { ...pick(last), results: session.results.map(pick) };
}

/** The error of a session whose last result is one (`error_max_turns`, `error_during_execution`, ...), else `undefined`. */
function sessionError(session: AgentSession): Error | undefined {
  const [last] = session.results.slice(-1);
  if (last?.['is_error'] !== true) return undefined;
  const errors = Array.isArray(last['errors']) ? (last['errors'] as unknown[]).join('; ') : '';
  const e = new Error(`${String(last['subtype'])}${errors ? `: ${errors}` : typeof last['result'] === 'string' ? `: ${last['result']}` : ''}`);
  e.name = 'ClaudeAgentError';
  e.stack = `${e.name}: ${e.message}`;
  return e;
}

/**
 * The options as recorded: `env` as its variable names only (it is often the whole `process.env`); an in-process SDK MCP
 * server as its `type` and `name` (not its server object); any other MCP server config without its `env` and `headers` values.
 */
function recordedOptions(options: Obj): Obj {
  const out: Obj = { ...options };
  if (options['env'] !== null && typeof options['env'] === 'object') out['env'] = Object.keys(options['env']);
  const servers = options['mcpServers'];
  if (servers !== null && typeof servers === 'object') {
    const shown: Obj = {};
    for (const [name, raw] of Object.entries(servers as Obj)) {
      const c = (raw ?? {}) as Obj;
      const { instance, env, headers, ...rest } = c;
      shown[name] = instance !== undefined ? { type: c['type'], name: c['name'] } : { ...rest, ...(env ? { env: Object.keys(env as Obj) } : {}), ...(headers ? { headers: Object.keys(headers as Obj) } : {}) };
    }
    out['mcpServers'] = shown;
  }
  return out;
}

/**
 * The SDK's `Query` behind a Proxy: `next()` feeds each message to the session (and hides the stream events weft asked
 * for when the caller did not); the end of the stream, `return()` and an error end the session's call. Every other
 * member (`interrupt()`, `setPermissionMode()`, ...) is the query's own.
 */
function tracedQuery(q: AsyncGenerator<unknown, void> & Obj, session: AgentSession, root: ActiveCall, showEvents: boolean): object {
  let ended = false;
  const end = (how: 'done' | 'cancel' | unknown): void => {
    if (ended) return;
    ended = true;
    guard(() => {
      session.finish();
      if (how === 'cancel') root.cancel();
      else if (how !== 'done') root.fail(how);
      else {
        const err = sessionError(session);
        if (err) root.fail(err);
        else root.succeed(sessionOutput(session));
      }
    });
  };
  const next = async (...args: [] | [unknown]): Promise<IteratorResult<unknown, void>> => {
    for (;;) {
      let r: IteratorResult<unknown, void>;
      try {
        r = await q.next(...args);
      } catch (err) {
        end(err);
        throw err;
      }
      if (r.done) {
        end('done');
        return r;
      }
      const m = r.value as Obj;
      guard(() => session.observe(m));
      if (showEvents || m?.['type'] !== 'stream_event') return r;
    }
  };
  const proxy: object = new Proxy(q, {
    get(t, prop) {
      if (prop === 'next') return next;
      if (prop === Symbol.asyncIterator) return () => proxy;
      if (prop === 'return') return (v?: unknown) => (end('cancel'), t.return(v as undefined));
      if (prop === 'throw') return (e?: unknown) => (end(e), t.throw(e));
      const v: unknown = Reflect.get(t, prop, t);
      return typeof v === 'function' && prop !== 'constructor' ? v.bind(t) : v;
    },
  });
  return proxy;
}

/**
 * Returns `query` (the `query` function of `@anthropic-ai/claude-agent-sdk`; tested with 0.3.333, whose bundled Claude
 * Code CLI it runs) traced: each call is a session, recorded as a call tree under the running op:
 * - op `claude_agent.query`: the session; inputs `prompt` (a string, or `'[streaming input]'` for an AsyncIterable of
 *   user messages) and `options` (secrets redacted as everywhere; `env` and MCP servers' `env` / `headers` as their
 *   names only; an SDK MCP server as its type and name); output the `result` message's `result`, `subtype`,
 *   `num_turns`, `total_cost_usd`, `permission_denials` (every result, when streaming input made several); summary
 *   `claude_agent.total_cost_usd` (the CLI's own figure) and `claude_agent.session_id`. A session whose last result is
 *   an error (`error_max_turns`, `error_during_execution`, ...) fails with the error the SDK throws for it (0.3.333:
 *   `Claude Code returned an error result: ...`), or with `ClaudeAgentError` when the stream ends without throwing.
 * - op `claude_agent.turn`: each assistant turn (one model request of the CLI), a model call as the provider wrappers
 *   record them: inputs `model` and `messages` (what the conversation added since the last turn: the prompt, tool
 *   results); output the assistant message; summary `usage[model]` with Anthropic's cache counts,
 *   `time_to_first_token_ms`, finish reasons, `request_id`. An assistant message with an `error` fails it.
 * - op `claude_agent.tool`: each tool use (built-in, MCP `mcp__<server>__<tool>`, custom SDK MCP tools), display name
 *   the tool's; inputs the tool input; output the tool's result (`tool_use_result` when the SDK gives it, else the
 *   result content); a result with `is_error` fails it (`ToolError`, or `ToolPermissionDenied` when the SDK denied the
 *   tool use). A subagent's turns and tools nest under the tool use that started it (`Agent` / `Task`), which ends when
 *   the subagent's task does. A custom tool of an in-process SDK MCP server (`createSdkMcpServer`) runs its handler in
 *   its call's context: an `op()` or a wrapped client inside it nests under the tool's call.
 * Exact per-turn usage needs the stream's events: weft sets `includePartialMessages: true` and hides the
 * `stream_event` messages from the caller unless it asked for them. The CLI streams no events for a subagent's turns:
 * those record the usage of the SDK's assistant message (output tokens as of the message's start).
 * Wrapping twice returns the same function; the SDK is not imported. Tracing never throws into the caller's loop.
 * @example
 * import * as sdk from '@anthropic-ai/claude-agent-sdk';
 * const query = wrapClaudeAgentQuery(sdk.query);
 * for await (const m of query({ prompt: 'Fix the failing test' })) console.log(m.type);
 * @see https://docs.claude.com/en/api/agent-sdk/typescript (the `query()` reference and its message types)
 */
export function wrapClaudeAgentQuery<F extends Function>(query: F): F {
  if (typeof query !== 'function' || (query as { [TRACED]?: unknown })[TRACED] === true) return query;
  const original = query as unknown as QueryFn;
  const traced = function query(this: unknown, params: { prompt: unknown; options?: Obj }): unknown {
    if (params === null || typeof params !== 'object') return original.call(this, params);
    const options = params.options ?? {};
    const streaming = params.prompt !== null && typeof params.prompt === 'object' && Symbol.asyncIterator in params.prompt;
    const prompt = streaming ? '[streaming input]' : params.prompt;
    let session: AgentSession | undefined;
    const root = startUnder(
      sessionOp(options['model'], () => (session ? sessionSummary(session) : {})),
      [{ prompt, options: recordedOptions(options) }],
      parentContext(),
    );
    if (root === undefined) return original.call(this, params);
    session = new AgentSession(root, options['model']);
    const s = session;
    guard(() => bindSdkServers(options, s));
    if (!streaming) s.prompt({ role: 'user', content: params.prompt });
    const sent = {
      ...params,
      prompt: streaming ? notedPrompt(params.prompt as AsyncIterable<unknown>, s) : params.prompt,
      options: { ...options, includePartialMessages: true },
    };
    let q: AsyncGenerator<unknown, void> & Obj;
    try {
      q = runInContext(root.ctx, () => original.call(this, sent));
    } catch (err) {
      root.fail(err);
      throw err;
    }
    return tracedQuery(q, s, root, options['includePartialMessages'] === true);
  };
  Object.defineProperty(traced, TRACED, { value: true });
  return traced as unknown as F;
}
