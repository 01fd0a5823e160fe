/**
 * PostgreSQL's flush of a staged batch (the engine leaf of `writeBatch` in call-writes.ts), as SQL steps inside the
 * batch's transaction: a few multi-row statements. Start and end of one call merge into one row whichever arrives
 * first, also when they arrive concurrently through different servers: one `INSERT ... ON CONFLICT DO UPDATE` sets
 * only the half each row carries, and rows are written in key order so concurrent batches lock rows in the same order.
 * @module
 */
import { run, all, type Steps } from '../../db/sql-steps.js';
import { lockReferencedFiles } from '../../objects/file-store.js';
import { FILE_REF_PREFIX } from '../../../media-ref.js';
import { callRefs } from './call-refs.js';
import { type ColumnType, END_COLUMNS, KEY_COLUMNS, START_COLUMNS, START_NAME_AT, type StartInput, type Value } from './call-fields.js';
import { keyOf, type StagedCall } from './batch-staging.js';
import { HOUR_LOCK_SPACE, hourLockKey, type HourMarks } from './rollup-marks.js';

const PG_TYPE: Record<ColumnType, string> = { text: 'text', time: 'text', json: 'json', int: 'bigint' };
/** Columns of the upsert, in order (call-fields.ts), with their PostgreSQL array types. */
const COLUMNS = [...KEY_COLUMNS.map((c) => [c, 'text']), ...[...START_COLUMNS, ...END_COLUMNS].map((c) => [c.name, PG_TYPE[c.type]])];
const START_SET = START_COLUMNS.map((c) => c.name);
const END_SET = END_COLUMNS.map((c) => c.name);

const COLUMN_NAMES = COLUMNS.map(([c]) => c);
/** `$n` of the upsert's parameter array of a column. */
const param = (column: string): string => `$${COLUMN_NAMES.indexOf(column) + 1}`;

/**
 * The batch's upsert, in one statement with the drop of the pending `/call/update` renames of the calls it starts.
 *
 * A row carries a start when its started_at is set and an end when its ended_at is (both are required fields); only
 * that half is replaced. A row's display_name is its end's name, else its start's: stored as is by an insert; on a
 * stored row the start's only fills an empty name, and the end's is set afterwards ({@link SET_NAMES}), as is a
 * pending rename (it replaces both). Answers only the rows that existed (`updated`: their old refs are deleted and
 * their end's name set) or had a pending rename (`renamed`, `rename`): none when a batch brings new calls.
 *
 * In the same statement, the overview hours of the roots it writes are marked stale, each hour's shared advisory lock
 * taken first (rollup-marks.ts), with no round trip of its own: the hours of the roots the batch starts, computed in JS
 * from the batch (the last two parameters: project ids and hours), and the hours of the stored roots among the rows it
 * updates (`root_at`: a root's end whose start came in an earlier batch). Rows it inserts need no look: a new root's
 * start is in the batch, and a row inserted by an end alone has no start, so no hour.
 */
