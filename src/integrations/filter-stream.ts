/**
 * An async iterable (an SDK stream object) behind a Proxy whose iteration skips the chunks a wrapper asked for and the caller did not.
 * @module
 */

/** Iterates `it`, skipping the values for which `skip` is true. */
class SkippingIterator implements AsyncIterator<unknown> {
  constructor(
    private readonly it: AsyncIterator<unknown>,
    private readonly skip: (chunk: unknown) => boolean,
  ) {}

  next(): Promise<IteratorResult<unknown>> {
    return this.it.next().then(this.onResult);
  }

  /** A result passed on, or (a skipped chunk) the next one; no extra `async` frame per chunk. */
  private readonly onResult = (r: IteratorResult<unknown>): IteratorResult<unknown> | Promise<IteratorResult<unknown>> =>
    r.done || !this.skip(r.value) ? r : this.next();

  return(value?: unknown): Promise<IteratorResult<unknown>> {
    return this.it.return ? this.it.return(value) : Promise.resolve({ done: true, value });
  }

  throw(err?: unknown): Promise<IteratorResult<unknown>> {
    if (this.it.throw) return this.it.throw(err);
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

/**
 * `stream` whose `[Symbol.asyncIterator]()` skips the chunks `skip` returns true for (it may record them);
 * every other member is the stream's own, bound to it.
 */
export function filterStream<T extends AsyncIterable<unknown> & object>(stream: T, skip: (chunk: unknown) => boolean): T {
  return new Proxy(stream, {
    get(t, prop) {
      if (prop === Symbol.asyncIterator) return () => new SkippingIterator(t[Symbol.asyncIterator](), skip);
      const v: unknown = Reflect.get(t, prop, t);
      return typeof v === 'function' && prop !== 'constructor' ? v.bind(t) : v;
    },
  });
}
