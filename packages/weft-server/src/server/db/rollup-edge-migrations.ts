/**
 * The migrations of calls counted by no sender (SQLite's 12, PostgreSQL's 12): the `uncounted` mark and the partial
 * index that finds the traces the server rolls up.
 * @module
 */

/**
 * `uncounted` is set on a call whose end said `counted_in_parent: false` (its sender did not add it into its parent: a
 * parent in another process, joined by `traceparent`); `calls_rollup` takes over from `calls_otel` and finds the traces
 * holding such a call or a span call, the ones the server rolls up (calls/write/rollup-writes.ts). Both hold no entry for an
 * `op()` trace of one process.
 */
const INDEX = 'CREATE INDEX calls_rollup ON calls (project_id, trace_id) WHERE otel_dump IS NOT NULL OR uncounted IS NOT NULL;';

/** SQLite's migration 12 (the column is 1 when set). */
export const SQLITE_UNCOUNTED = {
  id: 12,
  name: 'uncounted_calls',
  sql: `ALTER TABLE calls ADD COLUMN uncounted INTEGER; DROP INDEX calls_otel; ${INDEX}`,
} as const;

/** PostgreSQL's migration 12, the twin of SQLite's (the column is `true` when set). */
export const PG_UNCOUNTED = {
  id: 12,
  name: 'uncounted_calls',
  sql: `ALTER TABLE calls ADD COLUMN uncounted boolean; DROP INDEX calls_otel; ${INDEX}`,
} as const;
