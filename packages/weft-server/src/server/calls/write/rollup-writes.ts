/**
 * The server's rollup writes, written once as SQL steps for both engines: the traces a batch touches that hold OTel
 * span calls or calls no sender counted (another process's, `counted_in_parent: false`) are found (on PostgreSQL,
 * locked before the batch writes), then rolled up after its rows are written (calls/write/rollup.ts).
 * @module
 */
import type { Dialect } from '../../db/dialect.js';
import { all, get, run, type Steps } from '../../db/sql-steps.js';
import { rollUpTrace, type RollupRow } from './rollup.js';
import { type EndedRoot, keyOf, type StagedCall, storedColumn } from './batch-staging.js';

/** A call a batch writes: its key, and its trace id when the batch carries its start. */
export type TouchedCall = Pick<StagedCall, 'projectId' | 'id' | 'traceId'>;

/** A trace the batch may change: project and trace id. */
export type TraceKey = [projectId: string, traceId: string];

/** A call the server rolls up through: a span call, or a call marked `uncounted` (the partial index `calls_rollup`). */
const ROLLED = '(otel_dump IS NOT NULL OR uncounted IS NOT NULL)';
/**
 * Any call to roll up through in the project (the partial index `calls_rollup`): a project without one is never rolled
 * up. On SQLite `INDEXED BY`, because its planner otherwise takes the primary key's `project_id` prefix and reads every
 * call of the project to find none (a cost per batch growing with the project: 3 ms per batch at 30,000 calls).
 */
const anyRolled = (d: Dialect): string =>
  `SELECT 1 FROM calls${d.engine === 'sqlite' ? ' INDEXED BY calls_rollup' : ''} WHERE project_id = ? AND ${ROLLED} LIMIT 1`;
/** Namespace (first int4 key) of PostgreSQL's per-trace advisory locks of the rollup: 'wftr' in ASCII. */
const LOCK_SPACE = 0x77667472;
const PG_LOCK_TRACES = `SELECT count(pg_advisory_xact_lock(${LOCK_SPACE}, h)) FROM (
    SELECT DISTINCT hashtext(t) AS h FROM unnest(?::text[]) AS t ORDER BY 1) l`;
const TRACE_ROLLS_UP = `SELECT 1 FROM calls WHERE project_id = ? AND trace_id = ? AND ${ROLLED} LIMIT 1`;
const traceRows = (d: Dialect): string => `SELECT id, parent_id, started_at, otel_dump IS NOT NULL AS otel, uncounted IS NOT NULL AS uncounted,
  ${d.engine === 'sqlite' ? 'summary, sent_summary' : 'summary::text AS summary, sent_summary::text AS sent_summary'}
  FROM calls WHERE project_id = ? AND trace_id = ? AND started_at IS NOT NULL`;
const SQLITE_SET_SUMMARY = 'UPDATE calls SET summary = ?, sent_summary = ? WHERE project_id = ? AND id = ?';
const SQLITE_MARK = 'UPDATE calls SET uncounted = 1 WHERE project_id = ? AND id = ?';
const PG_MARK = 'UPDATE calls c SET uncounted = true FROM unnest(?::text[], ?::text[]) AS v(project_id, id) WHERE c.project_id = v.project_id AND c.id = v.id';
const PG_SET_SUMMARIES = `UPDATE calls c SET summary = v.summary::json, sent_summary = v.sent::json
  FROM unnest(?::text[], ?::text[], ?::text[]) AS v(id, summary, sent) WHERE c.project_id = ? AND c.id = v.id`;

/**
 * The traces of `touched` in projects holding a call to roll up through (or getting one in this batch, `rolledNow`: a
 * span call it starts, a call it marks uncounted). Costs one indexed probe per project of the batch when none holds one
 * (weft's op() traces of one process count their own).
 *
 * Run it before the batch writes, on both engines. On PostgreSQL each trace is locked until the transaction ends, so two
 * servers rolling up one trace take turns and the later reads the earlier's rows; locks are taken in one order (hash
 * order), before the batch's row locks, so they never wait in a cycle. On SQLite (one writer) the order does not
 * matter: an end-only call gains no trace id from the flush, and `rolledNow` names the projects the batch gives one.
 *
 * @param touched - the calls the batch writes (trace id set when the batch carries the start).
 * @param rolledNow - projects whose span calls the batch starts, or whose calls it marks uncounted.
 * @returns the traces, for {@link rollUpTraces}.
 */
