/**
 * The parent context of a call starting now: the running weft context, or a deeper one that a framework integration knows of (a LangChain run).
 * @module
 */
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import type { Call } from './call.js';
import { activeContext, type TraceContext } from './context.js';

/**
 * Given the running weft context, the context a call starting now belongs in: the same, or the context of a
 * framework run the code runs inside (which weft's own context does not know of, because the framework ran the
 * code from a context of its own). `request`: for a provider wrapper's model request (which may belong to a
 * framework's model run, see `integrations/model-request-once.ts`), the SDK method's arguments (`[]` when they are
 * not known); `undefined` for any other call. Must be cheap.
 */
export type ContextResolver = (ctx: TraceContext | undefined, request: readonly unknown[] | undefined) => TraceContext | undefined;

const resolvers: ContextResolver[] = [];
let resolve: ContextResolver | undefined;

/** Adds `resolver` (once), asked after those added before it. */
export function addContextResolver(resolver: ContextResolver): void {
  if (resolvers.includes(resolver)) return;
  resolvers.push(resolver);
  compose();
}

/** `resolve`: none, the one resolver, or each in turn. */
function compose(): void {
  resolve = resolvers.length <= 1 ? resolvers[0] : (ctx, request) => resolvers.reduce((c, r) => r(c, request), ctx);
}

/**
 * The context a call starting now belongs in (the running one when no framework run says otherwise).
 * @param request - for a provider wrapper's model request, the SDK method's arguments (see {@link ContextResolver}).
 */
export function parentContext(request?: readonly unknown[]): TraceContext | undefined {
  const ctx = activeContext();
  if (resolve === undefined) return ctx;
  try {
    return resolve(ctx, request);
  } catch (err) {
    diag.warn(`a framework context resolver threw; the running context is used: ${safeMessage(err)}`);
    return ctx;
  }
}

/** Whether `call` is `ancestor` or started under it (weft parents, followed up the tree). */
export function isWithin(call: Call | undefined, ancestor: Call): boolean {
  for (let c = call; c !== undefined; c = c.parent) if (c === ancestor) return true;
  return false;
}
