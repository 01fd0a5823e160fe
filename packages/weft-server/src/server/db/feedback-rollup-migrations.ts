/**
 * Migration 13 of both engines: the feedback rollups (feedback/feedback-rollup-refresh.ts) and the hours whose rollup is
 * stale (feedback/feedback-rollup-marks.ts). `feedback_rollups` holds, per project, hour of `created_at`
 * (`YYYY-MM-DDTHH`, UTC), feedback type and key path in the payloads (JSON text of the keys; `[]`: the rows), what
 * `/feedback/stats` reads there: `present` (rows, or non-null values), the JSON numbers (`count`, `total`: the exact
 * sum's partials as JSON text, NULL after an overflow; `lo`, `hi`; `vals`: the numbers, ascending, as little-endian
 * float64s in base64, for exact percentiles) and the booleans (`t`, `f`). A mark's `gen` counts the writes that marked
 * its hour again. Every hour holding feedback starts stale, so the rollup job fills them all.
 * @module
 */

const table = (text: string, int: string, real: string, tail: string): string => `
  CREATE TABLE feedback_rollups (
    project_id    ${text} NOT NULL,
    hour          ${text} NOT NULL,
    feedback_type ${text} NOT NULL,
    path          ${text} NOT NULL,
    present       ${int} NOT NULL,
    count         ${int} NOT NULL,
    total         ${text},
    lo            ${real},
    hi            ${real},
    vals          ${text},
    t             ${int} NOT NULL,
    f             ${int} NOT NULL,
    PRIMARY KEY (project_id, hour, feedback_type, path)
  )${tail};
  CREATE TABLE feedback_rollup_marks (
    project_id ${text} NOT NULL,
    hour       ${text} NOT NULL,
    gen        ${int} NOT NULL DEFAULT 0,
    PRIMARY KEY (project_id, hour)
  )${tail};`;

/** SQLite's migration 13. */
export const SQLITE_FEEDBACK_ROLLUPS = {
  id: 13,
  name: 'feedback_rollups',
  sql: `${table('TEXT', 'INTEGER', 'REAL', ' WITHOUT ROWID')}
    INSERT OR IGNORE INTO feedback_rollup_marks (project_id, hour) SELECT DISTINCT project_id, substr(created_at, 1, 13) FROM feedback;`,
} as const;

/** PostgreSQL's migration 13, the twin of SQLite's. */
export const PG_FEEDBACK_ROLLUPS = {
  id: 13,
  name: 'feedback_rollups',
  sql: `${table('text COLLATE "C"', 'bigint', 'double precision', '')}
    INSERT INTO feedback_rollup_marks (project_id, hour) SELECT DISTINCT project_id, substr(created_at, 1, 13) FROM feedback
      ON CONFLICT DO NOTHING;`,
} as const;
