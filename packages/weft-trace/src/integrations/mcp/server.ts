/**
 * wrapMCPServer(): every tool, resource and prompt handler of an MCP `McpServer` runs as a call, joined to the caller's trace through `params._meta.traceparent`.
 * @module
 */
import { diag } from '../../internal/diag.js';
import { safeMessage } from '../../internal/safe-message.js';
import { parseTraceparent } from '../../internal/traceparent.js';
import { runMcpCall, type McpCallSpec } from './mcp-call.js';

type Obj = Record<string, unknown>;
type AnyFn = (...args: unknown[]) => unknown;

/** One kind of handler: the `McpServer` methods that register it, the field of the registered object holding it, the maps holding those registered before wrapping. */
interface HandlerKind {
  readonly op: string;
  readonly method: string;
  readonly register: readonly string[];
  readonly field: string;
  readonly registries: readonly string[];
}

const KINDS: readonly HandlerKind[] = [
  { op: 'mcp.server.callTool', method: 'tools/call', register: ['tool', 'registerTool'], field: 'handler', registries: ['_registeredTools'] },
  { op: 'mcp.server.readResource', method: 'resources/read', register: ['resource', 'registerResource'], field: 'readCallback', registries: ['_registeredResources', '_registeredResourceTemplates'] },
  { op: 'mcp.server.getPrompt', method: 'prompts/get', register: ['prompt', 'registerPrompt'], field: 'callback', registries: ['_registeredPrompts'] },
];

const WRAPPED = Symbol.for('weft.wrappedMcpServer');
const TRACED = Symbol.for('weft.tracedMcpEntry');

/** What one handler call records: inputs (its arguments but the last, `extra`) and attributes (OTel MCP semantic conventions). */
function describe(kind: HandlerKind, name: string, args: unknown[]): { inputs: Obj; attributes: Obj; extra: Obj } {
  const extra = (args.length > 0 && args[args.length - 1] !== null && typeof args[args.length - 1] === 'object' ? args[args.length - 1] : {}) as Obj;
  const rest = args.slice(0, -1);
  const attributes: Obj = { 'mcp.method.name': kind.method };
  const inputs: Obj = {};
  if (kind.method === 'resources/read') {
    const uri = String((rest[0] as { href?: unknown } | undefined)?.href ?? rest[0]);
    attributes['mcp.resource.uri'] = uri;
    inputs['uri'] = uri;
    if (rest.length > 1) inputs['variables'] = rest[1];
  } else {
    attributes[kind.method === 'tools/call' ? 'gen_ai.tool.name' : 'gen_ai.prompt.name'] = name;
    if (kind.method === 'tools/call') attributes['gen_ai.operation.name'] = 'execute_tool';
    if (rest.length > 0) inputs['arguments'] = rest[0];
  }
  if (typeof extra['sessionId'] === 'string') attributes['mcp.session.id'] = extra['sessionId'];
  if (typeof extra['requestId'] === 'string' || typeof extra['requestId'] === 'number') attributes['jsonrpc.request.id'] = String(extra['requestId']);
  return { inputs, attributes, extra };
}

/** `handler` run as a call of `kind` named by `state.name` (read at each call: `update({ name })` renames). */
function tracedHandler(kind: HandlerKind, state: { name: string }, handler: AnyFn): AnyFn {
  return function tracedMcpHandler(this: unknown, ...args: unknown[]): unknown {
    let spec: McpCallSpec;
    try {
      const { inputs, attributes, extra } = describe(kind, state.name, args);
      const meta = (extra['_meta'] ?? undefined) as Obj | undefined;
      const tracestate = meta?.['tracestate'];
      spec = {
        name: kind.op,
        displayName: `${kind.op} ${state.name}`,
        attributes,
        inputs,
        remote: parseTraceparent(meta?.['traceparent']),
        remoteState: typeof tracestate === 'string' ? tracestate : undefined,
      };
    } catch (err) {
      diag.warn(`could not trace the MCP handler "${state.name}": ${safeMessage(err)}`);
      return handler.apply(this, args);
    }
    return runMcpCall(spec, () => handler.apply(this, args));
  };
}

/**
 * Makes the registered object's handler field an accessor that hands out the traced handler; setting it (as
 * `update({ callback })` does) traces the new one. `update({ name })` renames the recorded name too. Once per object.
 */
