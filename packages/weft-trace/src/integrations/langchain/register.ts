/**
 * registerWeftTracer(): one `WeftTracer` for every LangChain run, through `@langchain/core`'s configure hooks.
 * @module
 */
import { registerConfigureHook, setContextVariable } from '@langchain/core/context';
import { WeftTracer } from './weft-tracer.js';

/** The LangChain context variable holding the tracer. */
const CONTEXT_VAR = 'weft_tracer';

/**
 * Adds `tracer` to the callbacks of every LangChain run started from here on, with no `callbacks` option: it
 * registers a configure hook (`registerConfigureHook` of `@langchain/core/context`) reading the context variable
 * `weft_tracer`, and sets that variable. LangChain keeps both in its AsyncLocalStorage, so they hold for the code
 * that runs after this call and for everything it starts: call it once at startup, at the top level of the entry
 * module (inside a function, it holds for that function's continuation only). A run that also gets a `WeftTracer`
 * in its `callbacks` has it once (LangChain keeps one handler per name).
 * @returns the tracer.
 * @example registerWeftTracer(); // then: await chain.invoke(input)
 * @see https://v03.api.js.langchain.com/functions/_langchain_core.context.registerConfigureHook.html
 */
export function registerWeftTracer(tracer: WeftTracer = new WeftTracer()): WeftTracer {
  registerConfigureHook({ contextVar: CONTEXT_VAR, inheritable: true });
  setContextVariable(CONTEXT_VAR, tracer);
  return tracer;
}
