/**
 * Where LangChain is running, read from its own async context: the run whose code runs now, as a weft context (so op() and the wrappers nest under it).
 * @module
 */
import type { TraceContext } from '../../instrument/context.js';
import { isWithin, type ContextResolver } from '../../instrument/framework-context.js';
import type { RunBridge } from '../run-bridge.js';

/** `@langchain/core`'s global AsyncLocalStorage (`singletons/async_local_storage/globals`) and its config key. */
const LC_STORAGE = Symbol.for('ls:tracing_async_local_storage');
const LC_CHILD_CONFIG = Symbol.for('lc:child_config');

type Obj = Record<PropertyKey, unknown>;

/**
 * The id of the run whose body runs now: LangChain runs a lambda's function, a tool's function and each LangGraph
 * node with its child config in its AsyncLocalStorage; that config's callback manager names the run as parent.
 */
function runningRunId(): string | undefined {
  const storage = (globalThis as Obj)[LC_STORAGE] as { getStore?: () => unknown } | undefined;
  const store = storage?.getStore?.() as Obj | undefined;
  const config = (store?.['extra'] as Obj | undefined)?.[LC_CHILD_CONFIG] as Obj | undefined;
  const callbacks = config?.['callbacks'] as { getParentRunId?: () => unknown } | undefined;
  const id = typeof callbacks?.getParentRunId === 'function' ? callbacks.getParentRunId() : undefined;
  return typeof id === 'string' ? id : undefined;
}

/**
 * The resolver `WeftTracer` adds: a call starting inside a LangChain run's body nests under that run, unless the
 * running weft call already is (or is under) that run. A provider wrapper's model request nests under the chat model
 * (or LLM) run that sent it, found by `RunBridge.modelRunFor`: `@langchain/core` versions without the
 * `wrapRunExecution` hook (1.4) run a model's `_generate` in its caller's context, and nothing in any async context
 * names the model run (LangChain's holds the caller's run, a node or a tool; a stream's body runs where it holds
 * none), so the run is found among those open under the caller, by the request's texts when several are open at once.
 * Once the hook is seen (`hooked()`), the running context is already the model's and this is skipped.
 */
export function langChainResolver(bridge: RunBridge, hooked: () => boolean): ContextResolver {
  return (ctx, request) => {
    const id = runningRunId();
    const run = id === undefined ? undefined : bridge.get(id)?.ctx;
    const chosen: TraceContext | undefined = run?.call !== undefined && !isWithin(ctx?.call, run.call) ? run : ctx;
    if (request === undefined || chosen?.unsampled || hooked()) return chosen;
    return bridge.modelRunFor(chosen?.call, request) ?? chosen;
  };
}
