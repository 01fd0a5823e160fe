/**
 * SQLite's flush of a staged batch (the engine leaf of `writeBatch` in call-writes.ts), as SQL steps run synchronously
 * in the batch's transaction: multi-row upserts, then end names, refs and pending renames.
 * @module
 */
import { all, get, run, type Steps } from '../../db/sql-steps.js';
import { callRefs } from './call-refs.js';
import { applyPendingRenames } from './call-edit-writes.js';
import { END_COLUMNS, KEY_COLUMNS, START_COLUMNS, type Value } from './call-fields.js';
import { callId, callProject, type EndedRoot, idsByProject, type StagedCall } from './batch-staging.js';

const START_NAMES = START_COLUMNS.map((c) => c.name);
const END_NAMES = END_COLUMNS.map((c) => c.name);

/**
 * Insert of `rows` rows of a key and `columns` each, in one statement; on a stored row, replaces only those
 * columns (the other half of the call is kept). The rows of one statement must have distinct keys.
 */
function upsertSql(columns: readonly string[], rows: number, returning = ''): string {
  const all = [...KEY_COLUMNS, ...columns];
  const row = `(${all.map(() => '?').join(', ')})`;
  return `INSERT INTO calls (${all.join(', ')}) VALUES ${Array.from({ length: rows }, () => row).join(', ')}
    ON CONFLICT (project_id, id) DO UPDATE SET ${columns.map(setColumn).join(', ')}${returning}`;
}

/**
 * The update of one column of a stored row: a start's `display_name` only fills an empty name (`writeBatch` in
 * call-writes.ts); an end's `summary` is the sent one again (the rollup of rollup-writes.ts runs after).
 */
function setColumn(column: string): string {
  if (column === 'display_name') return 'display_name = coalesce(display_name, excluded.display_name)';
  return column === 'summary' ? 'summary = excluded.summary, sent_summary = NULL' : `${column} = excluded.${column}`;
}

/**
 * Rows per multi-row upsert, largest first: a batch's rows of one kind are written in statements of 64
 * rows, then 8, then 1 (at most 3 statement texts per kind, 64 x 19 = 1,216 parameters at most, under
 * SQLite's 32,766).
 */
const ROWS_PER_STATEMENT = [64, 8, 1] as const;

/** The upsert texts of one kind of row (start only, end only, both) by rows per statement. */
function upsertTexts(columns: readonly string[], returning?: string): Map<number, string> {
  return new Map(ROWS_PER_STATEMENT.map((n) => [n, upsertSql(columns, n, returning)]));
}

const START_SQL = upsertTexts(START_NAMES);
const END_SQL = upsertTexts(END_NAMES);
/**
 * Whether a project has roots that were running when their clean hour was last recomputed (`call_rollup_open`, kept by
 * rollup-refresh.ts): only their ends, written alone, change a clean hour's rollup (the end of a root whose hour is
 * still marked needs no mark; a root's end stored before the refresh is in the rollup).
 */
const ANY_OPEN = 'SELECT 1 FROM call_rollup_open WHERE project_id = ? LIMIT 1';
/** The hours of the open roots among some calls of a project (a JSON list of ids), `CROSS JOIN` keeping the list outermost. */
const OPEN_AMONG = `SELECT DISTINCT o.hour AS hour FROM json_each(?) j CROSS JOIN call_rollup_open o ON o.project_id = ? AND o.id = j.value`;
const CALL_SQL = upsertTexts([...START_NAMES, ...END_NAMES]);
const SET_NAME = 'UPDATE calls SET display_name = ? WHERE project_id = ? AND id = ?';
const ANY_REF = 'SELECT 1 FROM call_refs WHERE project_id = ? LIMIT 1';
const DELETE_REFS = 'DELETE FROM call_refs WHERE project_id = ? AND call_id = ? AND kind = ?';
const INSERT_REF = 'INSERT OR IGNORE INTO call_refs (project_id, call_id, kind, ref) VALUES (?, ?, ?, ?)';

/** The parameters of `rows` staged calls from `at`: each call's key, then its start and/or end values. */
function rowValues(calls: readonly StagedCall[], at: number, rows: number): Value[] {
  const out: Value[] = [];
  for (let i = at; i < at + rows; i++) {
    const call = calls[i] as StagedCall;
    out.push(call.projectId, call.id);
    if (call.start) for (const v of call.start) out.push(v);
    if (call.end) for (const v of call.end) out.push(v);
  }
  return out;
}

/** Upserts staged calls of one kind (`sql`: its texts by rows per statement), several rows per statement. */
function* upsertRows(sql: Map<number, string>, calls: readonly StagedCall[]): Steps<void> {
  let at = 0;
  // one array parameter: better-sqlite3 binds its values in order
  for (const rows of ROWS_PER_STATEMENT) for (; calls.length - at >= rows; at += rows) yield* run(sql.get(rows) as string, [rowValues(calls, at, rows)]);
}

/**
 * Upserts ends alone as {@link upsertRows} does. @returns the project and hour of each open root among them (one probe
 * of a small table per project of the batch, none more while the project has no open root).
 */
function* upsertEnds(calls: readonly StagedCall[]): Steps<EndedRoot[]> {
  if (calls.length === 0) return [];
  yield* upsertRows(END_SQL, calls);
  const roots: EndedRoot[] = [];
  for (const [projectId, ids] of idsByProject(calls, callProject, callId)) {
    if ((yield* get(ANY_OPEN, [projectId])) === undefined) continue;
    for (const r of yield* all<{ hour: string }>(OPEN_AMONG, [JSON.stringify(ids), projectId])) roots.push([projectId, r.hour]);
  }
  return roots;
}

/**
 * Writes the staged calls of one batch on SQLite: one upsert each (several rows per statement), then end names, refs
 * (the delete skipped when the project has no refs at all) and the pending renames of the calls started.
 * @returns the project and hour of the open roots (rollup-refresh.ts) the batch ended without starting them.
 */
export function* sqliteFlush(calls: readonly StagedCall[]): Steps<EndedRoot[]> {
  const full: StagedCall[] = [];
  const startOnly: StagedCall[] = [];
  const endOnly: StagedCall[] = [];
  for (const call of calls) (call.start ? (call.end ? full : startOnly) : endOnly).push(call);
  yield* upsertRows(CALL_SQL, full);
  yield* upsertRows(START_SQL, startOnly);
  const ended = yield* upsertEnds(endOnly);
  const withRefs = new Map<string, boolean>();
  for (const call of calls) {
    if (call.endName !== undefined) yield* run(SET_NAME, [call.endName, call.projectId, call.id]);
    let stored = withRefs.get(call.projectId);
    if (stored === undefined) withRefs.set(call.projectId, (stored = (yield* get(ANY_REF, [call.projectId])) !== undefined));
    for (const [kind, refs] of callRefs(call)) {
      if (stored) yield* run(DELETE_REFS, [call.projectId, call.id, kind]);
      for (const ref of refs) yield* run(INSERT_REF, [call.projectId, call.id, kind, ref]);
    }
  }
  yield* applyPendingRenames(calls.filter((call) => call.start));
  return ended;
}
