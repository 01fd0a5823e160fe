/**
 * The OpenAI Agents SDK's traces and spans as one tree of weft calls: which call is whose parent, when each starts and
 * ends (a span never ends before the spans inside it), and the context resolver that starts weft calls inside the SDK's current span.
 * @module
 */
import type { ActiveCall } from '../instrument/active-call.js';
import { activeContext, type TraceContext } from '../instrument/context.js';
import { addContextResolver, isWithin, parentContext } from '../instrument/framework-context.js';
import { countedByProvider, markFrameworkModelCall } from './model-request-once.js';
import { startUnder } from './start-recorded.js';
import { isModelSpan, spanEnd, spanError, spanStart, startsAtOnce, traceStart, type AgentsSpan, type AgentsTrace } from './openai-agents-spans.js';

/** A trace or span the processor was told of, until its call ends. */
interface Node {
  /** The trace's or span's id. */
  readonly key: string;
  /** The node of its parent span, else of its trace; `undefined` for a trace. */
  readonly parent: Node | undefined;
  /** The trace's name (its workflow's), on a trace's node. */
  readonly workflow?: string | undefined;
  readonly span: AgentsSpan | undefined;
  /** The weft context of the code that started the span (weft's own AsyncLocalStorage's, not a resolver's). */
  readonly own: TraceContext | undefined;
  readonly startedAtMs: number;
  /** Its call, once started; `null` when it cannot be (its trace is not recorded). */
  active: ActiveCall | null | undefined;
  /** Nodes below it whose calls have not ended. */
  open: number;
  /** Set when the trace or span ended while nodes below it were still open: its call ends after theirs. */
  ended: boolean;
}

/** Every trace and span being recorded, by id; shared by all processors of this copy of weft (a span is recorded once). */
const nodes = new Map<string, Node>();

/** Where the Agents SDK keeps its context (`@openai/agents-core` tracing/context: one AsyncLocalStorage for every copy of the SDK). */
const AGENTS_STORAGE = Symbol.for('openai.agents.core.asyncLocalStorage');

interface AgentsStore {
  active?: boolean;
  trace?: { traceId: string } | undefined;
  span?: AgentsSpan | undefined;
}

function agentsStore(): AgentsStore | undefined {
  const storage = (globalThis as { [AGENTS_STORAGE]?: { getStore?(): unknown } })[AGENTS_STORAGE];
  const store = typeof storage?.getStore === 'function' ? (storage.getStore() as AgentsStore | undefined) : undefined;
  return store?.active === true ? store : undefined;
}

/** `own` when its call is `ctx`'s call or below it (code that already runs inside the span's call), else `ctx`. */
function deeper(own: TraceContext | undefined, ctx: TraceContext): TraceContext {
  return ctx.call !== undefined && isWithin(own?.call, ctx.call) ? own! : ctx;
}

/** Starts the root call of `trace` under the running weft call (nothing when the trace is not sampled or weft is not set up). */
export function openTrace(trace: AgentsTrace): void {
  if (nodes.has(trace.traceId)) return;
  const { op, inputs } = traceStart(trace);
  const active = startUnder(op, [inputs], parentContext());
  if (active === undefined) return;
  nodes.set(trace.traceId, { key: trace.traceId, parent: undefined, workflow: trace.name, span: undefined, own: undefined, startedAtMs: active.call.startedAtMs, active, open: 0, ended: false });
}

/** Notes `span` (its call starts now when its data is complete, else later); `undefined` when its trace is not recorded. */
export function openSpan(span: AgentsSpan): void {
  const node = register(span);
  if (node !== undefined && startsAtOnce(span)) started(node);
}

function register(span: AgentsSpan): Node | undefined {
  const known = nodes.get(span.spanId);
  if (known !== undefined || span.spanId === 'no-op') return known;
  const parent = (span.parentId !== null ? nodes.get(span.parentId) : undefined) ?? nodes.get(span.traceId);
  if (parent === undefined) return undefined;
  const at = span.startedAt === null ? NaN : Date.parse(span.startedAt);
  const node: Node = { key: span.spanId, parent, span, own: activeContext(), startedAtMs: Number.isFinite(at) ? at : Date.now(), active: undefined, open: 0, ended: false };
  parent.open++;
  nodes.set(span.spanId, node);
  return node;
}

/** The node's call, started now if it has not been (its parents' first); `undefined` when it cannot be recorded. */
function started(node: Node, beforeEnd = true): ActiveCall | undefined {
  if (node.active !== undefined) return node.active ?? undefined;
  const parent = node.parent === undefined ? undefined : started(node.parent);
  const span = node.span;
  if (parent === undefined || span === undefined) {
    node.active = null;
    return undefined;
  }
  const model = isModelSpan(span);
  const { op, inputs } = spanStart(span, model && !beforeEnd, () => summaryAtEnd.get(node) ?? {}, workflowOf(node));
  const active = startUnder(op, [inputs], deeper(node.own, parent.ctx), node.startedAtMs);
  // a model span started before its end: a call inside it needs it as parent, maybe a wrapped client's request
  if (active !== undefined && model && beforeEnd) markFrameworkModelCall(active.call);
  node.active = active ?? null;
  return active;
}

/** The name of the trace `node` is in. */
function workflowOf(node: Node): string | undefined {
  let n = node;
  while (n.parent !== undefined) n = n.parent;
  return n.workflow;
}

/** The summary each ending call's op reads (set just before the call ends). */
const summaryAtEnd = new WeakMap<Node, Record<string, unknown> | undefined>();

/** The trace or span ended: its call ends now, or after the last call below it. */
export function closeNode(id: string): void {
  const node = nodes.get(id);
  if (node === undefined || node.ended) return;
  node.ended = true;
  if (node.open === 0) finish(node);
}

function finish(node: Node): void {
  nodes.delete(node.key);
  const span = node.span;
  const active = started(node, false);
  if (active !== undefined) {
    if (span === undefined) active.succeed(undefined);
    else if (span.error) active.fail(spanError(span.error));
    else {
      const { output, summary } = spanEnd(span, countedByProvider(active.call));
      summaryAtEnd.set(node, summary);
      active.succeed(output);
    }
  }
  const parent = node.parent;
  if (parent !== undefined && --parent.open === 0 && parent.ended) finish(parent);
}

/** Ends every call whose trace or span ended but waits for calls below it (the processor shuts down): innermost first. */
export function finishEnded(): void {
  for (const node of [...nodes.values()].reverse()) {
    if (node.ended && nodes.has(node.key)) {
      node.open = 0;
      finish(node);
    }
  }
}

/**
 * The context resolver (instrument/framework-context.ts): inside the Agents SDK's current span (or trace), the call of
 * that span is the context new weft calls start in, unless the running code is already inside it (an op in a tool).
 */
function resolve(own: TraceContext | undefined): TraceContext | undefined {
  if (nodes.size === 0) return own;
  const store = agentsStore();
  if (store === undefined) return own;
  const span = store.span;
  let node = span !== undefined ? register(span) : undefined;
  node ??= store.trace !== undefined ? nodes.get(store.trace.traceId) : undefined;
  const active = node === undefined ? undefined : started(node);
  return active === undefined ? own : deeper(own, active.ctx);
}

/** Adds the resolver (once). */
export function installResolver(): void {
  addContextResolver(resolve);
}
