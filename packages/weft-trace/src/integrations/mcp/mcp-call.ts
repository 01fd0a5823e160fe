/**
 * One MCP request (client side) or handler run (server side) as a weft call: started under the running call or a remote `traceparent`, run in its context, ended by its result.
 * @module
 */
import { createTraceState, ROOT_CONTEXT, trace, TraceFlags, type Context } from '@opentelemetry/api';
import { diag } from '../../internal/diag.js';
import { weftCallId } from '../../internal/otel-ids.js';
import { safeMessage } from '../../internal/safe-message.js';
import type { TraceParent } from '../../internal/traceparent.js';
import { startCall, type ActiveCall } from '../../instrument/active-call.js';
import { activeContext, runInContext, type TraceContext } from '../../instrument/context.js';
import { parentContext } from '../../instrument/framework-context.js';
import { InputKeys } from '../../instrument/input-keys.js';
import type { OpDefinition } from '../../instrument/op-definition.js';
import { activeOtelContext, otelContextRegistered, runInOtelSpan } from '../../instrument/otel-hook.js';
import { getSink } from '../../instrument/sink.js';
import { thenOf } from '../../instrument/thenable.js';
import { sampled } from '../../instrument/trace-call.js';
import { getTraceSettings } from '../../instrument/trace-settings.js';

type Obj = Record<string, unknown>;

/** What one MCP call records. */
export interface McpCallSpec {
  /** `op_name`, e.g. `mcp.callTool`. */
  readonly name: string;
  /** `display_name`, e.g. `mcp.callTool add`. */
  readonly displayName: string;
  /** `attributes` (OTel MCP semantic conventions: `mcp.method.name`, `gen_ai.tool.name`, ...). */
  readonly attributes: Obj;
  /** `inputs`: the request's params (client) or the handler's arguments but `extra` (server). */
  readonly inputs: unknown;
  /** The caller in another process, from `params._meta.traceparent` (server side). */
  readonly remote?: TraceParent | undefined;
  /** `params._meta.tracestate` beside `remote`, handed on to OTel spans started in the handler. */
  readonly remoteState?: string | undefined;
}

/** `exception.type` of a call whose result is a tool result with `isError: true`. */
export class McpToolError extends Error {
  override name = 'McpToolError';
}

const KEYS = new InputKeys(['params']);
const UNSAMPLED = Symbol('unsampled');

function definition(spec: McpCallSpec): OpDefinition {
  return {
    name: spec.name,
    inputKeys: KEYS,
    options: {
      callDisplayName: spec.displayName,
      attributes: spec.attributes,
      postprocessInputs: (i) => (i['params'] !== null && typeof i['params'] === 'object' ? (i['params'] as Obj) : i),
    },
  };
}

/**
 * Starts the call: under `spec.remote` when given (its trace, its span as the parent; a local parent call that is
 * not that span is left out, so the summary is not merged into an unrelated call), else as `op()` would (the
 * running call, or the framework run the code runs inside, such as a LangChain tool's: `parentContext()`; sampling
 * of roots). The ids always come from `bridgedIds` (`instrument/otel-hook.ts`): with no OTel context manager, over
 * the empty context, so the call id is `weftCallId(trace, span)` and a `traceparent` can name it.
 * `UNSAMPLED` when the trace is left out (a root not sampled, or a remote parent whose `sampled` flag is off).
 */
function start(spec: McpCallSpec): { active: ActiveCall; otelCtx: Context | undefined } | typeof UNSAMPLED | undefined {
  const sink = getSink();
  if (sink == null) return undefined;
  const settings = getTraceSettings();
  const registered = otelContextRegistered();
  let parent = spec.remote ? activeContext() : parentContext();
  let base = registered ? activeOtelContext() : ROOT_CONTEXT;
  const { remote } = spec;
  if (remote) {
    if (!remote.sampled) return UNSAMPLED;
    const keep = parent?.call?.id === weftCallId(remote.traceId, remote.spanId);
    parent = { ...parent, call: keep ? parent?.call : undefined, unsampled: false };
    const traceState = spec.remoteState ? createTraceState(spec.remoteState) : undefined;
    base = trace.setSpanContext(base, { traceId: remote.traceId, spanId: remote.spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true, traceState });
  } else {
    if (parent?.unsampled) return undefined;
    if (parent?.call === undefined && !sampled(settings.sampleRate)) return UNSAMPLED;
  }
  const active = startCall(definition(spec), [spec.inputs], sink, settings, parent, base);
  return active && { active, otelCtx: registered ? base : undefined };
}

/** A tool result with `isError: true` as an error whose message is its text content; `undefined` for any other value. */
function toolError(value: unknown): McpToolError | undefined {
  if (value === null || typeof value !== 'object' || (value as Obj)['isError'] !== true) return undefined;
  const content = (value as Obj)['content'];
  const texts = Array.isArray(content) ? content.map((c) => (c as Obj | null)?.['text']).filter((t) => typeof t === 'string') : [];
  const err = new McpToolError(texts.length > 0 ? texts.join('\n') : 'tool result with isError: true');
  err.stack = `${err.name}: ${err.message}`;
  return err;
}

function settle(active: ActiveCall, value: unknown): void {
  let err: McpToolError | undefined;
  try {
    err = toolError(value);
  } catch (e) {
    diag.debug(`could not read an MCP result: ${safeMessage(e)}`);
  }
  if (err) active.fail(err);
  else active.succeed(value);
}

/**
 * Runs `invoke` as the call `spec` describes and returns what it returns, unchanged (a promise is returned as
 * is; the call ends when it settles). `invoke` gets the call, or `undefined` when nothing is recorded. A throw is
 * recorded and rethrown; never throws itself.
 */
export function runMcpCall(spec: McpCallSpec, invoke: (active: ActiveCall | undefined) => unknown): unknown {
  const started = start(spec);
  if (started === UNSAMPLED) {
    const ctx: TraceContext = { ...activeContext(), call: undefined, unsampled: true };
    return runInContext(ctx, invoke, undefined);
  }
  if (started === undefined) return invoke(undefined);
  const { active, otelCtx } = started;
  let result: unknown;
  try {
    result = otelCtx ? runInOtelSpan(otelCtx, active.call, runInContext, active.ctx, invoke, active) : runInContext(active.ctx, invoke, active);
  } catch (err) {
    active.fail(err);
    throw err;
  }
  const then = thenOf(result);
  if (!then) settle(active, result);
  else then.call(result, (v: unknown) => settle(active, v), (e: unknown) => active.fail(e));
  return result;
}

/** The serialized `tracestate` of the active OTel span, when a context manager is registered and it has one. */
export function activeTraceState(): string | undefined {
  if (!otelContextRegistered()) return undefined;
  return trace.getSpanContext(activeOtelContext())?.traceState?.serialize() || undefined;
}
