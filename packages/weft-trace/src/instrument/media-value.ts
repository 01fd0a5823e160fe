/**
 * A media value found in a call's inputs or output (or made by `weftMedia()`): held as its source until the call is
 * serialized for export, where it becomes a `MediaRef` and its bytes are handed to the file uploader (`MediaSink`).
 * @module
 */
import { bytesOfBase64 } from '../internal/runtime.js';
import { MEDIA_REF_TYPE, type MediaRef } from '../schema/media.js';
import { base64Head, base64Size, looksBase64, OCTET_STREAM, parseDataUrl, sniffMimeType } from './media-sniff.js';

/**
 * Where media bytes go: the export pipeline's file uploader (`export/file-uploader.ts`). `take` runs when the call
 * holding the value is serialized, after the caller's turn, and never throws.
 */
export interface MediaSink {
  /** Largest file stored, in bytes: a larger value is not decoded and its reference says why. */
  readonly maxFileBytes: number;
  /** Takes bytes to store as a file of the project: `{digest}` (sent in the background, once per digest) or `{dropped}` (why not). */
  take(bytes: Uint8Array, mimeType: string): { digest: string } | { dropped: string };
}

/** What a media value is read from, decoded only when its call is serialized. */
type Source =
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  | { readonly kind: 'base64'; readonly text: string; readonly start: number }
  | { readonly kind: 'blob'; readonly blob: Blob; bytes: Uint8Array | undefined; failed: string | undefined };

/** Media values made so far in this process (`capture.ts` looks for their places only when it grew). */
let made = 0;

/** How many media values were made so far: a capture that changed it holds one. */
export function mediaMade(): number {
  return made;
}

/** Blob reads not finished yet (the exporter waits for them before serializing calls). */
const blobReads = new Set<Promise<void>>();

/** When Blob reads are running: runs `then` once those started so far are done, and returns `true`; else `false`. */
export function afterBlobReads(then: () => void): boolean {
  const reads = blobReadsDone();
  if (reads) void reads.then(then);
  return reads !== undefined;
}

/** A promise of the Blob reads started so far, or `undefined` when none are running. */
export function blobReadsDone(): Promise<void> | undefined {
  return blobReads.size === 0 ? undefined : Promise.all(blobReads).then(() => undefined);
}

/**
 * A media value of a recorded call. Its own enumerable fields are those of its {@link MediaRef} so far: `_type`,
 * `mime_type`, `size_bytes`, `where` (what `mask` sees: returning it keeps it, returning something else drops it);
 * `JSON.stringify` turns it into the whole reference (`toJSON`), handing its bytes to the sink once.
 */
export class MediaValue {
  readonly _type = MEDIA_REF_TYPE;
  readonly mime_type: string;
  readonly size_bytes: number;
  /** Path of the value in the recorded inputs or output (set by `locateMedia`). */
  where = '';
  #source: Source | undefined;
  #sink: MediaSink | undefined;
  #ref: MediaRef | undefined;

  /** @internal Use {@link weftMedia}, or let the serializer find media. */
  constructor(source: Source, mimeType: string, sizeBytes: number, sink: MediaSink | undefined) {
    this.#source = source;
    this.#sink = sink;
    this.mime_type = mimeType;
    this.size_bytes = sizeBytes;
    made++;
  }