export function* tracesToRollUp(d: Dialect, touched: readonly TouchedCall[], rolledNow: ReadonlySet<string>): Steps<TraceKey[]> {
  const rolled = new Set(rolledNow);
  for (const projectId of new Set(touched.map((c) => c.projectId))) {
    if (!rolled.has(projectId) && (yield* get(anyRolled(d), [projectId])) !== undefined) rolled.add(projectId);
  }
  if (rolled.size === 0) return [];
  const keys = new Map<string, TraceKey>();
  const add = (projectId: string, traceId: string): void => void keys.set(keyOf(projectId, traceId), [projectId, traceId]);
  const unknown: [string, string][] = [];
  for (const c of touched) {
    if (!rolled.has(c.projectId)) continue;
    if (c.traceId !== undefined) add(c.projectId, c.traceId);
    else unknown.push([c.projectId, c.id]);
  }
  const stored = yield* storedColumn(d, unknown, 'trace_id');
  for (const [projectId, id] of unknown) {
    const traceId = stored.get(keyOf(projectId, id));
    if (traceId !== undefined) add(projectId, traceId);
  }
  if (d.engine === 'postgres' && keys.size > 0) yield* run(PG_LOCK_TRACES, [[...keys.keys()]]);
  return [...keys.values()];
}

/**
 * Marks the calls whose ends said `counted_in_parent: false` (`uncounted`), after the batch's flush wrote their rows and
 * before {@link rollUpTraces}; a mark stays (a re-sent end marks again). Nothing to run for a batch without one.
 *
 * @param marked - project and id of each such call.
 */
export function* markUncounted(d: Dialect, marked: readonly [projectId: string, id: string][]): Steps<void> {
  if (marked.length === 0) return;
  if (d.engine === 'postgres') yield* run(PG_MARK, [marked.map((m) => m[0]), marked.map((m) => m[1])]);
  else for (const [projectId, id] of marked) yield* run(SQLITE_MARK, [projectId, id]);
}

/**
 * Rolls up status counts and usage in each of `traces` that holds a span call or an uncounted call, so a span's or
 * another process's failure and tokens reach every ancestor whichever order starts and ends arrive in, and a re-sent
 * batch changes nothing (each rollup starts again from the ends as sent). Run it in the batch's transaction, after its
 * rows are written and marked ({@link markUncounted}).
 *
 * @param traces - the traces {@link tracesToRollUp} found.
 * @returns the project and `started_at` of the roots whose summary changed (overview hours to mark).
 */
export function* rollUpTraces(d: Dialect, traces: readonly TraceKey[]): Steps<EndedRoot[]> {
  const roots: EndedRoot[] = [];
  for (const [projectId, traceId] of traces) {
    if ((yield* get(TRACE_ROLLS_UP, [projectId, traceId])) === undefined) continue;
    const rows = yield* all<RollupRow & { started_at: string | null }>(traceRows(d), [projectId, traceId]);
    const writes = rollUpTrace(rows);
    if (writes.length === 0) continue;
    const written = new Set(writes.map((w) => w.id));
    for (const r of rows) if (r.parent_id === null && r.started_at !== null && written.has(r.id)) roots.push([projectId, r.started_at]);
    if (d.engine === 'postgres') {
      yield* run(PG_SET_SUMMARIES, [writes.map((w) => w.id), writes.map((w) => w.summary), writes.map((w) => w.sent_summary), projectId]);
    } else for (const w of writes) yield* run(SQLITE_SET_SUMMARY, [w.summary, w.sent_summary, projectId, w.id]);
  }
  return roots;
}
