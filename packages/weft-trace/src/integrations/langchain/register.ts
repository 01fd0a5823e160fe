/**
 * registerWeftTracer(): one `WeftTracer` for every LangChain run, through `@langchain/core`'s configure hooks.
 * @module
 */
import { registerConfigureHook, setContextVariable } from '@langchain/core/context';
import { addToEveryRun, type LangChainContextApi } from './configure-hook.js';
import { WeftTracer } from './weft-tracer.js';

/** The context module registered through: the one imported here, or the ESM build's under Node.js's ESM entry. */
let contextApi: LangChainContextApi = { registerConfigureHook, setContextVariable };

/**
 * @internal Hands over `@langchain/core/context` as an ES module: Node.js's ESM entry of `weft-trace/langchain`
 * (build/finish.mjs) runs this CommonJS build, whose own `@langchain/core/context` is the CommonJS build's, with
 * configure hooks an ESM app's runs never read.
 */
export function useLangChainContext(api: LangChainContextApi): void {
  contextApi = api;
}

/**
 * Adds `tracer` to the callbacks of every LangChain run started from here on, with no `callbacks` option: it
 * registers a configure hook (`registerConfigureHook` of `@langchain/core/context`) reading the context variable
 * `weft_tracer`, and sets that variable. LangChain keeps both in its AsyncLocalStorage, so they hold for the code
 * that runs after this call and for everything it starts: call it once at startup, at the top level of the entry
 * module (inside a function, it holds for that function's continuation only). A run that also gets a `WeftTracer`
 * in its `callbacks` has it once (LangChain keeps one handler per name), and so does a run of an app started with
 * `weft-trace/register`, which adds one the same way.
 * @returns the tracer.
 * @example registerWeftTracer(); // then: await chain.invoke(input)
 * @see https://v03.api.js.langchain.com/functions/_langchain_core.context.registerConfigureHook.html
 */
export function registerWeftTracer(tracer: WeftTracer = new WeftTracer()): WeftTracer {
  return addToEveryRun(contextApi, tracer);
}
