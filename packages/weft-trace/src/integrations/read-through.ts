/**
 * A web `ReadableStream` passed on as it is, told to hooks as it is read: each part, its end, its failure, its cancel.
 * @module
 */

/** What {@link readThrough} tells of a stream; the hooks run before the consumer sees the outcome and must not throw. */
export interface ReadHooks<T> {
  /** A part, before it is handed on. */
  part?(value: T): void;
  /** The stream ended, before the consumer sees its end. */
  done?(): void;
  /** A read failed with `err` (then rethrown to the consumer). */
  failed(err: unknown): void;
  /** The consumer cancelled (then passed on to the stream). */
  cancelled(): void;
}

/**
 * `stream` read through `hooks`: the same parts, end, error and cancel for the consumer. `highWaterMark` (parts) as
 * for a `ReadableStream`: 0 reads only when the consumer does.
 */
export function readThrough<T>(stream: ReadableStream<T>, hooks: ReadHooks<T>, highWaterMark?: number): ReadableStream<T> {
  const reader = stream.getReader();
  const source: UnderlyingDefaultSource<T> = {
    async pull(controller) {
      let next: ReadableStreamReadResult<T>;
      try {
        next = await reader.read();
      } catch (err) {
        hooks.failed(err);
        throw err;
      }
      if (next.done) {
        hooks.done?.();
        controller.close();
        return;
      }
      hooks.part?.(next.value);
      controller.enqueue(next.value);
    },
    cancel(reason) {
      hooks.cancelled();
      return reader.cancel(reason);
    },
  };
  return highWaterMark === undefined ? new ReadableStream<T>(source) : new ReadableStream<T>(source, { highWaterMark });
}