const MARK_PROJECTS = `$${COLUMNS.length + 1}::text[]`;
const MARK_HOURS = `$${COLUMNS.length + 2}::text[]`;
const UPSERT_SQL = `WITH pending AS (
    DELETE FROM call_renames r USING unnest(${param('project_id')}::text[], ${param('id')}::text[], ${param('started_at')}::text[]) AS s(project_id, id, started_at)
    WHERE s.started_at IS NOT NULL AND r.project_id = s.project_id AND r.call_id = s.id
    RETURNING r.project_id, r.call_id, r.display_name),
  up AS (
    INSERT INTO calls (${COLUMN_NAMES.join(', ')})
    SELECT * FROM unnest(${COLUMNS.map(([, t], i) => `$${i + 1}::${t}[]`).join(', ')})
    ON CONFLICT (project_id, id) DO UPDATE SET
    ${[
    // a start's display_name only fills an empty name (writeBatch in call-writes.ts)
    ...START_SET.map((c) => `${c} = CASE WHEN excluded.started_at IS NOT NULL THEN ${c === 'display_name' ? 'coalesce(calls.display_name, excluded.display_name)' : `excluded.${c}`} ELSE calls.${c} END`),
    ...END_SET.map((c) => `${c} = CASE WHEN excluded.ended_at IS NOT NULL THEN excluded.${c} ELSE calls.${c} END`),
    // an end's summary is the sent one again (the rollup of rollup-writes.ts runs after)
    'sent_summary = CASE WHEN excluded.ended_at IS NOT NULL THEN NULL ELSE calls.sent_summary END',
  ].join(',\n    ')}
    RETURNING project_id, id, xmax <> 0 AS updated, CASE WHEN xmax <> 0 AND parent_id IS NULL THEN started_at END AS root_at),
  hours AS (SELECT p AS project_id, h AS hour FROM unnest(${MARK_PROJECTS}, ${MARK_HOURS}) AS v(p, h)
    UNION SELECT project_id, substr(root_at, 1, 13) FROM up WHERE root_at IS NOT NULL),
  hour_locks AS (SELECT count(pg_advisory_xact_lock_shared(${HOUR_LOCK_SPACE}, k)) AS n FROM (
    SELECT DISTINCT ${hourLockKey('project_id', 'hour')} AS k FROM hours ORDER BY 1) s),
  marked AS (INSERT INTO call_rollup_marks (project_id, hour)
    SELECT hours.project_id, hours.hour FROM hours, hour_locks WHERE hour_locks.n >= 0
    ON CONFLICT DO NOTHING)
  SELECT up.project_id, up.id, up.updated, p.call_id IS NOT NULL AS renamed, p.display_name AS rename
  FROM up LEFT JOIN pending p ON p.project_id = up.project_id AND p.call_id = up.id
  WHERE up.updated OR p.call_id IS NOT NULL`;

const SET_NAMES = `UPDATE calls c SET display_name = v.name FROM unnest($1::text[], $2::text[], $3::text[]) AS v(project_id, id, name)
  WHERE c.project_id = v.project_id AND c.id = v.id`;
const DELETE_REFS = `DELETE FROM call_refs r USING unnest($1::text[], $2::text[], $3::text[]) AS v(project_id, call_id, kind)
  WHERE r.project_id = v.project_id AND r.call_id = v.call_id AND r.kind = v.kind`;
const INSERT_REFS = `INSERT INTO call_refs (project_id, call_id, kind, ref)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) ON CONFLICT DO NOTHING`;
/** Namespace (first int4 key) of the per-project advisory locks of call writes: 'weft' in ASCII. */
const LOCK_SPACE = 0x77656674;

/**
 * A batch that starts calls of a project holds the project's advisory lock shared, a `/call/update` of one of its calls
 * exclusive, each until its transaction ends: batches never wait for each other, and a rename and a batch starting
 * calls of its project never overlap. The later of the two waits for the earlier to commit, then sees its rows (READ
 * COMMITTED: each statement reads what was committed when it began), so a rename racing its call's start through
 * another server is applied, not left pending forever (each transaction would otherwise miss the other's uncommitted
 * row). One lock per project, not per call: a batch of 10,000 calls must not fill PostgreSQL's lock table
 * (`max_locks_per_transaction` x `max_connections` entries shared by all sessions). A rename waits for the batches of
 * its project in flight, and holds new ones back for the few ms of its own transaction.
 */
const LOCK_PROJECTS_SHARED = `SELECT count(pg_advisory_xact_lock_shared(${LOCK_SPACE}, h)) FROM (
    SELECT DISTINCT hashtext(p) AS h FROM unnest($1::text[]) AS p ORDER BY 1) l`;
/** A rename's lock (see {@link LOCK_PROJECTS_SHARED}): run in its transaction, before it reads or writes the call. */
export const PG_LOCK_FOR_RENAME = `SELECT pg_advisory_xact_lock(${LOCK_SPACE}, hashtext(?))`;

/**
 * Locks out `/call/update` renames in the projects of the calls a batch starts (see {@link LOCK_PROJECTS_SHARED}),
 * until the transaction ends. Run inside the batch's transaction, before it reads or writes those calls.
 *
 * @param starts - the batch's starts (those with an id count: a start without one makes a new call).
 */
