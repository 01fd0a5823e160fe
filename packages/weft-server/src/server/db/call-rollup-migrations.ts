/**
 * Migration 11 of SQLite: the overview's hour rollups (calls/overview/rollup-refresh.ts) and the hours whose
 * rollup is stale (calls/write/rollup-marks.ts).
 * @module
 */

/**
 * The rollup tables: `call_rollups` holds, per project and hour (`YYYY-MM-DDTHH` of the roots' `started_at`), one row per
 * root op (`model` NULL: all its roots) and one per (root op, model of the usage; `(none)` without usage): roots,
 * errors, descendant errors, the latency histogram (stats/latency-histogram.ts) and, on model rows, the usage summed per
 * token kind (JSON). `call_rollup_marks` lists the hours whose rows may be stale; `call_rollup_open` the roots still
 * running when their (clean) hour was last recomputed, whose end must mark it again.
 */
const ROLLUP_TABLES_SQL = `
      CREATE TABLE call_rollups (
        project_id        TEXT NOT NULL,
        hour              TEXT NOT NULL,
        op_name           TEXT,
        model             TEXT,
        calls             INTEGER NOT NULL,
        errors            INTEGER NOT NULL,
        descendant_errors INTEGER NOT NULL,
        histogram         TEXT NOT NULL,
        usage             TEXT
      );
      CREATE INDEX call_rollups_hour ON call_rollups (project_id, hour);
      CREATE TABLE call_rollup_marks (
        project_id TEXT NOT NULL,
        hour       TEXT NOT NULL,
        PRIMARY KEY (project_id, hour)
      ) WITHOUT ROWID;
      CREATE TABLE call_rollup_open (
        project_id TEXT NOT NULL,
        id         TEXT NOT NULL,
        hour       TEXT NOT NULL,
        PRIMARY KEY (project_id, id)
      ) WITHOUT ROWID;
      CREATE INDEX call_rollup_open_hour ON call_rollup_open (project_id, hour);`;

/**
 * Every hour holding roots starts stale, so the rollup job (calls/jobs/rollup-job.ts) fills them all.
 */
export const SQLITE_CALL_ROLLUPS = {
  id: 11,
  name: 'call_rollups',
  sql: `${ROLLUP_TABLES_SQL}
      INSERT OR IGNORE INTO call_rollup_marks (project_id, hour)
        SELECT DISTINCT project_id, substr(started_at, 1, 13) FROM calls WHERE parent_id IS NULL AND started_at IS NOT NULL;
    `,
} as const;
