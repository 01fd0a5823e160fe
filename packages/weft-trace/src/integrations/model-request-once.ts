/**
 * The one rule that counts a model request once when a framework integration and a provider wrapper both see it.
 * @module
 */
import type { Call } from '../instrument/call.js';

/**
 * The rule: when a provider wrapper (`wrapOpenAI`, `wrapAnthropic`, `wrapAISDK`) records a model request while a
 * framework's model run (a LangChain chat model or LLM run) is its weft parent, the wrapper's call is THE model
 * call: it saw the request and the response as sent and received (exact usage, request id, response model), so it
 * records the usage, and the framework's run records none of its own (its summary still gets the wrapper's usage,
 * merged up from its child like any child's). A framework model run with no wrapped request under it (a model
 * whose client is not wrapped, or a fake) records the usage the framework reports, keyed by the model that answered
 * as the framework reports it, however the run was consumed (awaited, streamed, streamed for a callback). Either
 * way each request's tokens and cost are counted once in every summary up the tree.
 *
 * The request's parent is its own model run, also when several model runs are open at once under one caller
 * (`Promise.all`, `batch`, parallel graph nodes) and when a stream's body runs where the framework's context has
 * lost the run: where the framework runs the model's body in the run's context (LangChain's `wrapRunExecution`),
 * that context says; where it does not (`@langchain/core` 1.4), `RunBridge.modelRunFor` pairs the request with the
 * open model run whose messages it carries (`model-request-match.ts`). A request that carries none of their texts
 * (a model whose body rewrites its messages' text, while several runs are open at once) stays under its caller; the
 * run that sent it then records its own usage too, and that request is counted twice.
 */
const frameworkModelCalls = new WeakMap<Call, { requests: number }>();

/** Marks `call` as a framework's model run, whose request a provider wrapper may record too. */
export function markFrameworkModelCall(call: Call): void {
  frameworkModelCalls.set(call, { requests: 0 });
}

/** A provider wrapper is starting a model request under `parent` (its weft parent call). */
export function noteProviderRequest(parent: Call | undefined): void {
  if (parent === undefined) return;
  const seen = frameworkModelCalls.get(parent);
  if (seen) seen.requests++;
}

/** How many requests provider wrappers recorded under the framework model run `call`. */
export function providerRequests(call: Call): number {
  return frameworkModelCalls.get(call)?.requests ?? 0;
}

/** Whether a provider wrapper recorded a request under the framework model run `call` (so it records no usage). */
export function countedByProvider(call: Call): boolean {
  return providerRequests(call) > 0;
}
