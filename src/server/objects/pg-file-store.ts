/**
 * Files of one PostgreSQL database (Weave SDK compatibility: file/create, file/content), content-addressed, with the
 * answers of the SQLite `FileStore`; the only code that runs SQL on `files` there.
 * @module
 */
import { HttpError } from '../http/http-error.js';
import { type PgDatabase, pgRows } from '../db/pg-database.js';
import { fileDigest } from './object-digest.js';

/** Files of every project in one PostgreSQL database (`files`, content as `bytea`). */
export class PgFileStore {
  /** @param db - the migrated database. */
  constructor(private readonly db: PgDatabase) {}

  /**
   * Stores a file once per project and content; the contract of `FileStore.create`.
   * @returns `{digest}`: sha256 of the bytes, as the Weave server and SDK compute it.
   */
  async create(projectId: string, content: Uint8Array, now: Date = new Date()): Promise<{ digest: string }> {
    const digest = fileDigest(content);
    await this.db.pool.query(
      'INSERT INTO files (project_id, digest, size_bytes, created_at, content) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
      [projectId, digest, content.byteLength, now.toISOString(), Buffer.from(content.buffer, content.byteOffset, content.byteLength)],
    );
    return { digest };
  }

  /**
   * The bytes of a stored file.
   * @throws HttpError 404 `{detail}` when the project has no file with that digest.
   */
  async content(projectId: string, digest: string): Promise<Buffer> {
    const [row] = await pgRows<{ content: Buffer }>(this.db.pool, 'SELECT content FROM files WHERE project_id = $1 AND digest = $2', [projectId, digest]);
    if (!row) throw new HttpError(404, `no file with digest ${JSON.stringify(digest)} in project ${JSON.stringify(projectId)}`);
    return row.content;
  }
}
