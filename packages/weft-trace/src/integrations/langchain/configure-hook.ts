/**
 * How a `WeftTracer` joins every LangChain run: a configure hook reading a context variable, through a copy of
 * `@langchain/core/context` (the one `registerWeftTracer()` imports, or the one the no-code route finds beside the app's).
 * @module
 */
import type { WeftTracer } from './weft-tracer.js';

/** The LangChain context variable holding the tracer (LangChain keeps one handler per name in a run's callbacks). */
export const CONTEXT_VAR = 'weft_tracer';

/** The two functions of `@langchain/core/context` used, from whichever copy of it. */
export interface LangChainContextApi {
  registerConfigureHook(config: { contextVar: string; inheritable: boolean }): void;
  setContextVariable(name: string, value: unknown): void;
}

/**
 * Registers the configure hook reading {@link CONTEXT_VAR} and sets that variable to `tracer`, in `api`'s copy of
 * LangChain's AsyncLocalStorage: every run started after this, in the code that follows and what it starts, has the
 * tracer once.
 * @see https://v03.api.js.langchain.com/functions/_langchain_core.context.registerConfigureHook.html
 */
export function addToEveryRun(api: LangChainContextApi, tracer: WeftTracer): WeftTracer {
  api.registerConfigureHook({ contextVar: CONTEXT_VAR, inheritable: true });
  api.setContextVariable(CONTEXT_VAR, tracer);
  return tracer;
}
