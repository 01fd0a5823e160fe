/**
 * Files of one database (Weave SDK compatibility: file/create, file/content; calls' media: `GET /weft/files/...`),
 * content-addressed; the only code that runs SQL on `files`, for both engines (SQLite: `content` BLOB; PostgreSQL: `bytea`).
 * @module
 */
import { FILE_REF_PREFIX } from '../../media-ref.js';
import { HttpError } from '../http/http-error.js';
import type { Dialect } from '../db/dialect.js';
import type { Out, SqlRunner, Wait } from '../db/sql-runner.js';
import { all, get, run, type Steps } from '../db/sql-steps.js';
import { digestBytes } from '../tables/digest.js';

/**
 * Stores `content` once per project and content, answering its digest: the Weave server's and SDK's, sha256 of the
 * bytes as base64url with `-`→`X`, `_`→`Y`, no `=` (`digestBytes`).
 */
function* createFile(_: Dialect, projectId: string, content: Uint8Array, now: Date): Steps<{ digest: string }> {
  const digest = digestBytes(content);
  yield* run('INSERT INTO files (project_id, digest, size_bytes, created_at, content) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    [projectId, digest, content.byteLength, now.toISOString(), Buffer.from(content.buffer, content.byteOffset, content.byteLength)]);
  return { digest };
}

/** The bytes of a stored file. @throws HttpError 404 when the project has no file with that digest. */
function* fileContent(_: Dialect, projectId: string, digest: string): Steps<Buffer> {
  const row = yield* get<{ content: Buffer }>('SELECT content FROM files WHERE project_id = ? AND digest = ?', [projectId, digest]);
  if (!row) throw new HttpError(404, `no file with digest ${JSON.stringify(digest)} in project ${JSON.stringify(projectId)}`);
  return row.content;
}

/** A stored file's size and the bytes read: all of them, or those of `range` (inclusive byte offsets). */
export interface FilePart {
  sizeBytes: number;
  bytes: Buffer;
  /** The offsets of the first and last byte read, when a range was asked for. */
  range?: [number, number];
}

/**
 * What {@link FileStore.part} reads, asked once the size is known: `[start, end]` (inclusive offsets within the file),
 * undefined for the whole file, null for no bytes.
 */
export type RangeOf = (sizeBytes: number) => [number, number] | undefined | null;

/**
 * The size of a stored file and the bytes `rangeOf(size)` asks for, read by the engine (`substr` of a BLOB or a
 * `bytea`), so a range request reads only its bytes; undefined when the project has no file with that digest.
 */
function* filePart(_: Dialect, projectId: string, digest: string, rangeOf: RangeOf): Steps<FilePart | undefined> {
  const head = yield* get<{ size_bytes: number | string }>('SELECT size_bytes FROM files WHERE project_id = ? AND digest = ?', [projectId, digest]);
  if (!head) return undefined;
  const sizeBytes = Number(head.size_bytes);
  const range = rangeOf(sizeBytes);
  if (range === null) return { sizeBytes, bytes: Buffer.alloc(0) };
  const sql = range ? 'SELECT substr(content, ?, ?) AS part FROM files WHERE project_id = ? AND digest = ?' : 'SELECT content AS part FROM files WHERE project_id = ? AND digest = ?';
  const params = range ? [range[0] + 1, range[1] - range[0] + 1, projectId, digest] : [projectId, digest];
  const row = yield* get<{ part: Buffer | Uint8Array }>(sql, params);
  if (!row) return undefined;
  const bytes = Buffer.isBuffer(row.part) ? row.part : Buffer.from(row.part);
  return range ? { sizeBytes, bytes, range } : { sizeBytes, bytes };
}

/** The digests of the files the given calls of a project refer to (their `weft-file:` refs in `call_refs`), each once. */
export function* filesOfCalls(d: Dialect, projectId: string, callIds: readonly string[]): Steps<string[]> {
  const rows = yield* all<{ ref: string }>(`SELECT DISTINCT ref FROM call_refs WHERE project_id = ? AND ${d.inList('call_id')} AND ref LIKE '${FILE_REF_PREFIX}%'`, [projectId, d.list(callIds)]);
  return rows.map((r) => r.ref.slice(FILE_REF_PREFIX.length));
}

/**
 * Deletes the files among `digests` of a project that no stored call refers to any more (no `weft-file:<digest>` ref
 * left in `call_refs`, read through its `(project_id, kind, ref)` index). Run in the transaction that deleted the calls
 * and their refs, after them. Only files some deleted call referred to are candidates: files no call ever referred to
 * (the Weave SDKs' objects' files) are never touched.
 * @returns how many files were deleted.
 */
export function* dropUnreferencedFiles(d: Dialect, projectId: string, digests: readonly string[]): Steps<number> {
  if (digests.length === 0) return 0;
  return yield* run(`DELETE FROM files WHERE project_id = ? AND ${d.inList('digest')} AND NOT EXISTS (SELECT 1 FROM call_refs r
    WHERE r.project_id = files.project_id AND r.kind IN ('input', 'output') AND r.ref = CAST(? AS TEXT) || files.digest)`, [projectId, d.list(digests), FILE_REF_PREFIX]);
}

/** Files of every project in one database (the `files` table of SQLite migration 7 and of PostgreSQL's). */
export class FileStore<W extends Wait = Wait> {
  /** @param db - the engine's runner over a migrated database. */
  constructor(private readonly db: SqlRunner<W>) {}

  /**
   * Stores a file once per project and content: storing the same bytes again stores nothing and answers the
   * same digest.
   *
   * @param projectId - `<entity>/<project>`.
   * @param content - the file's bytes.
   * @param now - the server clock (`created_at`).
   * @returns `{digest}`: sha256 of the bytes, as the Weave server and SDK compute it (see `createFile`).
   */
  create(projectId: string, content: Uint8Array, now: Date = new Date()): Out<W, { digest: string }> {
    return this.db.run(createFile, projectId, content, now);
  }

  /**
   * The bytes of a stored file.
   * @throws HttpError 404 `{detail}` when the project has no file with that digest.
   */
  content(projectId: string, digest: string): Out<W, Buffer> {
    return this.db.run(fileContent, projectId, digest);
  }

  /**
   * A stored file's size and bytes: whole, the range `rangeOf(size)` answers (inclusive offsets within the file), or
   * none; undefined when the project has no file with that digest.
   */
  part(projectId: string, digest: string, rangeOf: RangeOf): Out<W, FilePart | undefined> {
    return this.db.run(filePart, projectId, digest, rangeOf);
  }
}
