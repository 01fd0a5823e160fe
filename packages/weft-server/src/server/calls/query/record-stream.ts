/**
 * Streams a call cursor as JSONL or as a JSON array, one page per pull, so a slow reader holds back the query.
 * @module
 */
import type { CallCursorApi } from './call-cursor.js';
import type { MaybePromise } from '../../db/store-api.js';
import type { TurnQueue } from '../turn-queue.js';
import type { WireRecord } from './columns.js';

/** Records read from the cursor per pull, once the stream is under way. */
export const PAGE_SIZE = 200;

/**
 * Records to read on pull number `pull` (0 is the page read before the response starts): 16, 64, then
 * {@link PAGE_SIZE}, so the first records leave before a full page has been read and encoded.
 */
export function pageSize(pull: number): number {
  return Math.min(PAGE_SIZE, 16 * 4 ** pull);
}

/**
 * Time one turn of a stream may spend reading, ms: pages are read until it is spent, so a stream read while
 * writes queue gets about this much of each round of turns (a page of 200 takes a few ms).
 */
export const SLICE_MS = 20;

type Slice = { records: WireRecord[]; done: boolean };

/**
 * Reads pages of `size` records until the cursor ends or `budgetMs` is spent (at least one page). A synchronous
 * cursor (SQLite) is read without yielding; an asynchronous one (PostgreSQL) page by page with awaits.
 * @returns the records, and whether the cursor ended.
 */
function readSlice(cursor: CallCursorApi<WireRecord>, size: number, budgetMs = SLICE_MS): MaybePromise<Slice> {
  const t0 = performance.now();
  const records: WireRecord[] = [];
  const take = (page: WireRecord[]): Slice | undefined => {
    records.push(...page);
    if (page.length < size) return { records, done: true };
    if (performance.now() - t0 >= budgetMs) return { records, done: false };
    return undefined;
  };
  for (;;) {
    const page = cursor.next(size);
    if (page instanceof Promise) return page.then(async function more(p): Promise<Slice> {
      return take(p) ?? more(await cursor.next(size));
    });
    const slice = take(page);
    if (slice) return slice;
  }
}

/** Wire format of a stream-query answer. */
export type StreamFormat = 'jsonl' | 'json';

/**
 * Picks the answer format from an `accept` header: a JSON array when it lists `application/json`
 * and not `application/jsonl`; JSONL otherwise (the spec default).
 */
export function formatFromAccept(accept: string | undefined): StreamFormat {
  const types = (accept ?? '').split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  return types.includes('application/json') && !types.includes('application/jsonl') ? 'json' : 'jsonl';
}

/**
 * Builds the response body. The first page is read by the caller before the response starts, so
 * query errors still become a proper error status; later pages are read as the client consumes.
 *
 * @param cursor - an open cursor; closed when the stream ends, fails or is cancelled.
 * @param first - the first page, already read with `cursor.next(pageSize(0))`.
 * @param format - JSONL (`\n` after each record) or one JSON array.
 * @param log - receives a line when reading fails mid-stream (the connection is then cut).
 * @param turns - where later pages wait for their turn, so a client reading fast does not hold the event
 *   loop for the whole stream (without it, each page is read as soon as it is pulled).
 */
export function recordStream(
  cursor: CallCursorApi<WireRecord>,
  first: WireRecord[],
  format: StreamFormat,
  log: (line: string) => void,
  turns?: TurnQueue,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let page: WireRecord[] | null = first;
  let pulls = 0;
  let count = 0;
  const encode = (records: WireRecord[]): string =>
    records.map((r) => (format === 'jsonl' ? `${JSON.stringify(r)}\n` : `${count++ === 0 ? '' : ','}${JSON.stringify(r)}`)).join('');
  let started = false;
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const size = pageSize(pulls++);
        const { records, done } = page ? { records: page, done: page.length < size } : turns ? await turns.run(() => readSlice(cursor, size)) : await readSlice(cursor, size, 0);
        if (cancelled) return;
        page = null;
        let text = format === 'json' && !started ? '[' : '';
        started = true;
        text += encode(records);
        if (done) text += format === 'json' ? ']' : '';
        if (text) controller.enqueue(encoder.encode(text));
        if (done) {
          await cursor.close();
          controller.close();
        }
      } catch (err) {
        await Promise.resolve(cursor.close()).catch(() => {});
        // a cursor closed by cancel() (the client left) fails the page being read: nothing to report then
        if (!cancelled) log(`weft server: stream_query failed mid-stream: ${err instanceof Error ? err.stack : String(err)}`);
        controller.error(err);
      }
    },
    cancel() {
      cancelled = true;
      return Promise.resolve(cursor.close()).catch(() => {});
    },
  });
}
