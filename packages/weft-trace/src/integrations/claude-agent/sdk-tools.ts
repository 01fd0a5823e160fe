/**
 * Code a custom tool of an in-process SDK MCP server (`createSdkMcpServer`) runs is traced under that tool use's call: its handler runs in the call's context.
 * @module
 */
import { runInContext, type TraceContext } from '../../instrument/context.js';
import { diag } from '../../internal/diag.js';
import { safeMessage } from '../../internal/safe-message.js';
import type { AgentSession } from './session.js';

type Obj = Record<string, unknown>;
type AnyFn = (...args: unknown[]) => unknown;

/** The session each SDK MCP server object serves now (the last `query()` given it). */
const sessions = new WeakMap<object, AgentSession>();
const WRAPPED = Symbol.for('weft.claudeAgentToolHandler');

/** The `_meta` key under which the Claude Code CLI names the tool use a tool call answers. */
const TOOL_USE_ID = 'claudecode/toolUseId';

/** The tool use's context for a handler call, or `undefined` (no id, no session, or a failure of weft's, logged). */
function contextFor(server: object, serverName: string, tool: string, args: unknown[]): TraceContext | undefined {
  try {
    const extra = args[args.length - 1] as { _meta?: Obj } | undefined;
    const id = extra?._meta?.[TOOL_USE_ID];
    const session = sessions.get(server);
    if (typeof id !== 'string' || session === undefined) return undefined;
    return session.toolContext(id, { name: `mcp__${serverName}__${tool}`, input: args.length > 1 ? args[0] : {} });
  } catch (err) {
    diag.warn(`claude agent tracing: a tool handler runs outside its call: ${safeMessage(err)}`);
    return undefined;
  }
}

/** Wraps the handlers registered on an `McpServer` (`_registeredTools[name].handler`, as weft's `wrapMCPServer` reads them), once. */
function wrapHandlers(server: Obj, serverName: string): void {
  const tools = server['_registeredTools'];
  if (tools === null || typeof tools !== 'object') return;
  for (const [tool, entry] of Object.entries(tools as Record<string, Obj>)) {
    const field = typeof entry?.['handler'] === 'function' ? 'handler' : 'callback';
    const handler = entry?.[field] as (AnyFn & { [WRAPPED]?: boolean }) | undefined;
    if (typeof handler !== 'function' || handler[WRAPPED]) continue;
    const traced = function tracedToolHandler(this: unknown, ...args: unknown[]): unknown {
      const ctx = contextFor(server, serverName, tool, args);
      return ctx === undefined ? handler.apply(this, args) : runInContext(ctx, () => handler.apply(this, args));
    };
    Object.defineProperty(traced, WRAPPED, { value: true });
    entry[field] = traced;
  }
}

/**
 * Binds the in-process SDK MCP servers of `options.mcpServers` (`{type: 'sdk', name, instance}`) to `session`: their
 * tool handlers run in the context of the tool use they answer (`_meta['claudecode/toolUseId']`), so an `op()` or a
 * wrapped client inside one nests under the tool's call. Tools registered after the session starts are not bound.
 */
export function bindSdkServers(options: Obj, session: AgentSession): void {
  const servers = options['mcpServers'];
  if (servers === null || typeof servers !== 'object') return;
  for (const raw of Object.values(servers as Obj)) {
    const c = raw as Obj | null;
    const instance = c?.['instance'];
    if (c?.['type'] !== 'sdk' || instance === null || typeof instance !== 'object') continue;
    sessions.set(instance, session);
    wrapHandlers(instance as Obj, String(c['name']));
  }
}
