/**
 * Streams a call cursor as JSONL or as a JSON array, one page per pull, so a slow reader holds back the query.
 * @module
 */
import type { CallCursor } from './call-cursor.js';
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
 */
export function recordStream(
  cursor: CallCursor<WireRecord>,
  first: WireRecord[],
  format: StreamFormat,
  log: (line: string) => void,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let page: WireRecord[] | null = first;
  let pulls = 0;
  let count = 0;
  const encode = (records: WireRecord[]): string =>
    records.map((r) => (format === 'jsonl' ? `${JSON.stringify(r)}\n` : `${count++ === 0 ? '' : ','}${JSON.stringify(r)}`)).join('');
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      try {
        const size = pageSize(pulls++);
        const records = page ?? cursor.next(size);
        const done = records.length < size;
        page = null;
        let text = format === 'json' && !started ? '[' : '';
        started = true;
        text += encode(records);
        if (done) text += format === 'json' ? ']' : '';
        if (text) controller.enqueue(encoder.encode(text));
        if (done) {
          cursor.close();
          controller.close();
        }
      } catch (err) {
        cursor.close();
        log(`weft server: stream_query failed mid-stream: ${err instanceof Error ? err.stack : String(err)}`);
        controller.error(err);
      }
    },
    cancel() {
      cursor.close();
    },
  });
}
