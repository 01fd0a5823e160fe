/**
 * Serialized events kept as bytes in shared off-heap buffers, and a batch's request body built as one Buffer from them.
 * @module
 */
import { HAS_BUFFER, utf8Length } from '../internal/runtime.js';
import type { Entry } from './entry.js';
import { END_HEAD, ITEM_TAIL, itemText, START_HEAD } from './event-json.js';

/**
 * Size of one shared buffer, bytes. Events are written into the current buffer back to back (each
 * followed by a comma), so the events of one batch are usually one contiguous run, copied at once.
 * A buffer is freed when no pending event points into it any more.
 */
const CHUNK_BYTES = 64 * 1024;

/** Events at least this large (UTF-8 bytes) keep their own string instead (a shared buffer holds at least 4). */
const MAX_PACKED_BYTES = CHUNK_BYTES / 4;

const COMMA = 0x2c;
const CLOSE_BRACE = 0x7d;
const BODY_HEAD = '{"batch":[';
const BODY_TAIL = ']}';

/**
 * An event whose JSON lives in a shared buffer: the garbage collector neither copies nor scans those
 * bytes (off-heap), where a kept string per event was copied by every scavenge until promoted (issue 16
 * item 4: the GC was the largest single cost of export). `json` decodes it again (spooling only).
 */
class PackedEntry implements Entry {
  constructor(
    readonly chunk: Buffer,
    readonly offset: number,
    readonly bytes: number,
    readonly call: Entry['call'],
  ) {}

  get json(): string {
    return this.chunk.toString('utf8', this.offset, this.offset + this.bytes);
  }
}

let chunk = HAS_BUFFER ? Buffer.allocUnsafeSlow(CHUNK_BYTES) : (undefined as unknown as Buffer); // no Buffer (Vercel Edge): entries keep their strings
let used = 0;

/**
 * The entry of an event serialized as `json` (`bytes` its UTF-8 length): its bytes copied into the
 * current shared buffer, or, when large, `json` kept as is.
 */
export function packedEntry(json: string, bytes: number, call: Entry['call']): Entry {
  if (bytes >= MAX_PACKED_BYTES || !HAS_BUFFER) return { json: flat(json), bytes, call };
  if (used + bytes + 1 > CHUNK_BYTES) {
    chunk = Buffer.allocUnsafeSlow(CHUNK_BYTES);
    used = 0;
  }
  const offset = used;
  chunk.write(json, offset, bytes, bytes === json.length ? 'latin1' : 'utf8'); // same length: all ASCII; a concatenation is read as it is, not flattened
  chunk[offset + bytes] = COMMA;
  used = offset + bytes + 1;
  return new PackedEntry(chunk, offset, bytes, call);
}

/** {@link START_HEAD} and {@link END_HEAD} as bytes, copied in front of each event (no Buffer: unused). */
const START_HEAD_BYTES = HAS_BUFFER ? Buffer.from(START_HEAD, 'latin1') : undefined;
const END_HEAD_BYTES = HAS_BUFFER ? Buffer.from(END_HEAD, 'latin1') : undefined;
/** Bytes an item adds around its event: the head of its mode and {@link ITEM_TAIL}. */
export const ITEM_FRAME_BYTES = { start: START_HEAD.length + ITEM_TAIL.length, end: END_HEAD.length + ITEM_TAIL.length } as const;

/**
 * The entry of the upsert_batch item `{"mode": mode, "req": {[mode]: event}}` whose event serializes to
 * `body`: the head, the body and the tail written straight into the current shared buffer, never joined into
 * one string first; its UTF-8 length is what the write took (so the text is not scanned twice). When the
 * body could be large (`body.length` UTF-16 units may take 3 bytes each) or there is no Buffer, the
 * joined string, with `bytes` counted (`bodyBytes`, the body's UTF-8 length, when the caller counted it already).
 */
export function packedItem(mode: 'start' | 'end', body: string, call: Entry['call'], bodyBytes?: number): Entry {
  const frame = ITEM_FRAME_BYTES[mode];
  const most = frame + body.length * 3;
  if (most >= MAX_PACKED_BYTES || !HAS_BUFFER) {
    // the frame is ASCII: its UTF-8 length is its length
    return { json: flat(itemText(mode, body)), bytes: frame + (bodyBytes ?? utf8Length(body)), call };
  }
  if (used + most + 1 > CHUNK_BYTES) {
    chunk = Buffer.allocUnsafeSlow(CHUNK_BYTES);
    used = 0;
  }
  const offset = used;
  const head = mode === 'start' ? START_HEAD_BYTES! : END_HEAD_BYTES!;
  chunk.set(head, offset);
  let pos = offset + head.length;
  pos += chunk.write(body, pos); // UTF-8; room for the most it can take was made above
  chunk[pos++] = CLOSE_BRACE;
  chunk[pos++] = CLOSE_BRACE;
  chunk[pos] = COMMA;
  used = pos + 1;
  return new PackedEntry(chunk, offset, pos - offset, call);
}

/**
 * The request body `{"batch":[e1,e2,...]}` of `batch` as one Buffer (so it is sent with a
 * content-length in one write, and never encoded again): runs of entries that lie back to back in a
 * shared buffer are copied at once, other entries' strings written.
 */
export function batchBody(batch: readonly Entry[]): Buffer | string {
  if (!HAS_BUFFER) return `${BODY_HEAD}${batch.map((e) => e.json).join(',')}${BODY_TAIL}`;
  let size = BODY_HEAD.length + BODY_TAIL.length + Math.max(0, batch.length - 1);
  for (const e of batch) size += e.bytes;
  const body = Buffer.allocUnsafeSlow(size);
  let pos = body.write(BODY_HEAD, 0, 'latin1');
  for (let i = 0; i < batch.length; ) {
    if (i > 0) body[pos++] = COMMA;
    const e = batch[i]!;
    if (e instanceof PackedEntry) {
      let end = e.offset + e.bytes;
      let j = i + 1;
      for (; j < batch.length; j++) {
        const next = batch[j];
        if (!(next instanceof PackedEntry) || next.chunk !== e.chunk || next.offset !== end + 1) break;
        end = next.offset + next.bytes; // the comma between them is in the buffer
      }
      pos += e.chunk.copy(body, pos, e.offset, end);
      i = j;
    } else {
      pos += body.write(e.json, pos, e.bytes, 'utf8');
      i++;
    }
  }
  pos += body.write(BODY_TAIL, pos, 'latin1');
  return pos === size ? body : body.subarray(0, pos);
}

/**
 * Makes V8 copy a string built by concatenation (a tree of pieces) into one flat string, now: a kept
 * string is kept until its batch is delivered, and a kept tree costs the garbage collector one object
 * per piece (3x the CPU of the flat text on this path, measured in the first pass of issue 16 item 4).
 * Reading a character flattens it.
 */
export function flat(s: string): string {
  flattened ^= s.charCodeAt(0); // kept in a variable, so the read is not optimized away
  return s;
}

let flattened = 0;
