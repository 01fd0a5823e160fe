/**
 * Migration 15 of both engines: `call_rollup_claims`, the overview hours the rollup job is recomputing in slices
 * (calls/overview/rollup-refresh.ts). The job claims a marked hour (its mark moves here, with a `token` of that claim
 * and `claimed_at`, the job's clock as normalized ISO text), reads its roots a slice at a time, then stores the hour's
 * rollup only if its claim still holds that token. A reader counts a claimed hour live, as a marked one: a write that
 * changes the hour meanwhile marks it again in `call_rollup_marks`, so the stored rollup is not read until the job
 * recomputes it once more. A claim left by a stopped or crashed server is taken again after a lease.
 * @module
 */

const table = (text: string, tail: string): string => `
  CREATE TABLE call_rollup_claims (
    project_id ${text} NOT NULL,
    hour       ${text} NOT NULL,
    token      ${text} NOT NULL,
    claimed_at ${text} NOT NULL,
    PRIMARY KEY (project_id, hour)
  )${tail};`;

/** SQLite's migration 15. */
export const SQLITE_ROLLUP_CLAIMS = { id: 15, name: 'call_rollup_claims', sql: table('TEXT', ' WITHOUT ROWID') } as const;

/** PostgreSQL's migration 15, the twin of SQLite's. */
export const PG_ROLLUP_CLAIMS = { id: 15, name: 'call_rollup_claims', sql: table('text COLLATE "C"', '') } as const;