function traceEntry(kind: HandlerKind, entry: unknown, name: string): void {
  if (entry === null || typeof entry !== 'object' || (entry as { [TRACED]?: boolean })[TRACED]) return;
  const reg = entry as Obj & { [TRACED]?: boolean };
  const state = { name };
  let traced: unknown;
  const set = (v: unknown): void => void (traced = typeof v === 'function' ? tracedHandler(kind, state, v as AnyFn) : v);
  set(reg[kind.field]);
  Object.defineProperty(reg, kind.field, { get: () => traced, set, enumerable: true, configurable: true });
  const update = reg['update'];
  if (typeof update === 'function') {
    reg['update'] = function update_(this: unknown, updates: unknown): unknown {
      const renamed = (updates as Obj | null)?.['name'];
      if (typeof renamed === 'string') state.name = renamed;
      return (update as AnyFn).call(this, updates);
    };
  }
  reg[TRACED] = true;
}

/** The name an entry of registry `key` was registered under: a resource's own `name`, else its key. */
function entryName(entry: unknown, key: string): string {
  const n = (entry as Obj | null)?.['name'];
  return typeof n === 'string' ? n : key;
}

/**
 * Traces every handler of `server` (an `McpServer` of `@modelcontextprotocol/sdk`, `server/mcp.js`; tested with 1.32)
 * and returns the same object (changed in place, so a handler registered through any reference to it is traced).
 * Handlers registered before wrapping (found in the server's `_registeredTools`, `_registeredResources`,
 * `_registeredResourceTemplates` and `_registeredPrompts`) and after it (through `tool`, `registerTool`, `resource`,
 * `registerResource`, `prompt`, `registerPrompt`), and a handler set later by the registered object's
 * `update({ callback })`, each run as a call:
 * - op name `mcp.server.callTool`, `mcp.server.readResource` or `mcp.server.getPrompt`; display name the op name
 *   and the tool, resource or prompt name (`mcp.server.callTool add`);
 * - attributes (OpenTelemetry MCP semantic conventions): `mcp.method.name`, `gen_ai.tool.name`,
 *   `gen_ai.prompt.name` or `mcp.resource.uri`, `mcp.session.id` and `jsonrpc.request.id` when the transport has them;
 * - inputs: `{ arguments }` (tools and prompts with an arguments schema) or `{ uri, variables? }` (resources), the
 *   handler's `extra` left out; output: what the handler returns;
 * - a throw is recorded and rethrown (the SDK then answers the tool call with `isError: true`); a returned tool
 *   result with `isError: true` ends the call as an error too (`exception.type` `McpToolError`).
 *
 * Trace context (SEP-414, W3C Trace Context): when the request carries `params._meta.traceparent`
 * (`00-<trace id>-<span id>-<flags>`), the handler's call joins that trace: `trace_id` is the 32 hex digits of the
 * trace id in the UUID layout (`weftTraceId`), `parent_id` is `weftCallId(trace id, span id)` (the trace id's first
 * 64 bits, then the span id's 64), which is the very id of the client's call when the client is wrapped with
 * `wrapMCPClient` (or traced through OTel and `weft-trace/otel`), and the call's own id is `weftCallId(trace id,
 * a fresh span id)`. With the `sampled` flag off, nothing in the handler is recorded. Without a `traceparent`, the
 * handler's call nests under the running call, else starts a trace (sampled like `op()`). With an OTel context
 * manager registered, OTel spans started in the handler are children of its call, and `tracestate` is kept on them.
 *
 * The `@modelcontextprotocol/sdk` package is not imported: weft works without it. Wrapping twice does nothing more;
 * a server that is not an `McpServer` is returned unchanged, with a warning.
 * @example const server = wrapMCPServer(new McpServer({ name: 'tools', version: '1.0.0' }));
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#_meta (`_meta`; SEP-414 reserves `traceparent`, `tracestate`)
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */
export function wrapMCPServer<T extends object>(server: T): T {
  const s = server as Obj & { [WRAPPED]?: boolean };
  try {
    if (s[WRAPPED]) return server;
    if (!KINDS.every((k) => k.register.some((m) => typeof s[m] === 'function'))) {
      diag.warn('wrapMCPServer: not an McpServer (no tool/resource/prompt registration methods); nothing is traced');
      return server;
    }
    for (const kind of KINDS) {
      for (const key of kind.registries) {
        const registry = s[key];
        if (registry === null || typeof registry !== 'object') continue;
        for (const [k, entry] of Object.entries(registry as Obj)) traceEntry(kind, entry, entryName(entry, k));
      }
      for (const m of kind.register) {
        const register = s[m];
        if (typeof register !== 'function') continue;
        s[m] = function registerTraced(this: unknown, ...args: unknown[]): unknown {
          const entry = (register as AnyFn).apply(this, args);
          traceEntry(kind, entry, entryName(entry, String(args[0])));
          return entry;
        };
      }
    }
    s[WRAPPED] = true;
  } catch (err) {
    diag.warn(`wrapMCPServer could not wrap the server: ${safeMessage(err)}`);
  }
  return server;
}
