/**
 * `GET /weft/files/:entity/:project/:digest?type=<mime>` (a weft extension): a call's media file as the browser loads
 * it into `<img src>`, `<audio src>` or a new tab, with its content type, caching by digest and byte ranges.
 * @module
 */
import { Hono } from 'hono';
import rangeParser from 'range-parser';
import { WEFT_FILES_ROUTE } from '../../media-ref.js';
import { GRANTED_PROJECTS } from '../http/auth.js';
import { HttpError } from '../http/http-error.js';
import type { FileStore } from './file-store.js';

/**
 * Types served as they are and shown in the page (`Content-Disposition: inline`): images a browser decodes without
 * running scripts (no SVG), audio, video, PDF and plain text. Any other `?type=` is served as
 * `application/octet-stream`, as an attachment.
 */
export const INLINE_TYPES: ReadonlySet<string> = new Set([
  'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp',
  'audio/wav', 'audio/x-wav', 'audio/wave', 'audio/mpeg', 'audio/mp3', 'audio/mp4', 'audio/aac', 'audio/ogg', 'audio/webm', 'audio/flac', 'audio/opus',
  'video/mp4', 'video/webm', 'video/ogg',
  'application/pdf', 'text/plain',
]);

/** `Cache-Control` of a file: its URL names its bytes (the digest), so the browser keeps it; private, as it may need a key. */
const CACHE = 'private, max-age=31536000, immutable';

/**
 * The headers every answer of a file carries: no sniffing, no embedding by other sites, and for what is not a PDF a
 * sandbox with no scripts, so a file opened in a tab runs nothing (Chromium's PDF viewer does not run in a sandbox).
 */
function safetyHeaders(type: string): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
    ...(type === 'application/pdf' ? {} : { 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox" }),
  };
}

/** The type to serve for `?type=`: the value when it is on {@link INLINE_TYPES} (parameters dropped), else octet-stream. */
export function servedType(asked: string | undefined): { type: string; inline: boolean } {
  const type = (asked ?? '').split(';')[0]!.trim().toLowerCase();
  return INLINE_TYPES.has(type) ? { type, inline: true } : { type: 'application/octet-stream', inline: false };
}

/** Whether an `If-None-Match` header names `etag` (or is `*`). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((t) => { const v = t.trim().replace(/^W\//, ''); return v === etag || v === '*'; });
}

/**
 * Builds the route; mount it after the auth middleware (with API keys a request needs a key granted the project; the
 * viewer then reads the file with its key and shows it from a `blob:` URL).
 *
 * Answers: 200 with the bytes; 206 with `Content-Range` for one satisfiable `Range: bytes=...` (several ranges are
 * answered whole, 200); 416 with `Content-Range: bytes *\/<size>` for none; 304 for an `If-None-Match` naming the
 * digest; 404 `{detail}` for a digest the project does not hold (a file not stored yet: the SDK sends files after their
 * calls); 403 `{detail}` for a project outside the key's grants. Headers: `Content-Type` from `?type=` on
 * {@link INLINE_TYPES} (else `application/octet-stream` and `Content-Disposition: attachment`), `ETag` the quoted
 * digest, `Cache-Control` immutable, `Accept-Ranges: bytes`, `X-Content-Type-Options: nosniff`,
 * `Cross-Origin-Resource-Policy: same-origin`, and a sandboxing `Content-Security-Policy` (not for PDFs).
 *
 * @param files - the files store.
 * @see RFC 9110 §14 (range requests), §13.1.2 (If-None-Match)
 */
export function fileServeRoutes(files: FileStore): Hono {
  const app = new Hono();
  app.get(WEFT_FILES_ROUTE, async (c) => {
    const { entity, project, digest } = c.req.param();
    const projectId = `${entity}/${project}`;
    const granted = c.get(GRANTED_PROJECTS as never) as readonly string[] | null | undefined;
    if (granted != null && !granted.includes(projectId)) throw new HttpError(403, `this API key is not granted project ${JSON.stringify(projectId)}`);
    const { type, inline } = servedType(c.req.query('type'));
    const etag = `"${digest}"`;
    const headers: Record<string, string> = {
      ...safetyHeaders(type),
      ETag: etag,
      'Cache-Control': CACHE,
      'Accept-Ranges': 'bytes',
    };
    if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    const range = c.req.header('range');
    let satisfiable = true;
    const part = await files.part(projectId, digest, (size) => {
      const asked = range === undefined ? -2 : rangeParser(size, range, { combine: true });
      if (asked === -1) satisfiable = false;
      // one range of bytes is read alone; a malformed header or several ranges get the whole file (RFC 9110 §14.2)
      return asked === -1 ? null : asked !== -2 && asked.type === 'bytes' && asked.length === 1 ? [asked[0]!.start, asked[0]!.end] : undefined;
    });
    if (!part) throw new HttpError(404, `no file with digest ${JSON.stringify(digest)} in project ${JSON.stringify(projectId)} (not stored yet, or deleted)`);
    headers['Content-Type'] = type;
    headers['Content-Disposition'] = inline ? 'inline' : 'attachment';
    if (!satisfiable) return c.body(null, 416, { ...headers, 'Content-Range': `bytes */${part.sizeBytes}` });
    const body = new Uint8Array(part.bytes.buffer as ArrayBuffer, part.bytes.byteOffset, part.bytes.byteLength);
    if (part.range) return c.body(body, 206, { ...headers, 'Content-Range': `bytes ${part.range[0]}-${part.range[1]}/${part.sizeBytes}` });
    return c.body(body, 200, headers);
  });
  return app;
}