export function* pgLockStartedProjects(starts: readonly StartInput[]): Steps<void> {
  const projectIds = [...new Set(starts.flatMap((s) => (s.id ? [s.project_id] : [])))];
  if (projectIds.length > 0) yield* run(LOCK_PROJECTS_SHARED, [projectIds]);
}

const byKey = (a: StagedCall, b: StagedCall): number => (a.projectId < b.projectId ? -1 : a.projectId > b.projectId ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The project ids and digests of the files `found` (each call's refs, callRefs) refer to, in the calls' key order. */
function fileRefsOf(sorted: readonly StagedCall[], found: readonly ReturnType<typeof callRefs>[]): [string[], string[]] {
  const files: [string[], string[]] = [[], []];
  found.forEach((halves, i) => {
    for (const [, refs] of halves) {
      for (const ref of refs) {
        if (!ref.startsWith(FILE_REF_PREFIX)) continue;
        files[0].push(sorted[i]!.projectId);
        files[1].push(ref.slice(FILE_REF_PREFIX.length));
      }
    }
  });
  return files;
}

/**
 * Writes staged calls in key order: first the lock on the files their refs point at (a batch with media only; see
 * objects/file-store.ts: retention cannot delete one of them before these refs are visible), then the upsert with the
 * drop of pending renames and the marks of the overview hours of its roots, then names and refs.
 * @param rootStarts - the hours of the roots the batch starts (call-writes.ts), marked by the upsert.
 */
export function* pgFlush(calls: readonly StagedCall[], rootStarts: HourMarks): Steps<void> {
  if (calls.length === 0) return;
  const sorted = [...calls].sort(byKey);
  const found = sorted.map(callRefs);
  yield* lockReferencedFiles(fileRefsOf(sorted, found));
  const columns: Value[][] = COLUMNS.map(() => []);
  const noStart = Array<Value>(START_SET.length).fill(null);
  const noEnd = Array<Value>(END_SET.length).fill(null);
  for (const call of sorted) {
    const start = call.start ? [...call.start] : [...noStart];
    // an end's display_name replaces the start's: inserted with the row, set after the upsert on a stored row
    if (call.endName !== undefined) start[START_NAME_AT] = call.endName;
    const row = [call.projectId, call.id, ...start, ...(call.end ?? noEnd)];
    row.forEach((v, i) => columns[i]!.push(v));
  }
  const answered = yield* all<{ project_id: string; id: string; updated: boolean; renamed: boolean; rename: string | null }>(UPSERT_SQL, [...columns, rootStarts.projects, rootStarts.hours]);
  // a row this upsert inserted has no refs yet: only rows that existed get their old refs deleted
  const updated = new Set(answered.filter((r) => r.updated).map((r) => keyOf(r.project_id, r.id)));
  const renamed = new Map(answered.filter((r) => r.renamed).map((r) => [keyOf(r.project_id, r.id), r.rename]));
  const names: (string | null)[][] = [[], [], []];
  const stale: string[][] = [[], [], []];
  const refs: string[][] = [[], [], [], []];
  const push = <V>(into: V[][], ...values: V[]): void => values.forEach((v, i) => into[i]!.push(v));
  sorted.forEach((call, i) => {
    const key = keyOf(call.projectId, call.id);
    // names set after the upsert: a pending rename (over the end's name), else the end's name of a stored row
    const name = renamed.has(key) ? renamed.get(key) : updated.has(key) ? call.endName : undefined;
    if (name !== undefined) push(names, call.projectId, call.id, name);
    for (const [kind, kindRefs] of found[i]!) {
      if (updated.has(key)) push(stale, call.projectId, call.id, kind);
      for (const ref of kindRefs) push(refs, call.projectId, call.id, kind, ref);
    }
  });
  if (names[0]!.length > 0) yield* run(SET_NAMES, names);
  if (stale[0]!.length > 0) yield* run(DELETE_REFS, stale);
  if (refs[0]!.length > 0) yield* run(INSERT_REFS, refs);
}
