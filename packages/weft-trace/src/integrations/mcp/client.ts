/**
 * wrapMCPClient(): traces an MCP client's callTool, listTools, readResource and getPrompt as calls and sends the call's trace context in `params._meta.traceparent`.
 * @module
 */
import { diag } from '../../internal/diag.js';
import { safeMessage } from '../../internal/safe-message.js';
import { traceparentOf } from '../../internal/traceparent.js';
import type { ActiveCall } from '../../instrument/active-call.js';
import { getSink } from '../../instrument/sink.js';
import { isWrappedClient, proxyPaths, type MethodWrapper } from '../client-proxy.js';
import { activeTraceState, runMcpCall } from './mcp-call.js';

type Obj = Record<string, unknown>;

/** One client method: its MCP method name and what of its params names the target. */
interface ClientMethod {
  /** `mcp.method.name`, e.g. `tools/call`. */
  readonly method: string;
  /** The attribute naming the target, e.g. `gen_ai.tool.name`, and the params field it is read from. */
  readonly target?: { readonly attribute: string; readonly param: string };
}

const METHODS: Readonly<Record<string, ClientMethod>> = {
  callTool: { method: 'tools/call', target: { attribute: 'gen_ai.tool.name', param: 'name' } },
  listTools: { method: 'tools/list' },
  readResource: { method: 'resources/read', target: { attribute: 'mcp.resource.uri', param: 'uri' } },
  getPrompt: { method: 'prompts/get', target: { attribute: 'gen_ai.prompt.name', param: 'name' } },
};

/**
 * `params` as sent: a copy whose `_meta` (also a copy) holds `traceparent` (and `tracestate`) naming `active`'s
 * call; the caller's object is never changed. Unchanged when nothing is recorded, when the caller set a
 * `traceparent` of their own, or when the call's ids cannot be carried (see `traceparentOf`).
 */
function withTraceContext(params: unknown, active: ActiveCall | undefined): unknown {
  if (active === undefined || (params != null && typeof params !== 'object')) return params;
  try {
    const p = (params ?? {}) as Obj;
    const meta = p['_meta'] as Obj | undefined;
    if (meta?.['traceparent'] !== undefined) return params;
    const traceId = active.call.traceId;
    const traceparent = traceparentOf(traceId, active.call.id, getSink()?.leavesOut?.(traceId) !== true);
    if (traceparent === undefined) return params;
    const sentMeta: Obj = Object.assign({}, meta, { traceparent });
    const tracestate = activeTraceState();
    if (tracestate !== undefined && meta?.['tracestate'] === undefined) sentMeta['tracestate'] = tracestate;
    return Object.assign({}, p, { _meta: sentMeta });
  } catch (err) {
    diag.warn(`could not add the trace context to an MCP request: ${safeMessage(err)}`);
    return params;
  }
}

function traced(name: string, spec: ClientMethod): MethodWrapper {
  const opName = `mcp.${name}`;
  return (owner, method) =>
    function tracedMcpMethod(...args: unknown[]): unknown {
      const params = args[0];
      const attributes: Obj = { 'mcp.method.name': spec.method };
      let displayName = opName;
      const target = spec.target && params !== null && typeof params === 'object' ? (params as Obj)[spec.target.param] : undefined;
      if (spec.target && typeof target === 'string') {
        attributes[spec.target.attribute] = target;
        if (spec.target.param === 'name') displayName = `${opName} ${target}`;
      }
      if (spec.method === 'tools/call') attributes['gen_ai.operation.name'] = 'execute_tool';
      return runMcpCall({ name: opName, displayName, attributes, inputs: params ?? {} }, (active) =>
        method.apply(owner, [withTraceContext(params, active), ...args.slice(1)]),
      );
    };
}

const SPEC = Object.fromEntries(Object.entries(METHODS).map(([name, m]) => [name, traced(name, m)]));

/**
 * Returns `client` (a `Client` of `@modelcontextprotocol/sdk`, `client/index.js`; tested with 1.32) with its requests
 * traced; the client itself is not changed, and the result has its type and every other method. Each call of
 * `callTool`, `listTools`, `readResource` and `getPrompt` is a call nested under the running call:
 * - op name `mcp.callTool`, `mcp.listTools`, `mcp.readResource`, `mcp.getPrompt`; display name the op name and the
 *   tool or prompt name (`mcp.callTool add`);
 * - attributes (OpenTelemetry MCP semantic conventions): `mcp.method.name` (`tools/call`, `tools/list`,
 *   `resources/read`, `prompts/get`), `gen_ai.tool.name`, `gen_ai.prompt.name` or `mcp.resource.uri`, and
 *   `gen_ai.operation.name: "execute_tool"` for tool calls;
 * - inputs: the request params as the caller passed them; output: the result;
 * - a tool result with `isError: true` ends the call as an error (`exception.type` `McpToolError`, the message
 *   its text content); the result is still returned to the caller unchanged. A rejected request is recorded and
 *   rethrown unchanged.
 *
 * Trace context (SEP-414, W3C Trace Context): the request is sent with a copy of the params whose `_meta` holds
 * `traceparent` = `00-<trace id>-<span id>-01` (`-00` when `init({ sampling })` leaves the trace out whatever happens in it), where the trace id is the call's `trace_id` without dashes and the span
 * id its call `id`'s last 64 bits (the call's ids are chosen so that `id` = the first 64 bits of the trace id
 * followed by the span id, the mapping of `weft-trace/otel`'s `weftCallId`), plus `tracestate` when an OTel context
 * manager is registered and the active span carries one. A server wrapped with `wrapMCPServer` makes its
 * handler's call a child of this call, so both processes' calls form one tree when they trace to the same weft
 * server. The caller's params object is never changed, and a `traceparent` the caller put in `_meta` is kept. A
 * trace left out by sampling sends none.
 *
 * The `@modelcontextprotocol/sdk` package is not imported: weft works without it. Wrapping twice returns the same object.
 * @example const client = wrapMCPClient(new Client({ name: 'agent', version: '1.0.0' }));
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic#_meta (`_meta`; SEP-414 reserves `traceparent`, `tracestate`)
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */
export function wrapMCPClient<T extends object>(client: T): T {
  if (isWrappedClient(client)) return client;
  return proxyPaths(client, SPEC);
}
