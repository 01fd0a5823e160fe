/**
 * The batch staging step both stores share: an upsert_batch's items are folded in memory into one staged call per
 * (project_id, id), with the effect of applying them one by one, before each engine flushes the staged calls
 * (sqlite-call-flush.ts, pg-call-writes.ts); and the read of the stored values a batch needs (`storedColumn`).
 * @module
 */
import { newId } from 'weft-trace/wire';
import type { CallEndRes, CallStartRes } from 'weft-trace/wire';
import type { Dialect } from '../../db/dialect.js';
import { all, type Steps } from '../../db/sql-steps.js';
import { type EndInput, endValues, INPUTS_AT, type JsonText, OUTPUT_AT, START_NAME_AT, type StartInput, startValues, type UpsertItem, type Value } from './call-fields.js';

/** The key of a (project id, call id) pair in maps and sets. */
export const keyOf = (projectId: string, id: string): string => `${projectId.length}:${projectId}${id}`;

/** The last start and the last end of one call seen in a batch, as column values and JSON texts. */
export interface StagedCall {
  projectId: string;
  id: string;
  /** Trace id the start resolved to (undefined while only an end is staged). */
  traceId?: string;
  /** Values of `START_COLUMNS` (call-fields.ts). */
  start?: Value[];
  inputs?: { value: unknown; json: string };
  /** Values of `END_COLUMNS`. */
  end?: Value[];
  output?: { value: unknown; json: string | null };
  /** `display_name` of the last end that carried one: replaces the start's. */
  endName?: string;
}

/** A staged call's project id and id, for {@link idsByProject}. */
export const callProject = (call: StagedCall): string => call.projectId;
export const callId = (call: StagedCall): string => call.id;

/** A stored root a batch ended without starting it: its project and `started_at` (an overview hour to mark). */
export type EndedRoot = [projectId: string, startedAt: string];

/** A batch folded into staged calls, and its answers. */
export interface StagedBatch {
  /** Staged calls in first-seen order. */
  calls: StagedCall[];
  /** One answer per item, in order: `{id, trace_id}` for a start, `{}` for an end. */
  answers: (CallStartRes | CallEndRes)[];
}

/**
 * Folds a batch's items into staged calls. A start's trace id is the one sent; else the one its call already has
 * (staged, else `storedTrace`), so a repeated start keeps it; else its parent's, when known; else a new UUIDv7. The
 * first named start of the batch names the call (a later start only fills an empty name); an end's name replaces it.
 *
 * @param items - validated batch items.
 * @param storedTrace - the trace id a call has in the database before the batch (undefined when unknown).
 * @param jsonText - the engine's JSON text of a value.
 */
export function stageItems(items: readonly UpsertItem[], storedTrace: (projectId: string, id: string) => string | undefined, jsonText: JsonText): StagedBatch {
  const calls: StagedCall[] = [];
  const byProject = new Map<string, Map<string, StagedCall>>();
  const staged = (projectId: string, id: string): StagedCall => {
    let ids = byProject.get(projectId);
    if (!ids) byProject.set(projectId, (ids = new Map()));
    let call = ids.get(id);
    if (!call) {
      ids.set(id, (call = { projectId, id }));
      calls.push(call);
    }
    return call;
  };
  const traceOf = (projectId: string, id: string): string | undefined => byProject.get(projectId)?.get(id)?.traceId ?? storedTrace(projectId, id);
  const start = (s: StartInput): CallStartRes => {
    const id = s.id || newId();
    const traceId = s.trace_id || (traceOf(s.project_id, id) ?? (s.parent_id ? traceOf(s.project_id, s.parent_id) : undefined) ?? newId());
    const call = staged(s.project_id, id);
    const startName = call.start?.[START_NAME_AT] ?? null;
    call.traceId = traceId;
    call.start = startValues(s, traceId, jsonText);
    if (startName !== null) call.start[START_NAME_AT] = startName;
    call.inputs = { value: s.inputs, json: call.start[INPUTS_AT] as string };
    return { id, trace_id: traceId };
  };
  const end = (e: EndInput): CallEndRes => {
    const call = staged(e.project_id, e.id);
    call.end = endValues(e, jsonText);
    call.output = { value: e.output, json: call.end[OUTPUT_AT] as string | null };
    if (e.display_name !== undefined && e.display_name !== null) call.endName = e.display_name;
    return {};
  };
  const answers = items.map((item) => (item.mode === 'start' ? start(item.req.start) : end(item.req.end)));
  return { calls, answers };
}

/** The ids of `items` grouped by their project id, projects in first-seen order (one query per project follows). */
export function idsByProject<T>(items: Iterable<T>, projectOf: (item: T) => string, idOf: (item: T) => string): Map<string, string[]> {
  const byProject = new Map<string, string[]>();
  for (const item of items) {
    const projectId = projectOf(item);
    const ids = byProject.get(projectId);
    if (ids) ids.push(idOf(item));
    else byProject.set(projectId, [idOf(item)]);
  }
  return byProject;
}

/**
 * A column of the stored calls among (project id, id) pairs, where not null: by {@link keyOf}. One query per project.
 * @param column - `trace_id`, or `started_at` (calls with a stored start).
 */
export function* storedColumn(d: Dialect, pairs: readonly [string, string][], column: 'trace_id' | 'started_at'): Steps<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [projectId, ids] of idsByProject(pairs, (p) => p[0], (p) => p[1])) {
    const sql = `SELECT id, ${column} AS v FROM calls WHERE project_id = ? AND ${d.inList('id')} AND ${column} IS NOT NULL`;
    for (const r of yield* all<{ id: string; v: string }>(sql, [projectId, d.list(ids)])) out.set(keyOf(projectId, r.id), r.v);
  }
  return out;
}
