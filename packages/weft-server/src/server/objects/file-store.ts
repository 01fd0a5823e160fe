/**
 * Files of one database (Weave SDK compatibility: file/create, file/content), content-addressed; the only code that
 * runs SQL on `files`, for both engines (SQLite: `content` BLOB; PostgreSQL: `bytea`).
 * @module
 */
import { HttpError } from '../http/http-error.js';
import type { Dialect } from '../db/dialect.js';
import type { Out, SqlRunner, Wait } from '../db/sql-runner.js';
import { get, run, type Steps } from '../db/sql-steps.js';
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
}
