/**
 * The media files of exported calls (issue 51): `weft calls export` writes each file a call refers to as one JSONL line
 * before the first call referring to it, and `weft calls import` stores those lines as files before the calls.
 * @module
 */
import { Buffer } from 'node:buffer';
import { z } from 'zod';
import { APIError, type Client } from 'weft-trace/client';
import { WEAVE_ENDPOINTS } from 'weft-trace/wire';
import { MEDIA_MARK, mediaDigestsIn } from '../media-ref.js';

/** The `_type` of a file line in an export. */
export const FILE_LINE_TYPE = 'weft.file';

/** A file line: `{"_type": "weft.file", "project_id", "digest", "size_bytes", "content_base64"}`. */
export interface FileLine {
  _type: typeof FILE_LINE_TYPE;
  project_id: string;
  digest: string;
  size_bytes: number;
  content_base64: string;
}

/** Whether a parsed export line is a file line (else it is a call record). */
export function isFileLine(v: unknown): v is FileLine {
  const o = v as Partial<FileLine> | null;
  return o !== null && typeof o === 'object' && o._type === FILE_LINE_TYPE && typeof o.digest === 'string' && typeof o.content_base64 === 'string';
}

/** Reads a stored file's bytes (`POST /file/content`); undefined when the server has none (not arrived, or deleted). */
async function readFile(client: Client, project: string, digest: string): Promise<Buffer | undefined> {
  try {
    const body = await client.transport.stream(WEAVE_ENDPOINTS.fileContent, { project_id: project, digest }, 'application/octet-stream');
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } catch (err) {
    if (err instanceof APIError && err.status === 404) return undefined;
    throw err;
  }
}

/** Files carried by one export: the digests already written, and those a call referred to that the server did not hold. */
export class ExportedFiles {
  readonly written = new Set<string>();
  readonly missing = new Set<string>();

  constructor(private readonly client: Client, private readonly project: string) {}

  /**
   * The file lines to write before a call record (its JSON text `json`): one per file its inputs or output refer to
   * that no earlier line carried. A call without a media reference costs one substring check.
   */
  async linesFor(record: { inputs?: unknown; output?: unknown }, json: string): Promise<string[]> {
    if (!json.includes(MEDIA_MARK)) return [];
    const lines: string[] = [];
    for (const digest of mediaDigestsIn([record.inputs, record.output])) {
      if (this.written.has(digest) || this.missing.has(digest)) continue;
      const bytes = await readFile(this.client, this.project, digest);
      if (bytes === undefined) {
        this.missing.add(digest);
        continue;
      }
      this.written.add(digest);
      const line: FileLine = { _type: FILE_LINE_TYPE, project_id: this.project, digest, size_bytes: bytes.byteLength, content_base64: bytes.toString('base64') };
      lines.push(`${JSON.stringify(line)}\n`);
    }
    return lines;
  }
}

const FileCreateRes = z.object({ digest: z.string() });

/**
 * Stores a file line's bytes in `project` (`POST /file/create`, multipart). The server computes the digest from the
 * bytes; a digest unlike the line's means the line was altered.
 * @throws Error naming both digests when they differ; the client's APIError when the server refuses.
 */
export async function storeFileLine(client: Client, project: string, line: FileLine): Promise<void> {
  const form = new FormData();
  form.append('project_id', project);
  form.append('file', new Blob([Buffer.from(line.content_base64, 'base64')]));
  // the platform's own multipart encoding (Fetch standard), read back as bytes for the client's transport
  const encoded = new Response(form);
  const type = encoded.headers.get('content-type') ?? 'multipart/form-data';
  const payload = Buffer.from(await encoded.arrayBuffer());
  const { digest } = await client.transport.postJson(WEAVE_ENDPOINTS.fileCreate, payload, FileCreateRes, { headers: { 'content-type': type } });
  if (digest !== line.digest) throw new Error(`file ${line.digest} was stored as ${digest}: its bytes were changed`);
}
