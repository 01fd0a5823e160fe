// Generates (once, cached under the temp dir) a SQLite file of the local server holding many calls, by direct inserts.
import Database from 'better-sqlite3';
import { cachedDatabase } from './cache-key.js';
import { weftServer } from './weft.js';

/** Bump when the generated rows change. */
const GENERATOR_VERSION = 1;
/** The project every generated call belongs to. */
export const QUERY_PROJECT = 'bench/query';
/** Calls per trace: a root and its children. */
const TRACE_SIZE = 4;

/** One call row, the columns the generators fill. */
export const INSERT = `INSERT INTO calls (project_id, id, op_name, display_name, trace_id, parent_id, started_at, ended_at,
  attributes, inputs, output, summary) VALUES (?, ?, ?, NULL, ?, ?, ?, ?, '{}', ?, ?, ?)`;

/** A UUIDv7-shaped id whose time part is `ms` and whose tail is `seq`, so ids sort like start times. */
export function idAt(ms: number, seq: number): string {
  const hex = ms.toString(16).padStart(12, '0') + '7' + seq.toString(16).padStart(19, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function fill(path: string, rows: number): void {
  weftServer.openStore(path).close(); // the server's own migrations create the schema
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insert = db.prepare(INSERT);
  const t0 = Date.parse('2026-11-01T00:00:00Z');
  db.transaction(() => {
    let traceId = '';
    for (let i = 0; i < rows; i++) {
      const ms = t0 + i * 10;
      const id = idAt(ms, i);
      const root = i % TRACE_SIZE === 0;
      if (root) traceId = id;
      const inputs = JSON.stringify({ k: i % 1000, question: `question ${i}` });
      const summary = JSON.stringify({ status_counts: { success: root ? TRACE_SIZE : 1, error: 0 }, usage: {} });
      insert.run(QUERY_PROJECT, id, root ? 'answer' : `step_${i % TRACE_SIZE}`, traceId, root ? null : traceId, new Date(ms).toISOString(), new Date(ms + 5).toISOString(), inputs, JSON.stringify(`answer ${i}`), summary);
    }
  })();
  db.close();
}

/**
 * Path of a database with `rows` calls in {@link QUERY_PROJECT} (traces of 4: a root `answer` and
 * `step_1..3` children; started 10 ms apart from 2026-11-01). Generated on first use and kept in the
 * temp dir, keyed by the schema's migrations, so later runs start at once.
 * @returns the path and whether it was generated now (with the seconds it took).
 */
export function callsDatabase(rows: number): { path: string; generatedSeconds?: number } {
  return cachedDatabase('calls', rows, GENERATOR_VERSION, (path) => fill(path, rows));
}
