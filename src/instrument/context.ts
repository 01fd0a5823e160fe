/**
 * The AsyncLocalStorage context that carries the current call through await, callbacks and timers.
 * @module
 */
import { getGlobal } from '../internal/global.js';
import type { Call } from './call.js';

/** The run a call belongs to (`svc_run_id`, `svc_run_step`); `step` changes with `setRunStep()`. */
export interface RunState {
  readonly runId: string;
  step: number | undefined;
}

/** Immutable per-async-path context. A new object is made for every change (except `run.step`). */
export interface TraceContext {
  /** The call whose body is running. */
  readonly call?: Call | undefined;
  /** True inside a trace that sampling left out: nothing below it is recorded. */
  readonly unsampled?: boolean;
  /** Attributes from `withAttributes()`, merged from the outermost in. */
  readonly attributes?: Readonly<Record<string, unknown>>;
  /** `thread_id` and `turn_id` from `withThread()`. */
  readonly threadId?: string;
  readonly turnId?: string | undefined;
  /** The run from `withRun()`. */
  readonly run?: RunState;
  /** The rollout of `trajectory()` (trajectories/) the code runs in: told of each finished model request. */
  readonly rollout?: ExchangeRecorder;
}

/** What the model-call wrappers tell a rollout: one finished request (its body as sent, the response or folded stream). */
export interface ExchangeRecorder {
  /** `format`: `openai.chat`, `openai.responses`, `anthropic.messages` or `ai`; never throws. */
  exchange(format: string, request: Readonly<Record<string, unknown>>, response: unknown): void;
}

/**
 * Given the context the running code's `AsyncLocalStorage` holds (`own`), the context calls should start in: a
 * deeper one when a framework that keeps its own context is inside a span weft records as a call (the OpenAI Agents
 * SDK's current span, integrations/openai-agents-tree.ts), else `own`. Never throws.
 */
export type ContextBridge = (own: TraceContext | undefined) => TraceContext | undefined;

const g = getGlobal();
const storage = g.storage;

/** The context of the running code, or `undefined` outside any op (through the {@link ContextBridge} when one is set). */
export function activeContext(): TraceContext | undefined {
  const own = storage.getStore();
  const bridge = g.contextBridge;
  return bridge === undefined ? own : bridge(own);
}

/** The context the running code's `AsyncLocalStorage` holds, without the {@link ContextBridge}. */
export function storedContext(): TraceContext | undefined {
  return storage.getStore();
}

/**
 * Adds `bridge` after the one already set (another copy of weft may have set its own): each sees what the one before
 * it returned. `false` when the registry has no slot for it (made by an older copy of weft).
 */
export function addContextBridge(bridge: ContextBridge): boolean {
  const before = g.contextBridge;
  try {
    g.contextBridge = before === undefined ? bridge : (own) => bridge(before(own));
    return true;
  } catch {
    return false;
  }
}

/** Runs `fn` with `ctx` as the active context. */
export function runInContext<A extends unknown[], R>(ctx: TraceContext, fn: (...args: A) => R, ...args: A): R {
  return storage.run(ctx, fn, ...args);
}