  /** The same media for another place, stored through `sink` (a `weftMedia()` value is never changed by recording it). */
  placed(sink: MediaSink | undefined): MediaValue {
    const source = this.#source;
    if (this.#sink === sink || source === undefined) return this;
    if (source.kind === 'blob') return mediaOfBlob(source.blob, this.mime_type, sink);
    return new MediaValue(source, this.mime_type, this.size_bytes, sink);
  }

  /** The reference stored in the call: computed once, the bytes handed to the sink then and released. */
  toJSON(): MediaRef {
    if (this.#ref) return { ...this.#ref, where: this.where };
    const ref = { _type: MEDIA_REF_TYPE, mime_type: this.mime_type, size_bytes: this.size_bytes, ...this.stored(), where: this.where } as MediaRef;
    this.#ref = ref;
    this.#source = undefined;
    return ref;
  }

  private stored(): { digest: string } | { dropped: string } {
    const sink = this.#sink;
    if (!sink) return { dropped: 'media storage is off (init({ media: false }))' };
    if (this.size_bytes > sink.maxFileBytes) return { dropped: `over the ${megabytes(sink.maxFileBytes)} limit (${megabytes(this.size_bytes)})` };
    const bytes = bytesOf(this.#source);
    if (typeof bytes === 'string') return { dropped: bytes };
    return sink.take(bytes, this.mime_type);
  }
}

/** The bytes of a source, or why there are none. */
function bytesOf(source: Source | undefined): Uint8Array | string {
  if (!source) return 'no bytes';
  if (source.kind === 'bytes') return source.bytes;
  if (source.kind === 'blob') return source.bytes ?? source.failed ?? 'the Blob was not read before its call was queued';
  return bytesOfBase64(source.start === 0 ? source.text : source.text.slice(source.start));
}

/** `12.3 MB`: bytes in decimal megabytes, one decimal. */
function megabytes(n: number): string {
  const mb = n / 1_000_000;
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

/** A media value of base64 text (`text` from `start`), its type given or read from its first bytes. */
export function mediaOfBase64(text: string, start: number, mimeType: string | undefined, sink: MediaSink | undefined): MediaValue {
  const type = mimeType ?? sniffMimeType(base64Head(text, start)) ?? OCTET_STREAM;
  return new MediaValue({ kind: 'base64', text, start }, type, base64Size(text, start), sink);
}

/**
 * A base64 `data:` URL, or bare base64 text of at least 128 characters, as a media value; `undefined` for any other
 * string. Bare base64 whose bytes name no type stays text unless it is over `maxStringLength` (it would be cut):
 * a hash or an id is not media.
 */
export function mediaOfText(s: string, sink: MediaSink | undefined, maxStringLength: number): MediaValue | undefined {
  const url = parseDataUrl(s);
  if (url) return mediaOfBase64(s, url.start, url.mimeType, sink);
  if (!looksBase64(s)) return undefined;
  const type = sniffMimeType(base64Head(s));
  if (type === undefined && s.length <= maxStringLength) return undefined;
  return mediaOfBase64(s, 0, type ?? OCTET_STREAM, sink);
}

/**
 * A media value of bytes, copied (the caller may reuse its buffer once the call returns), up to `maxCopy` bytes:
 * a larger value is not copied, its reference says it is over the limit.
 */
export function mediaOfBytes(view: Uint8Array, mimeType: string | undefined, sink: MediaSink | undefined, maxCopy: number): MediaValue {
  const type = mimeType ?? sniffMimeType(view.subarray(0, 16)) ?? OCTET_STREAM;
  const bytes = view.byteLength > maxCopy ? new Uint8Array(0) : view.slice();
  return new MediaValue({ kind: 'bytes', bytes }, type, view.byteLength, sink);
}

/** A media value of a `Blob`, read in the background (the exporter waits for the read before serializing the call). */
export function mediaOfBlob(blob: Blob, mimeType: string | undefined, sink: MediaSink | undefined): MediaValue {
  const source: Source = { kind: 'blob', blob, bytes: undefined, failed: undefined };
  const value = new MediaValue(source, mimeType ?? (blob.type || OCTET_STREAM), blob.size, sink);
  if (sink && blob.size <= sink.maxFileBytes) {
    const read: Promise<void> = blob.arrayBuffer().then(
      (b) => void (source.bytes = new Uint8Array(b)),
      (err: unknown) => void (source.failed = `the Blob could not be read: ${err instanceof Error ? err.message : String(err)}`),
    ).finally(() => blobReads.delete(read));
    blobReads.add(read);
  }
  return value;
}

/**
 * Marks `data` as media to store as a file, for a value weft would not recognise as media by itself (bytes of
 * another type, base64 text shorter than 128 characters, a type the bytes do not say): recorded in an op's inputs
 * or output, it becomes a `MediaRef` (`{"_type": "weft.media", mime_type, size_bytes, digest, where}`) and the bytes
 * a file of the project, read back with `POST /file/content {project_id, digest}`.
 * @param data - the bytes: a `Uint8Array` (a `Buffer`), an `ArrayBuffer`, a `Blob`, base64 text or a base64 `data:` URL.
 * @param mimeType - the media type, e.g. `image/png`. @defaultValue the data URL's or Blob's type, else what the
 *   bytes' magic numbers say, else `application/octet-stream`
 * @returns a value to pass to (or return from) a traced function; never throws.
 * @example
 * const describe = op(async (image: unknown) => ask(image));
 * await describe(weftMedia(readFileSync('cat.png'), 'image/png'));
 * @see docs/tracing.md, "Media"
 */
export function weftMedia(data: Uint8Array | ArrayBuffer | Blob | string, mimeType?: string): MediaValue {
  if (typeof data === 'string') {
    const comma = data.startsWith('data:') ? data.indexOf(',') : -1;
    const type = comma > 0 ? data.slice(5, comma).split(';', 1)[0] || undefined : undefined;
    return mediaOfBase64(data, comma + 1, mimeType ?? type, undefined);
  }
  if (typeof Blob === 'function' && data instanceof Blob) return mediaOfBlob(data, mimeType, undefined);
  const view = data instanceof Uint8Array ? data : new Uint8Array(data as ArrayBuffer);
  return mediaOfBytes(view, mimeType, undefined, Infinity);
}
