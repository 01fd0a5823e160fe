/**
 * The calls' reads and the users table as SQL steps, for both engines (run by call-store.ts's runner): one call, a
 * project's row count, the projects, the user names, which calls have a failed descendant, calls by id.
 * @module
 */
import type { Dialect } from '../db/dialect.js';
import { all, get, insert, type Steps } from '../db/sql-steps.js';
import { CALL_COLUMNS, type CallRow, rowToRecord, type StoredCallRecord } from './query/records.js';

const SELECT_CALLS = `SELECT ${CALL_COLUMNS.join(', ')} FROM calls`;
/** Distinct project ids by a loose index scan (one index seek per project, not a scan of every call). */
const PROJECT_IDS = `WITH RECURSIVE p(id) AS (SELECT min(project_id) FROM calls
  UNION ALL SELECT (SELECT min(project_id) FROM calls WHERE project_id > p.id) FROM p WHERE p.id IS NOT NULL)
  SELECT id FROM p WHERE id IS NOT NULL`;

/**
 * The entries of a user table (user id → user name), checked.
 * @throws TypeError naming the user id when an id or a name is empty.
 */
function checkedUsers(users: Readonly<Record<string, string>>): [string, string][] {
  const entries = Object.entries(users);
  for (const [id, name] of entries) {
    if (!id || typeof name !== 'string' || name === '') {
      throw new TypeError(`users: expected a non-empty user id and name, got ${JSON.stringify(id)} → ${JSON.stringify(name)}`);
    }
  }
  return entries;
}

export function* getCall(_: Dialect, projectId: string, id: string): Steps<StoredCallRecord | undefined> {
  const row = yield* get<CallRow>(`${SELECT_CALLS} WHERE project_id = ? AND id = ? AND started_at IS NOT NULL`, [projectId, id]);
  return row && rowToRecord(row);
}

export function* countRows(_: Dialect, projectId: string): Steps<number> {
  return (yield* get<{ n: number }>('SELECT count(*) AS n FROM calls WHERE project_id = ?', [projectId]))!.n;
}

export function* projectIds(): Steps<string[]> {
  return (yield* all<{ id: string }>(PROJECT_IDS)).map((r) => r.id);
}

export function* setUsers(_: Dialect, users: Readonly<Record<string, string>>): Steps<void> {
  yield* insert({ table: 'users', columns: { id: 'text', username: 'text' }, rows: checkedUsers(users), tail: 'ON CONFLICT (id) DO UPDATE SET username = excluded.username' });
}

/** Names of the user ids the users table knows (duplicates in `ids` are fine). */
export function* usernames(d: Dialect, ids: readonly string[]): Steps<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = yield* all<{ id: string; username: string }>(`SELECT id, username FROM users WHERE ${d.inList('id')}`, [d.list([...new Set(ids)])]);
  return new Map(rows.map((r) => [r.id, r.username]));
}

/**
 * The calls of `ids` in a project that have a descendant (by parent_id, any depth) with an exception; UNION, so a
 * cycle of parent ids ends; reads the parent index. On SQLite, `CROSS JOIN` keeps the walk outermost: with a plain
 * join its planner put `calls` outside and scanned the project's whole parent index per step (a 10,000-call trace in
 * a 1,000,000-call project: 16 s instead of ms); PostgreSQL has no `CROSS JOIN ... ON` and plans it well.
 */
export function* descendantFailed(d: Dialect, projectId: string, ids: readonly string[]): Steps<Set<string>> {
  const join = d.engine === 'sqlite' ? 'CROSS JOIN' : 'JOIN';
  const rows = yield* all<{ root: string }>(`WITH RECURSIVE below(root, id) AS (
      SELECT value, value FROM (${d.listRows()}) l
      UNION SELECT b.root, c.id FROM below b ${join} calls c ON c.project_id = ? AND c.parent_id = b.id
    )
    SELECT DISTINCT b.root AS root FROM below b ${join} calls e ON e.project_id = ? AND e.id = b.id
    WHERE b.id <> b.root AND e.exception IS NOT NULL`, [d.list(ids), projectId, projectId]);
  return new Set(rows.map((r) => r.root));
}

/** The started calls of one project with the given ids, as records (for `expand_columns`). */
export function* callsById(d: Dialect, projectId: string, ids: readonly string[]): Steps<StoredCallRecord[]> {
  const rows = yield* all<CallRow>(`${SELECT_CALLS} WHERE project_id = ? AND ${d.inList('id')} AND started_at IS NOT NULL`, [projectId, d.list(ids)]);
  return rows.map(rowToRecord);
}
