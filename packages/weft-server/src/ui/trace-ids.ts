/**
 * Which trace a viewer URL means: a trace id or a call id in the trace's place, either with or without dashes, resolved to the ids as stored.
 * @module
 */

/** The fields of a call record the resolution reads. */
export interface IdsOf {
  id: string;
  trace_id: string;
}

/** The route to go to instead: the stored trace id, and the call to select (none: the root). */
export interface TraceTarget {
  traceId: string;
  callId?: string;
}

const bare = (id: string): string => id.replaceAll('-', '');

/**
 * Where the URL `#/p/<project>/trace/<traceId>[/<callId>]` should point instead, `undefined` when it is right as is.
 * `found` are the calls its trace id matched (the server matches an id with or without dashes); when none did, the id
 * may be a call's (an OTel root's call id differs from its trace id), which `callById` looks up.
 *
 * @param found - the calls `trace_ids: [traceId]` answered, in start order.
 * @param traceId - the id in the URL's trace place.
 * @param callId - the id in the URL's call place, if any.
 * @param callById - reads the call with an id (both forms matched), `undefined` when there is none.
 */
export async function traceTarget(
  found: readonly IdsOf[],
  traceId: string,
  callId: string | undefined,
  callById: (id: string) => Promise<IdsOf | undefined>,
): Promise<TraceTarget | undefined> {
  if (found.length === 0) {
    const call = await callById(traceId);
    return call ? { traceId: call.trace_id, callId: callId ?? call.id } : undefined;
  }
  const call = callId === undefined ? undefined : found.find((c) => c.id !== callId && bare(c.id) === bare(callId));
  const stored = found[0]!.trace_id;
  if (stored === traceId && call === undefined) return undefined;
  const selected = call?.id ?? callId;
  return selected === undefined ? { traceId: stored } : { traceId: stored, callId: selected };
}
