// The ingest floors (issue 31, point 3): a batch body parsed from its JSON text and its calls inserted with a prepared statement, one transaction per batch; SQLite and PostgreSQL.
import Database from 'better-sqlite3';
import pg from 'pg';
import { weftServer } from './weft.js';

/**
 * Opens a file database with the server's schema and pragmas (WAL, synchronous NORMAL) and answers a writer of batch
 * bodies: each body `JSON.parse`d, one INSERT per call (its start and end items side by side, as the bench sends
 * them), one transaction per body: the work the server cannot avoid, without validation or the merge of start and end.
 *
 * @param path - the database file (created and migrated).
 * @returns `write(body)` and `close()`.
 */
export function openIngestFloor(path: string): { write(body: string): void; close(): void } {
  weftServer.openStore(path).close();
  const db = new Database(path);
  db.pragma('synchronous = NORMAL');
  const insert = db.prepare(`INSERT INTO calls (project_id, id, op_name, trace_id, started_at, attributes, inputs, ended_at, output, summary)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const write = db.transaction((items: Record<string, unknown>[]) => {
    for (let i = 0; i < items.length; i += 2) {
      const { start } = (items[i] as { req: { start: Record<string, string> } }).req;
      const { end } = (items[i + 1] as { req: { end: Record<string, unknown> } }).req;
      insert.run(start['project_id'], start['id'], start['op_name'], start['trace_id'], start['started_at'], JSON.stringify(start['attributes']),
        JSON.stringify(start['inputs']), end['ended_at'], JSON.stringify(end['output']), JSON.stringify(end['summary']));
    }
  });
  return {
    write: (body) => write((JSON.parse(body) as { batch: Record<string, unknown>[] }).batch),
    close: () => db.close(),
  };
}

/**
 * The PostgreSQL floor over a migrated database: each body `JSON.parse`d and its calls written with one named
 * multi-row INSERT (`unnest` of 10 arrays, autocommit), on a pool of `connections`.
 *
 * @param url - a database migrated by a weft server.
 * @param connections - pool size (one per batch in flight).
 * @returns `write(body)` and `close()`.
 */
export function openPgIngestFloor(url: string, connections: number): { write(body: string): Promise<void>; close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: connections });
  return {
    async write(body) {
      const items = (JSON.parse(body) as { batch: Record<string, unknown>[] }).batch;
      const cols: unknown[][] = Array.from({ length: 10 }, () => []);
      for (let i = 0; i < items.length; i += 2) {
        const s = (items[i] as { req: { start: Record<string, unknown> } }).req.start;
        const e = (items[i + 1] as { req: { end: Record<string, unknown> } }).req.end;
        [s['project_id'], s['id'], s['op_name'], s['trace_id'], s['started_at'], JSON.stringify(s['attributes']), JSON.stringify(s['inputs']),
          e['ended_at'], JSON.stringify(e['output']), JSON.stringify(e['summary'])].forEach((v, k) => cols[k]!.push(v));
      }
      await pool.query({ name: 'floor-insert', text: `INSERT INTO calls (project_id, id, op_name, trace_id, started_at, attributes, inputs, ended_at, output, summary)
        SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::json[], $7::json[], $8::text[], $9::json[], $10::json[])`, values: cols });
    },
    close: () => pool.end(),
  };
}
