/**
 * The marks of stale overview rollups (table `call_rollup_marks`): every write that changes what the overview counts
 * of a root marks the (project, hour of the root's `started_at`) it falls in, in the write's own transaction: a batch
 * one `INSERT ... ON CONFLICT DO NOTHING` for its few distinct hours, a delete or a failure below a root one walk up to
 * the roots first. The rollup job (rollup-refresh.ts) recomputes a marked hour and clears its mark.
 *
 * The race with the job on PostgreSQL (several servers, concurrent transactions): a write takes a shared advisory lock
 * on each hour it marks, the job an exclusive one on the hour it recomputes, each until its transaction ends. A write
 * either commits before the job reads the hour (the job then counts its rows), or waits for the job to commit and then
 * marks the hour again (its mark is new): a mark is never cleared over rows the rollup missed. On SQLite the job's
 * transaction runs synchronously, so no write can fall between its read and its clear.
 * @module
 */
import type { Dialect } from '../../db/dialect.js';
import { all, run, type Steps } from '../../db/sql-steps.js';

/** The hour key of a normalized timestamp (`YYYY-MM-DDTHH`), as the marks and rollups store it. */
export const hourOf = (startedAt: string): string => startedAt.slice(0, 13);

/** The hour key of an epoch-ms instant on an hour. */
export const hourAt = (ms: number): string => new Date(ms).toISOString().slice(0, 13);

/** Namespace (first int4 key) of PostgreSQL's per-hour advisory locks of the rollups: 'wfth' in ASCII. */
export const HOUR_LOCK_SPACE = 0x77667468;

/** The advisory lock key (second int4) of a (project, hour). */
export const hourLockKey = (projectIdSql: string, hourSql: string): string => `hashtext(${projectIdSql} || ' ' || ${hourSql})`;

const PG_MARK = `WITH l AS (SELECT count(pg_advisory_xact_lock_shared(${HOUR_LOCK_SPACE}, k)) AS n FROM (
    SELECT DISTINCT ${hourLockKey('p', 'h')} AS k FROM unnest(?::text[], ?::text[]) AS v(p, h) ORDER BY 1) s)
  INSERT INTO call_rollup_marks (project_id, hour) SELECT p, h FROM unnest(?::text[], ?::text[]) AS v(p, h), l WHERE l.n >= 0
  ON CONFLICT DO NOTHING`;

/** SQLite's mark statement of `n` hours, by n. */
const SQLITE_MARK = new Map<number, string>();
const sqliteMark = (n: number): string => {
  let sql = SQLITE_MARK.get(n);
  if (sql === undefined) {
    sql = `INSERT OR IGNORE INTO call_rollup_marks (project_id, hour) VALUES ${Array.from({ length: n }, () => '(?, ?)').join(', ')}`;
    if (n <= 16) SQLITE_MARK.set(n, sql);
  }
  return sql;
};

/** Distinct (project, hour) pairs, collected by a write. */
export class HourMarks {
  readonly #seen = new Set<string>();
  readonly projects: string[] = [];
  readonly hours: string[] = [];

  /** Adds the hour of a root's `started_at` (normalized) in a project. */
  add(projectId: string, startedAt: string): void {
    const hour = hourOf(startedAt);
    const key = `${projectId.length}:${projectId}${hour}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.projects.push(projectId);
    this.hours.push(hour);
  }

  get size(): number {
    return this.projects.length;
  }
}

/** Marks the hours of `marks` stale; run in the transaction of the write that changed them. */
export function* markHours(d: Dialect, marks: HourMarks): Steps<void> {
  if (marks.size === 0) return;
  if (d.engine === 'postgres') {
    yield* run(PG_MARK, [marks.projects, marks.hours, marks.projects, marks.hours]);
    return;
  }
  const params: string[] = [];
  for (let i = 0; i < marks.size; i++) params.push(marks.projects[i]!, marks.hours[i]!);
  yield* run(sqliteMark(marks.size), params);
}

/**
 * The `started_at` of the roots above the given calls of a project (a call without a parent is its own root), by
 * `parent_id` at any depth (UNION: a cycle of parent ids ends).
 */
export function* rootsAbove(d: Dialect, projectId: string, ids: readonly string[]): Steps<string[]> {
  if (ids.length === 0) return [];
  const rows = yield* all<{ started_at: string }>(`WITH RECURSIVE up(id, parent_id, started_at) AS (
      SELECT c.id, c.parent_id, c.started_at FROM calls c WHERE c.project_id = ? AND ${d.inList('c.id')}
      UNION SELECT c.id, c.parent_id, c.started_at FROM up JOIN calls c ON c.project_id = ? AND c.id = up.parent_id
    )
    SELECT DISTINCT started_at FROM up WHERE parent_id IS NULL AND started_at IS NOT NULL`, [projectId, d.list(ids), projectId]);
  return rows.map((r) => r.started_at);
}

/** Marks the hours of the roots above the given calls (before they are deleted, or after a failure below them). */
export function* markRootsAbove(d: Dialect, projectId: string, ids: readonly string[]): Steps<void> {
  const marks = new HourMarks();
  for (const startedAt of yield* rootsAbove(d, projectId, ids)) marks.add(projectId, startedAt);
  yield* markHours(d, marks);
}
