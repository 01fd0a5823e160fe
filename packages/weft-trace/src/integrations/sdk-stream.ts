/**
 * An SDK's traced stream (OpenAI, Anthropic) keeps its helpers: `toReadableStream()` and `tee()` read the traced iterator, so a stream consumed through them is recorded too.
 * @module
 */

/**
 * The traced stream, whose `toReadableStream()` (the SDKs' helper for piping to a web response) reads
 * the traced iterator, so a stream consumed that way is recorded too; and so does `tee()`.
 */
export function withTracedReadable(traced: object, stream: object): object {
  return new Proxy(traced, {
    get(t, prop) {
      if (prop !== 'toReadableStream' && prop !== 'tee') return Reflect.get(t, prop) as unknown;
      const f: unknown = Reflect.get(stream, prop);
      if (typeof f !== 'function') return f;
      return prop === 'tee' ? () => teeTraced(stream as SdkStream, f, t as AsyncIterable<unknown>) : () => f.call(t) as unknown;
    },
  });
}

/** The part of an SDK `Stream` (OpenAI, Anthropic) that its `tee()` reads: `iterator`, the factory of its source iterator. */
interface SdkStream {
  iterator?: unknown;
}

/**
 * `tee()` of the SDK's stream whose two branches share the traced iterator: the SDK's `tee()` splits what
 * `this.iterator()` returns (it has `#private` fields, so it runs on the stream itself), so that factory is
 * swapped for the traced iterator while it runs. The call ends when the shared source is read to its end,
 * whichever branch reads it; a branch left early does not end it (the SDK's branches have no `return()`).
 * A stream without an own `iterator` factory is split untraced.
 */
function teeTraced(stream: SdkStream, tee: Function, traced: AsyncIterable<unknown>): unknown {
  const own = Object.getOwnPropertyDescriptor(stream, 'iterator');
  if (own === undefined || !own.writable || typeof own.value !== 'function') return tee.call(stream) as unknown;
  const it = traced[Symbol.asyncIterator]();
  stream.iterator = () => it;
  try {
    return tee.call(stream) as unknown;
  } finally {
    stream.iterator = own.value as unknown;
  }
}
