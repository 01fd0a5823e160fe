// Generates (once, cached) the trace viewer's benchmark database: many single-call traces and one large trace.
import Database from 'better-sqlite3';
import { cachedDatabase } from './cache-key.js';
import { idAt, INSERT } from './calls-db.js';
import { weftServer } from './weft.js';

/** Bump when the generated rows change. */
const GENERATOR_VERSION = 1;
export const UI_PROJECT = 'bench/ui';
/** The id of the large trace (a root, 99 children, each with 100 - 1 grandchildren: {@link BIG_TRACE_CALLS} calls). */
export const BIG_TRACE_ID = '019a3c00-0000-7000-8000-00000000b16e';
export const BIG_TRACE_CALLS = 10_000;

function fill(path: string, roots: number): void {
  weftServer.openStore(path).close();
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insert = db.prepare(INSERT);
  const t0 = Date.parse('2026-11-01T00:00:00Z');
  const usage = { 'gpt-4o-mini': { prompt_tokens: 120, completion_tokens: 40, total_tokens: 160, requests: 1 } };
  db.transaction(() => {
    for (let i = 0; i < roots; i++) {
      const ms = t0 + i * 10;
      const id = idAt(ms, i);
      const summary = JSON.stringify({ status_counts: { success: 1, error: 0 }, usage });
      insert.run(UI_PROJECT, id, 'answer', id, null, new Date(ms).toISOString(), new Date(ms + 5).toISOString(),
        JSON.stringify({ question: `question ${i}` }), JSON.stringify(`answer ${i}`), summary);
    }
    // the large trace, started before the others so it is not on the list's first page
    const start = t0 - 3_600_000;
    const at = (ms: number): string => new Date(start + ms).toISOString();
    insert.run(UI_PROJECT, BIG_TRACE_ID, 'agent', BIG_TRACE_ID, null, at(0), at(60_000), '{"task":"big"}', '"done"', JSON.stringify({ status_counts: { success: BIG_TRACE_CALLS, error: 0 } }));
    let n = 1;
    for (let c = 0; n < BIG_TRACE_CALLS; c++) {
      const childId = idAt(start + c * 600, 1_000_000 + n);
      insert.run(UI_PROJECT, childId, 'step', BIG_TRACE_ID, BIG_TRACE_ID, at(c * 600), at(c * 600 + 590), JSON.stringify({ step: c }), '"ok"', '{}');
      n += 1;
      for (let g = 0; g < 99 && n < BIG_TRACE_CALLS; g++, n++) {
        insert.run(UI_PROJECT, idAt(start + c * 600 + g * 5, 2_000_000 + n), 'tool', BIG_TRACE_ID, childId, at(c * 600 + g * 5), at(c * 600 + g * 5 + 4), JSON.stringify({ g }), '"r"', '{}');
      }
    }
  })();
  db.close();
}

/** Path of a database with `roots` single-call traces plus the {@link BIG_TRACE_CALLS}-call trace, in {@link UI_PROJECT}. */
export function uiDatabase(roots: number): { path: string; generatedSeconds?: number } {
  return cachedDatabase('ui', roots, GENERATOR_VERSION, (path) => fill(path, roots));
}
