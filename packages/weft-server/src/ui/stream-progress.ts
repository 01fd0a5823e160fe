/**
 * A stream query read while the page watches: the records so far handed to the page at most once per `everyMs` (and
 * at the end), so it can say "loading 2,300 calls…" and draw its first rows while the rest of the JSONL arrives.
 * @module
 */
import { type CallRecord, type StreamQuery, streamRecordBatches } from './api';

/**
 * Runs `q` and collects its records, calling `onProgress` with the records read so far (the one array being filled, in
 * the order streamed: copy it to keep it) once `firstAt` have arrived (a screen of rows, drawn at once), then whenever `everyMs` have
 * passed since the last call (checked as each chunk of the answer is read), and once more at the end with `done` true.
 *
 * @param q - the `/calls/stream_query` body.
 * @param onProgress - receives the records so far (the array that grows); `done` is true for the last call (the whole
 *   answer read).
 * @param signal - aborts the request (the promise then rejects with an `AbortError`).
 * @param everyMs - the least time between two progress calls, in ms. @defaultValue 100
 * @param firstAt - the record count that calls `onProgress` at once, whatever the time. @defaultValue 64
 * @returns every record of the answer.
 * @throws NeedsKeyError on 401, Error with the status and the server's detail on another failure.
 */
export async function streamWithProgress(
  q: StreamQuery,
  onProgress: (records: readonly CallRecord[], done: boolean) => void,
  signal?: AbortSignal,
  everyMs = 100,
  firstAt = 64,
): Promise<CallRecord[]> {
  const out: CallRecord[] = [];
  let last = performance.now();
  let first = true;
  for await (const batch of streamRecordBatches(q, signal)) {
    for (const record of batch) out.push(record);
    const now = performance.now();
    if ((first && out.length >= firstAt) || now - last >= everyMs) {
      first = first && out.length < firstAt;
      last = now;
      onProgress(out, false);
    }
  }
  onProgress(out, true);
  return out;
}
