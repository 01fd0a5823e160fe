/**
 * What the SQLite `CallStore` and the PostgreSQL `PgCallStore` share besides the walker, the staging step and the
 * record pipeline: their SQL written once (`?` placeholders, db/dialect.ts), the batch items of a single start or
 * end, and the check of a user table.
 * @module
 */
import type { EndInput, StartInput, UpsertItem } from './call-fields.js';
import { CALL_COLUMNS } from './records.js';
import type { Dialect } from '../db/dialect.js';

/** Records read per page by `listCalls`. */
export const LIST_PAGE = 500;

const SELECT_CALLS = `SELECT ${CALL_COLUMNS.join(', ')} FROM calls`;
/** One started call by key. */
export const GET_CALL = `${SELECT_CALLS} WHERE project_id = ? AND id = ? AND started_at IS NOT NULL`;
/** Started calls of a project whose id is in a list (bound with `dialect.list`). */
export const callsByIds = (d: Dialect): string => d.sql(`${SELECT_CALLS} WHERE project_id = ? AND ${d.inList('id')} AND started_at IS NOT NULL`);
/** The names of the users whose id is in a list. */
export const usernamesSql = (d: Dialect): string => d.sql(`SELECT id, username FROM users WHERE ${d.inList('id')}`);
/** Stored rows of a project, ends waiting for their start included. */
export const COUNT_ROWS = 'SELECT count(*) AS n FROM calls WHERE project_id = ?';
/** A call with a stored start. */
export const STARTED = 'SELECT 1 FROM calls WHERE project_id = ? AND id = ? AND started_at IS NOT NULL';
/** Distinct project ids by a loose index scan (one index seek per project, not a scan of every call). */
export const PROJECT_IDS = `WITH RECURSIVE p(id) AS (SELECT min(project_id) FROM calls
  UNION ALL SELECT (SELECT min(project_id) FROM calls WHERE project_id > p.id) FROM p WHERE p.id IS NOT NULL)
  SELECT id FROM p WHERE id IS NOT NULL`;

/** The batch of one start. */
export const startBatch = (start: StartInput): UpsertItem[] => [{ mode: 'start', req: { start } }];
/** The batch of one end. */
export const endBatch = (end: EndInput): UpsertItem[] => [{ mode: 'end', req: { end } }];

/**
 * The entries of a user table (user id → user name), checked.
 * @throws TypeError naming the user id when an id or a name is empty.
 */
export function checkedUsers(users: Readonly<Record<string, string>>): [string, string][] {
  const entries = Object.entries(users);
  for (const [id, name] of entries) {
    if (!id || typeof name !== 'string' || name === '') {
      throw new TypeError(`users: expected a non-empty user id and name, got ${JSON.stringify(id)} → ${JSON.stringify(name)}`);
    }
  }
  return entries;
}
