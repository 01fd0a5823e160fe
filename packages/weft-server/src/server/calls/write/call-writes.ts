/**
 * Idempotent writes of call starts and ends (upserts keyed by project_id and id), written once as SQL steps for both
 * engines: the stored trace ids a batch needs are read, the batch is staged (batch-staging.ts), its rollup traces
 * found (rollup-writes.ts), and the engine's flush writes it (SQLite: sqlite-call-flush.ts, PostgreSQL:
 * pg-call-writes.ts), then the calls no sender counted are marked and those traces rolled up (rollup-writes.ts), and
 * the overview hours it changed are marked (rollup-marks.ts), inside one transaction the caller's runner opens.
 * @module
 */
import type { CallEndRes, CallStartRes } from 'weft-trace/wire';
import type { Dialect } from '../../db/dialect.js';
import type { Steps } from '../../db/sql-steps.js';
import { END_COLUMNS, START_COLUMNS, type StartInput, type UpsertItem } from './call-fields.js';
import { callId, callProject, type EndedRoot, idsByProject, keyOf, type StagedCall, stageItems, storedColumn } from './batch-staging.js';
import { HourMarks, markHours, rootsAbove } from './rollup-marks.js';
import { markUncounted, rollUpTraces, tracesToRollUp } from './rollup-writes.js';
import { pgFlush, pgLockStartedProjects } from './pg-call-writes.js';
import { sqliteFlush } from './sqlite-call-flush.js';

export type { EndInput, StartInput, UpsertItem } from './call-fields.js';

/**
 * The calls with a stored start among the ends of `items` (for `strictOrder`).
 * @returns a predicate over (project_id, id).
 */
export function* startedCalls(d: Dialect, items: readonly UpsertItem[]): Steps<(projectId: string, id: string) => boolean> {
  const pairs = items.flatMap((item): [string, string][] => (item.mode === 'end' ? [[item.req.end.project_id, item.req.end.id]] : []));
  const started = yield* storedColumn(d, pairs, 'started_at');
  return (projectId, id) => started.has(keyOf(projectId, id));
}

/**
 * Stores a batch of starts and ends with the effect of applying them one by one, in order: a start replaces the start
 * fields of its call, an end the end fields (an end may come first; its row waits, invisible to queries, until the
 * start lands). Each call is written once however many items it has, with `started_at` / `ended_at` normalized to
 * UTC. Run it in one transaction (`SqlRunner.transaction`): SQLite's stays synchronous.
 *
 * `display_name` does not depend on batching or on the order starts and ends arrive in
 * (docs/interface-notes.md, "Call starts and ends"):
 * - an end's `display_name`, when given, replaces the call's name, whether its start is stored or not yet;
 * - a start's `display_name` only fills a call without a name: a start never clears a name, nor replaces
 *   an end's (an end carrying a name that arrives before its start keeps it) or an earlier start's;
 * - a `/call/update` rename replaces the name (`renameCall` in call-edit-writes.ts); one for a call whose start is not
 *   stored waits in `call_renames` and is applied after the start lands (by the engine's flush).
 *
 * @param items - validated batch items.
 * @returns one result per item, in order: `{id, trace_id}` for a start (generated as UUIDv7 when absent;
 *   a start without `trace_id` keeps its call's, else takes its parent's), `{}` (the wire `CallEndRes`) for an end.
 */
export function* writeBatch(d: Dialect, items: readonly UpsertItem[]): Steps<(CallStartRes | CallEndRes)[]> {
  const { starts, uncounted } = splitItems(items);
  // a pending rename of a call this batch starts is applied by the flush: lock out a concurrent /call/update of it first
  if (d.engine === 'postgres') yield* pgLockStartedProjects(starts);
  // trace ids a start without one may inherit: its own call's, else its parent's, as stored before the batch
  const wanted = starts.flatMap((s): [string, string][] => (s.trace_id ? [] : [s.id, s.parent_id].flatMap((id) => (id ? [[s.project_id, id]] : []))));
  const stored = yield* storedColumn(d, wanted, 'trace_id');
  const { calls, answers } = stageItems(items, (projectId, id) => stored.get(keyOf(projectId, id)), d.json);
  const rolledNow = new Set([...starts.filter((s) => s.otel_dump).map((s) => s.project_id), ...uncounted.map((u) => u[0])]);
  const traces = yield* tracesToRollUp(d, calls, rolledNow);
  const started = rootStartHours(calls);
  // PostgreSQL's upsert marks the hours of the roots the batch starts (from JS) and of the stored roots it ends (from the
  // rows it updates); SQLite's flush answers the stored roots it ended, and the roots it starts are marked below
  const ended = d.engine === 'postgres' ? (yield* pgFlush(calls, started), []) : yield* sqliteFlush(calls);
  yield* markUncounted(d, uncounted);
  const rolled = yield* rollUpTraces(d, traces);
  yield* markBatchHours(d, calls, d.engine === 'postgres' ? new HourMarks() : started, [...ended, ...rolled]);
  return answers;
}

/** The starts of a batch, and the project and id of each end saying `counted_in_parent: false` (usually none), in one pass. */
function splitItems(items: readonly UpsertItem[]): { starts: StartInput[]; uncounted: [string, string][] } {
  const starts: StartInput[] = [];
  const uncounted: [string, string][] = [];
  for (const item of items) {
    if (item.mode === 'start') starts.push(item.req.start);
    else if (item.req.end.counted_in_parent === false) uncounted.push([item.req.end.project_id, item.req.end.id]);
  }
  return { starts, uncounted };
}

const STARTED_AT = START_COLUMNS.findIndex((c) => c.name === 'started_at');
const PARENT_ID = START_COLUMNS.findIndex((c) => c.name === 'parent_id');
const EXCEPTION = END_COLUMNS.findIndex((c) => c.name === 'exception');

/**
 * The overview hours of the roots a batch starts: the hour of each start without a parent, from the batch's own
 * `started_at` (a re-sent start marks its hour again). Usually one or two per batch.
 */
function rootStartHours(calls: readonly StagedCall[]): HourMarks {
  const marks = new HourMarks();
  for (const call of calls) if (call.start !== undefined && call.start[PARENT_ID] === null) marks.add(call.projectId, call.start[STARTED_AT] as string);
  return marks;
}

/**
 * Marks the overview hours a batch changed (rollup-marks.ts), beside `marks` (the root starts' hours on SQLite;
 * PostgreSQL's upsert marked them): the hour of each stored root it ends or rolls up (`roots`), and of the roots above
 * each call it fails below a root (a `descendant_error` derived from descendants). The distinct hours are found in one
 * pass: usually one or two marks per batch.
 */
function* markBatchHours(d: Dialect, calls: readonly StagedCall[], marks: HourMarks, roots: readonly EndedRoot[]): Steps<void> {
  const failed: StagedCall[] = [];
  for (const call of calls) {
    const start = call.start;
    if ((start === undefined || start[PARENT_ID] !== null) && call.end !== undefined && call.end[EXCEPTION] !== null) failed.push(call);
  }
  for (const [projectId, startedAt] of roots) marks.add(projectId, startedAt);
  for (const [projectId, ids] of idsByProject(failed, callProject, callId)) for (const startedAt of yield* rootsAbove(d, projectId, ids)) marks.add(projectId, startedAt);
  yield* markHours(d, marks);
}
