/**
 * Recognises what a function returned as a stream (generator, async generator, web ReadableStream, async iterable)
 * and hands the caller a traced one that yields exactly the same chunks.
 * @module
 */
import { runStep, TracedAsyncIterator, TracedIterator, type StreamObserver } from './iterators.js';

export type { StreamObserver } from './iterators.js';

/** The stream shapes op() traces lazily. */
export type StreamKind = 'generator' | 'asyncGenerator' | 'readableStream' | 'asyncIterable';

/**
 * The stream shape of `v`, or `undefined` for anything else (including arrays, other sync iterables,
 * locked ReadableStreams and Node.js streams, which are recorded as plain values). Never throws.
 */
export function streamKind(v: unknown): StreamKind | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  try {
    if (typeof ReadableStream === 'function' && v instanceof ReadableStream) return v.locked ? undefined : 'readableStream';
    const tag = Object.prototype.toString.call(v);
    if (tag === '[object Generator]') return 'generator';
    if (tag === '[object AsyncGenerator]') return 'asyncGenerator';
    const o = v as { [Symbol.asyncIterator]?: unknown; pipe?: unknown };
    if (typeof o[Symbol.asyncIterator] === 'function' && typeof o.pipe !== 'function') return 'asyncIterable';
  } catch {
    // a hostile object (e.g. a revoked Proxy) is recorded as a plain value
  }
  return undefined;
}

/** What the caller gets instead of `value`: the same stream, traced. */
export function wrapStream(kind: StreamKind, value: unknown, obs: StreamObserver): unknown {
  switch (kind) {
    case 'generator':
      return new TracedIterator(value as Iterator<unknown>, obs);
    case 'asyncGenerator':
      return new TracedAsyncIterator(value as AsyncIterator<unknown>, obs);
    case 'readableStream':
      return traceReadable(value as ReadableStream<unknown>, obs);
    case 'asyncIterable':
      return proxyAsyncIterable(value as AsyncIterable<unknown> & object, obs);
  }
}

function readOnce(reader: ReadableStreamDefaultReader<unknown>): Promise<ReadableStreamReadResult<unknown>> {
  return reader.read();
}

/**
 * A new ReadableStream that pulls from `src` only when its consumer reads (high-water mark 0, so nothing
 * is read ahead), passes every chunk and error on unchanged, and cancels `src` when it is cancelled.
 */
function traceReadable(src: ReadableStream<unknown>, obs: StreamObserver): ReadableStream<unknown> {
  let reader: ReadableStreamDefaultReader<unknown> | undefined;
  return new ReadableStream<unknown>(
    {
      async pull(controller) {
        reader ??= src.getReader();
        let r: ReadableStreamReadResult<unknown>;
        try {
          r = await runStep(obs.ctx, readOnce, reader);
        } catch (err) {
          obs.fail(err);
          controller.error(err);
          return;
        }
        if (r.done) {
          obs.complete();
          controller.close();
        } else {
          obs.chunk(r.value);
          controller.enqueue(r.value);
        }
      },
      async cancel(reason) {
        obs.cancel();
        await (reader ? reader.cancel(reason) : src.cancel(reason));
      },
    },
    { highWaterMark: 0 },
  );
}

/** Methods that must see the proxy as `this`. */
const UNBOUND = new Set<PropertyKey>(['constructor']);

/**
 * A Proxy of an async iterable (e.g. an SDK's stream object): its first `[Symbol.asyncIterator]()` is traced;
 * every other property and method is the target's own (methods bound to the target).
 */
function proxyAsyncIterable(target: AsyncIterable<unknown> & object, obs: StreamObserver): object {
  let used = false;
  const iterate = function tracedAsyncIterator(): AsyncIterator<unknown> {
    const it = runStep(obs.ctx, () => target[Symbol.asyncIterator]());
    if (used) return it;
    used = true;
    return new TracedAsyncIterator(it, obs);
  };
  return new Proxy(target, {
    get(t, prop) {
      if (prop === Symbol.asyncIterator) return iterate;
      const v: unknown = Reflect.get(t, prop, t);
      return typeof v === 'function' && !UNBOUND.has(prop) ? v.bind(t) : v;
    },
  });
}
