/**
 * The SDK's `APIPromise` (OpenAI, Anthropic) behind a Proxy that ends a traced model request (llm-call.ts) with what the
 * promise settles to: `then` and its kin, `withResponse()`, `asResponse()`, and the SDK-internal `_thenUnwrap()`.
 * @module
 */
import type { ActiveCall } from '../instrument/active-call.js';

/** The part of a `Response` the request reads: its headers, its status and a clone's JSON body. */
export type ResponseLike = { headers: { get(name: string): string | null }; status: number; clone(): { json(): Promise<unknown> } };

/** What the proxy needs of the request it ends (llm-call.ts's `LlmCall`). */
export interface SettlingCall {
  /** The SDK's `APIPromise` of the request, set by {@link proxyApiPromise}. */
  source: { asResponse?: unknown } | undefined;
  /** Ends the call with the parsed value (or traces the stream it is) and answers what the caller gets. */
  settle(active: ActiveCall, value: unknown, response: { headers: { get(name: string): string | null } } | undefined): unknown;
}

/**
 * The SDK's `APIPromise` behind a Proxy: `then`/`catch`/`finally` and `withResponse()` end the call with
 * the parsed value (or trace the stream it is), `asResponse()` with the JSON body read from a clone;
 * a rejection is recorded and passed on unchanged. Every other member is the promise's own.
 */
export function proxyApiPromise(p: PromiseLike<unknown> & object, call: SettlingCall, active: ActiveCall): object {
  call.source = p as { asResponse?: unknown };
  const fail = (err: unknown): never => {
    active.fail(err);
    throw err;
  };
  const then = (onF?: unknown, onR?: unknown): PromiseLike<unknown> =>
    p.then(
      (v) => {
        const h = call.settle(active, v, undefined);
        return typeof onF === 'function' ? onF(h) : h;
      },
      (err: unknown) => {
        active.fail(err);
        if (typeof onR === 'function') return onR(err);
        throw err;
      },
    );
  const target = p as unknown as { withResponse(): Promise<{ data: unknown; response: ResponseLike }>; asResponse(): Promise<ResponseLike> };
  return new Proxy(p, {
    get(t, prop) {
      switch (prop) {
        case 'then':
          return then;
        case 'catch':
          return (onR?: unknown) => then(undefined, onR);
        case 'finally':
          return (f?: () => void) => then((v: unknown) => (f?.(), v), (e: unknown) => (f?.(), fail(e)));
        case 'withResponse':
          return () => target.withResponse().then((r) => ({ ...r, data: call.settle(active, r.data, r.response) }), fail);
        case 'asResponse':
          return () => target.asResponse().then((r) => (recordRaw(call, active, r), r), fail);
        case '_thenUnwrap':
          return typeof Reflect.get(t, prop) === 'function' ? thenUnwrapTraced(target as unknown as Unwrappable, call, active) : undefined;
      }
      const v: unknown = Reflect.get(t, prop, t);
      return typeof v === 'function' && prop !== 'constructor' ? v.bind(t) : v;
    },
  });
}

/** The SDK-internal `APIPromise._thenUnwrap(transform)`: a new `APIPromise` of `transform(parsed value, {response, ...})`. */
interface Unwrappable {
  _thenUnwrap(transform: (data: unknown, props: { response?: ResponseLike }) => unknown): PromiseLike<unknown>;
}

/**
 * `_thenUnwrap()`, which the SDK's own helpers call on the request they made (openai 7's `responses.stream()`
 * reads the request's metadata so): the transform is handed the traced value (the traced stream), so the call ends
 * as with `then`, and a failed request is recorded. The SDK's result is returned unchanged.
 */
function thenUnwrapTraced(target: Unwrappable, call: SettlingCall, active: ActiveCall): Unwrappable['_thenUnwrap'] {
  return (transform) => {
    const next = target._thenUnwrap((data, props) => transform(call.settle(active, data, props?.response), props));
    next.then(undefined, (err: unknown) => active.fail(err));
    return next;
  };
}

/** `asResponse()`: the caller reads the body; the call records the JSON of a clone (an event stream is not read). */
function recordRaw(call: SettlingCall, active: ActiveCall, r: ResponseLike): void {
  if ((r.headers.get('content-type') ?? '').includes('json')) {
    r.clone()
      .json()
      .then((body) => call.settle(active, body, r), (err: unknown) => active.fail(err));
  } else {
    call.settle(active, { status: r.status }, r);
  }
}
