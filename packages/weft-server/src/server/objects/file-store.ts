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
 * The race this pair of locks closes (PostgreSQL; READ COMMITTED): a batch whose call refers to a file (its
 * `weft-file:<digest>` ref) and retention deleting the last older call referring to the same file. Without locks,
 * retention's `NOT EXISTS` does not see the batch's ref row before the batch commits, deletes the file, and the new call
 * refers to a file gone for good. With them, a batch holds each file it refers to `FOR KEY SHARE` from before it writes
 * anything until it commits ({@link lockReferencedFiles}), and retention takes the same rows `FOR UPDATE`
 * ({@link lockFilesOfCalls}) before it writes anything, and checks for refs in a later statement: whichever locks first,
 * the other waits for it to commit; a batch first means retention's check (a new snapshot) sees its refs and keeps the
 * file; retention first means the file was unreferenced when it went. Both lock in (project, digest) order and before
 * any other row lock of theirs, so they never deadlock. Row locks live in the rows, not in PostgreSQL's lock table: a
 * batch of 10,000 calls with a file each takes no lock-table entry per file. SQLite needs neither: a write transaction
 * holds the database's one write lock from its first write to its commit and runs synchronously (no other statement of
 * the server runs in between), and a transaction whose snapshot went stale cannot upgrade to write (SQLITE_BUSY), so
 * retention's check always sees every committed ref and no uncommitted one exists.
 */
const PG_LOCK_REFERENCED = `SELECT count(*) AS n FROM (SELECT 1 FROM files f
    JOIN unnest($1::text[], $2::text[]) AS v(project_id, digest) ON f.project_id = v.project_id AND f.digest = v.digest
    ORDER BY f.project_id, f.digest FOR KEY SHARE OF f) l`;

/**
 * PostgreSQL: holds the stored files among `refs` (project ids and digests, two arrays of one length) `FOR KEY SHARE`
 * until the transaction ends, so retention cannot delete one before the refs written in this transaction are visible
 * (see {@link PG_LOCK_REFERENCED}). Run before the transaction's other writes. A digest not stored is skipped.
 */
export function* lockReferencedFiles(refs: readonly [projectIds: string[], digests: string[]]): Steps<void> {
  if (refs[0].length > 0) yield* all(PG_LOCK_REFERENCED, [refs[0], refs[1]]);
}

/**
 * The digests of the files the given calls refer to ({@link filesOfCalls}), on PostgreSQL with those files locked
 * `FOR UPDATE` until the transaction ends (see {@link PG_LOCK_REFERENCED}): a batch writing refs to one of them commits
 * first. Run before the transaction's writes, and {@link dropUnreferencedFiles} in a later statement.
 */
export function* lockFilesOfCalls(d: Dialect, projectId: string, callIds: readonly string[]): Steps<string[]> {
  const digests = yield* filesOfCalls(d, projectId, callIds);
  if (d.engine === 'postgres' && digests.length > 0) {
    yield* all(`SELECT digest FROM files WHERE project_id = ? AND ${d.inList('digest')} ORDER BY digest FOR UPDATE`, [projectId, d.list(digests)]);
  }
  return digests;
}

/**
 * Deletes the files among `digests` of a project that no stored call refers to any more (no `weft-file:<digest>` ref
 * left in `call_refs`, read through its `(project_id, kind, ref)` index). Run in the transaction that deleted the calls
 * and their refs, after them, the files locked first ({@link lockFilesOfCalls}). Only files some deleted call referred
 * to are candidates: files no call ever referred to (the Weave SDKs' objects' files) are never touched.
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
