/**
 * The one rule that counts a model request once when a framework integration and a provider wrapper both see it.
 * @module
 */
import type { Call } from '../instrument/call.js';

/**
 * The rule. A framework integration (`WeftExporter` for Mastra) records a framework's model call (a Mastra model
 * generation) as a weft call and marks it here. A provider wrapper (`wrapOpenAI`, `wrapAnthropic`, `wrapAISDK`)
 * whose request starts with such a call as its weft parent says so here. The provider wrapper's call is then THE
 * model call: it saw the request and the response as sent (exact usage, request id, response model) and records
 * the usage; the framework's call records no usage of its own (its summary still holds the wrapper's usage, merged
 * up from its child as any child's is). A framework model call with no wrapped request under it records the usage
 * the framework reports. Either way each request's tokens and cost are counted once in every summary up the tree.
 */
const providerRequests = new WeakMap<Call, number>();

/** Marks `call` as a framework's model call, under which a provider wrapper may record the requests. */
export function markFrameworkModelCall(call: Call): void {
  providerRequests.set(call, 0);
}

/** A provider wrapper started a model request whose weft parent is `parent`. */
export function noteProviderRequest(parent: Call | undefined): void {
  if (parent === undefined) return;
  const n = providerRequests.get(parent);
  if (n !== undefined) providerRequests.set(parent, n + 1);
}

/** Whether a provider wrapper recorded a request under the framework model call `call` (which then records no usage). */
export function countedByProvider(call: Call): boolean {
  return (providerRequests.get(call) ?? 0) > 0;
}
