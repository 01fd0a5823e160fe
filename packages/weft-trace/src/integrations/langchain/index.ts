/**
 * The `weft-trace/langchain` entry point: `WeftTracer` (a LangChain.js callback handler) and `registerWeftTracer()` (the same for every run).
 * @module
 */
export { WeftTracer } from './weft-tracer.js';
export { registerWeftTracer, useLangChainContext } from './register.js';
