/**
 * Files of one database (Weave SDK compatibility: file/create, file/content), content-addressed; the only code that runs SQL on `files`.
 * @module
 */
import type Database from 'better-sqlite3';
import { HttpError } from '../http/http-error.js';
import { fileDigest } from './object-digest.js';

/** Files of every project in one SQLite database (the `files` table of migration 7). */
export class FileStore {
  /** @param db - a read-write connection with migration 7 applied. */
  constructor(private readonly db: Database.Database) {}

  /**
   * Stores a file once per project and content: storing the same bytes again stores nothing and answers the
   * same digest.
   *
   * @param projectId - `<entity>/<project>`.
   * @param content - the file's bytes.
   * @param now - the server clock (`created_at`).
   * @returns `{digest}`: see `fileDigest` (sha256 of the bytes, as the Weave server and SDK compute it).
   */
  create(projectId: string, content: Uint8Array, now: Date = new Date()): { digest: string } {
    const digest = fileDigest(content);
    this.db
      .prepare('INSERT INTO files (project_id, digest, size_bytes, created_at, content) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING')
      .run(projectId, digest, content.byteLength, now.toISOString(), Buffer.from(content.buffer, content.byteOffset, content.byteLength));
    return { digest };
  }

  /**
   * The bytes of a stored file.
   * @throws HttpError 404 `{detail}` when the project has no file with that digest.
   */
  content(projectId: string, digest: string): Buffer {
    const row = this.db.prepare('SELECT content FROM files WHERE project_id = ? AND digest = ?').get(projectId, digest) as { content: Buffer } | undefined;
    if (!row) throw new HttpError(404, `no file with digest ${JSON.stringify(digest)} in project ${JSON.stringify(projectId)}`);
    return row.content;
  }
}
