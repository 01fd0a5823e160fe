/**
 * The media reference a stored call holds in place of an image, audio clip or document (issue 51), as the server and the
 * viewer read it: its shape, a guard, a bounded walk that finds every reference in a JSON value, and the GET path that
 * serves its bytes. The shape is the SDK's (`MediaRef` of `weft-trace/wire`, its zod-free guard from `weft-trace/viewer`);
 * this file is pure, imported by the server (server/), the CLI (cli/) and the viewer (ui/) alike.
 * @module
 */

import { isMediaRef as isWireMediaRef, MEDIA_REF_TYPE, type MediaRef } from 'weft-trace/viewer';

export type { MediaRef };

/** The `_type` of a media reference (weft-trace's `MEDIA_REF_TYPE`). */
export const MEDIA_TYPE = MEDIA_REF_TYPE;

/** Whether `v` is a media reference: weft-trace's `isMediaRef` (its `_type`), and a string `mime_type` to draw it by. */
export function isMediaRef(v: unknown): v is MediaRef {
  return isWireMediaRef(v) && !Array.isArray(v) && typeof (v as { mime_type?: unknown }).mime_type === 'string';
}

/** A media reference whose bytes were stored (it has a digest). */
export type StoredMediaRef = MediaRef & { digest: string };

/** Whether `ref` points at a stored file: a digest of the server's alphabet (base64url letters, 1-128). */
export function isStoredMediaRef(ref: MediaRef): ref is StoredMediaRef {
  return typeof ref.digest === 'string' && /^[A-Za-z0-9]{1,128}$/.test(ref.digest);
}

/** Stop walking a value after this many nodes, so a huge payload cannot stall a write or a page. */
const MAX_NODES = 100_000;

/**
 * Every media reference in `value` (object values and array items at any depth), in document order; the walk stops
 * after 100,000 nodes.
 */
export function mediaRefsIn(value: unknown): MediaRef[] {
  const found: MediaRef[] = [];
  const stack: unknown[] = [value];
  let seen = 0;
  while (stack.length > 0 && seen++ < MAX_NODES) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (isMediaRef(v)) found.push(v);
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    else stack.push(...Object.values(v).reverse());
  }
  return found;
}

/** The digests of the stored files `value` refers to, each once, in order first seen. */
export function mediaDigestsIn(value: unknown): string[] {
  return [...new Set(mediaRefsIn(value).filter(isStoredMediaRef).map((r) => r.digest))];
}

/**
 * The JSON text `"_type":"weft.media"` as a call's stored JSON carries it (both engines keep the key and the value
 * next to each other, without spaces): a call's text without it holds no media reference, found by one substring check.
 */
export const MEDIA_MARK = '"weft.media"';

/**
 * The stored ref of a call's media file: `weft-file:<digest>` in the server's `call_refs` (kind `input` or `output`),
 * never equal to an `svc:///` ref, so the input_refs / output_refs filters see it only when asked for it by that name.
 */
export const FILE_REF_PREFIX = 'weft-file:';

/** The route that serves a call's file: `GET /weft/files/:entity/:project/:digest?type=<mime>` (a weft extension). */
export const WEFT_FILES_ROUTE = '/weft/files/:entity/:project/:digest';

/**
 * The URL path of a stored file of `project` (`entity/project`), served with `mime` as its type when that is on the
 * server's list (`?type=`, see server/objects/file-serve.ts).
 */
export function weftFilePath(project: string, digest: string, mime?: string): string {
  const [entity = '', name = ''] = project.split('/', 2);
  const path = `/weft/files/${encodeURIComponent(entity)}/${encodeURIComponent(name)}/${encodeURIComponent(digest)}`;
  return mime ? `${path}?type=${encodeURIComponent(mime)}` : path;
}
