/**
 * Internal: `POST /file/create` for bytes (the exporter's media files), sent as the multipart form the route takes; not part of the public client.
 * @module
 */
import type { Client } from '../client.js';
import { FileCreateRes } from '../../schema/objects.js';
import { WEAVE_ENDPOINTS } from '../../schema/weave-endpoints.js';
import type { RequestOptions } from './transport.js';

/**
 * Stores `bytes` as a file of `projectId`: a multipart form (`project_id`, `file`) written by the runtime's own
 * `FormData` and `Response`, posted with the transport's retries.
 * @returns `{digest}`: sha256 of the bytes as the server computes it (base64url, `-`→`X`, `_`→`Y`, no `=`).
 * @throws {APIError} (or a subclass, e.g. `PayloadTooLargeError` for 413) when the server answers an error.
 */
export async function createFileRaw(client: Client, projectId: string, bytes: Uint8Array, mimeType: string, opts: RequestOptions = {}): Promise<FileCreateRes> {
  const form = new FormData();
  form.append('project_id', projectId);
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mimeType }), 'file');
  const encoded = new Response(form);
  const body = new Uint8Array(await encoded.arrayBuffer());
  const headers = { ...opts.headers, 'content-type': encoded.headers.get('content-type') ?? 'multipart/form-data' };
  return client.transport.postJson(WEAVE_ENDPOINTS.fileCreate, body as Buffer, FileCreateRes, { ...opts, headers });
}
