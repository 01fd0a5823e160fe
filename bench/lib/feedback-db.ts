// Generates (once, cached under the temp dir) a server database holding many feedback rows, through the server's own insert code.
import Database from 'better-sqlite3';
import { sqliteRunner } from '../../packages/weft-server/src/server/db/sql-runner.js';
import { FeedbackStore, type FeedbackInput } from '../../packages/weft-server/src/server/feedback/feedback-store.js';
import { openPgStore } from '../../packages/weft-server/src/server/pg-store.js';
import { storeParts } from '../../packages/weft-server/src/server/server-store.js';
import { cachedDatabase } from './cache-key.js';
import { weftServer } from './weft.js';

/** Bump when the generated rows change. */
const GENERATOR_VERSION = 2;
/** The project every generated feedback row belongs to. */
export const FEEDBACK_PROJECT = 'bench/feedback';
/** Generated rows are created evenly over this window (ISO 8601 UTC, start inclusive, end exclusive). */
export const FEEDBACK_WINDOW = { start: '2026-10-01T00:00:00Z', end: '2026-11-01T00:00:00Z' };
const PER_TRANSACTION = 50_000;

function item(i: number): FeedbackInput {
  return {
    project_id: FEEDBACK_PROJECT,
    svc_ref: `svc:///${FEEDBACK_PROJECT}/call/${i.toString(16).padStart(8, '0')}-0000-7000-8000-000000000000`,
    feedback_type: i % 10 === 0 ? 'thumbs' : 'score',
    payload: { score: (i % 100) / 100, passed: i % 3 !== 0, label: `grade_${i % 5}` },
  };
}

/** The generated rows in batches of {@link PER_TRANSACTION}, each with the clock that dates its rows. */
function* feedbackBatches(rows: number): Generator<[FeedbackInput[], () => Date]> {
  const t0 = Date.parse(FEEDBACK_WINDOW.start);
  const step = (Date.parse(FEEDBACK_WINDOW.end) - t0) / rows;
  let n = 0;
  const clock = (): Date => new Date(t0 + Math.floor(n++ * step));
  for (let from = 0; from < rows; from += PER_TRANSACTION) {
    yield [Array.from({ length: Math.min(PER_TRANSACTION, rows - from) }, (_, k) => item(from + k)), clock];
  }
}

function fill(path: string, rows: number): void {
  weftServer.openStore(path).close(); // the server's own migrations create the schema
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const store = new FeedbackStore(sqliteRunner(db));
  for (const [items, clock] of feedbackBatches(rows)) store.createBatch(items, clock);
  db.close();
}

/**
 * Writes `rows` feedback rows (as {@link feedbackDatabase} does) into the PostgreSQL database at `url` (the server's own
 * migrations and `FeedbackStore`, not cached). @returns the seconds it took.
 */
export async function fillPgFeedback(url: string, rows: number): Promise<number> {
  const t0 = performance.now();
  const store = await openPgStore(url);
  try {
    const feedback = storeParts(store).feedback;
    for (const [items, clock] of feedbackBatches(rows)) await feedback.createBatch(items, clock);
  } finally {
    await store.close();
  }
  return (performance.now() - t0) / 1000;
}

/**
 * Path of a database with `rows` feedback rows in {@link FEEDBACK_PROJECT} (payload `{score, passed,
 * label}`, types `score` and `thumbs`, created evenly over {@link FEEDBACK_WINDOW}), written by the
 * server's own `FeedbackStore` on first use and kept in the temp dir, keyed by the schema's migrations.
 */
export function feedbackDatabase(rows: number): { path: string; generatedSeconds?: number } {
  return cachedDatabase('feedback', rows, GENERATOR_VERSION, (path) => fill(path, rows));
}
