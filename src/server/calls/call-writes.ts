/**
 * Idempotent writes of call starts and ends (upserts keyed by project_id and id), including ref extraction.
 * @module
 */
import { newId } from '../../internal/ids.js';
import type { z } from 'zod';
import type { CallEndRes, CallStartRes, EndedCallSchemaForInsert, StartedCallSchemaForInsert, UpsertBatchItem } from '../../schema/calls.js';
import { normalizeTimestamp } from '../db/timestamps.js';
import type { Prepare } from '../db/statement-cache.js';
import { extractRefs } from './call-refs.js';
import { applyPendingRenames } from './call-edit-writes.js';
import { rollUpTouched } from './rollup-writes.js';

/** A validated start (zod output of `StartedCallSchemaForInsert`). */
export type StartInput = z.output<typeof StartedCallSchemaForInsert>;
/** A validated end (zod output of `EndedCallSchemaForInsert`). */
export type EndInput = z.output<typeof EndedCallSchemaForInsert>;
/** A validated batch item (zod output of `UpsertBatchItem`). */
export type UpsertItem = z.output<typeof UpsertBatchItem>;

const KEY_COLUMNS = ['project_id', 'id'] as const;
/** Columns a start sets (after the key), in the order {@link startValues} binds them. */
const START_COLUMNS = ['op_name', 'display_name', 'trace_id', 'parent_id', 'thread_id', 'turn_id', 'started_at', 'attributes', 'inputs',
  'otel_dump', 'svc_user_id', 'svc_run_id', 'svc_run_step'] as const;
/** Columns an end sets (after the key), in the order {@link endValues} binds them. */
const END_COLUMNS = ['ended_at', 'output', 'exception', 'summary'] as const;
/** Where `display_name` is in a start's values ({@link StagedCall.start}). */
export const START_NAME_AT = START_COLUMNS.indexOf('display_name');

/**
 * Insert of `rows` rows of a key and `columns` each, in one statement; on a stored row, replaces only those
 * columns (the other half of the call is kept). The rows of one statement must have distinct keys.
 */
function upsertSql(columns: readonly string[], rows: number): string {
  const all = [...KEY_COLUMNS, ...columns];
  const row = `(${all.map(() => '?').join(', ')})`;
  return `INSERT INTO calls (${all.join(', ')}) VALUES ${Array.from({ length: rows }, () => row).join(', ')}
    ON CONFLICT (project_id, id) DO UPDATE SET ${columns.map(setColumn).join(', ')}`;
}

/**
 * The update of one column of a stored row: a start's `display_name` only fills an empty name (see {@link writeItems});
 * an end's `summary` is the sent one again (the rollup of rollup-writes.ts runs after).
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
function upsertTexts(columns: readonly string[]): Map<number, string> {
  return new Map(ROWS_PER_STATEMENT.map((n) => [n, upsertSql(columns, n)]));
}

const START_SQL = upsertTexts(START_COLUMNS);
const END_SQL = upsertTexts(END_COLUMNS);
const CALL_SQL = upsertTexts([...START_COLUMNS, ...END_COLUMNS]);
const SET_NAME = 'UPDATE calls SET display_name = ? WHERE project_id = ? AND id = ?';
const TRACE_OF = 'SELECT trace_id FROM calls WHERE project_id = ? AND id = ? AND trace_id IS NOT NULL';
const ANY_REF = 'SELECT 1 FROM call_refs WHERE project_id = ? LIMIT 1';
const DELETE_REFS = 'DELETE FROM call_refs WHERE project_id = ? AND call_id = ? AND kind = ?';
const INSERT_REF = 'INSERT OR IGNORE INTO call_refs (project_id, call_id, kind, ref) VALUES (?, ?, ?, ?)';

export type Value = string | number | null;

/** The last start and the last end of one call seen in a batch, as column values and JSON texts. */
export interface StagedCall {
  projectId: string;
  id: string;
  /** Trace id the start resolved to (undefined while only an end is staged). */
  traceId?: string;
  start?: Value[];
  inputs?: { value: unknown; json: string };
  end?: Value[];
  output?: { value: unknown; json: string | null };
  /** `display_name` of the last end that carried one: replaces the start's. */
  endName?: string;
}

function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

function startValues(start: StartInput, traceId: string, inputsJson: string): Value[] {
  return [start.op_name, start.display_name ?? null, traceId, start.parent_id ?? null, start.thread_id ?? null, start.turn_id ?? null,
    normalizeTimestamp(start.started_at), JSON.stringify(start.attributes), inputsJson, json(start.otel_dump), start.svc_user_id ?? null,
    start.svc_run_id ?? null, start.svc_run_step ?? null];
}

function endValues(end: EndInput, outputJson: string | null): Value[] {
  return [normalizeTimestamp(end.ended_at), outputJson, json(end.exception), JSON.stringify(end.summary)];
}

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

/** Calls of one batch, staged in memory so each call is written once, whatever its items' order. */
class BatchWriter {
  /** Staged calls in first-seen order. */
  private readonly calls: StagedCall[] = [];
  /** The same, by project id then call id (no key string is built per item). */
  private readonly byProject = new Map<string, Map<string, StagedCall>>();

  constructor(private readonly prepare: Prepare) {}

  private find(projectId: string, id: string): StagedCall | undefined {
    return this.byProject.get(projectId)?.get(id);
  }

  private staged(projectId: string, id: string): StagedCall {
    let ids = this.byProject.get(projectId);
    if (!ids) this.byProject.set(projectId, (ids = new Map()));
    let call = ids.get(id);
    if (!call) {
      ids.set(id, (call = { projectId, id }));
      this.calls.push(call);
    }
    return call;
  }

  /** The trace id a call already has: staged in this batch, else stored. */
  private traceOf(projectId: string, id: string): string | undefined {
    const staged = this.find(projectId, id)?.traceId;
    if (staged) return staged;
    return (this.prepare(TRACE_OF).get(projectId, id) as { trace_id: string } | undefined)?.trace_id;
  }

  /**
   * Picks the trace id of a start: the one sent; else the one the call already has (so a repeated start
   * keeps it); else the parent's, when the parent is known; else a new UUIDv7.
   */
  private resolveTraceId(start: StartInput, id: string): string {
    if (start.trace_id) return start.trace_id;
    return this.traceOf(start.project_id, id) ?? (start.parent_id ? this.traceOf(start.project_id, start.parent_id) : undefined) ?? newId();
  }

  start(start: StartInput): CallStartRes {
    const id = start.id || newId();
    const traceId = this.resolveTraceId(start, id);
    const call = this.staged(start.project_id, id);
    const inputsJson = JSON.stringify(start.inputs);
    const startName = call.start?.[START_NAME_AT] ?? null;
    call.traceId = traceId;
    call.start = startValues(start, traceId, inputsJson);
    // the first named start of the batch names the call (a later start only fills an empty name)
    if (startName !== null) call.start[START_NAME_AT] = startName;
    call.inputs = { value: start.inputs, json: inputsJson };
    return { id, trace_id: traceId };
  }

  end(end: EndInput): CallEndRes {
    const call = this.staged(end.project_id, end.id);
    const outputJson = json(end.output);
    call.end = endValues(end, outputJson);
    call.output = { value: end.output, json: outputJson };
    if (end.display_name !== undefined && end.display_name !== null) call.endName = end.display_name;
    return {};
  }

  /** Writes every staged call: one upsert each, then its refs. */
  flush(): void {
    const withRefs = new Map<string, boolean>();
    const refsStored = (projectId: string): boolean => {
      let any = withRefs.get(projectId);
      if (any === undefined) withRefs.set(projectId, (any = this.prepare(ANY_REF).get(projectId) !== undefined));
      return any;
    };
    const full: StagedCall[] = [];
    const startOnly: StagedCall[] = [];
    const endOnly: StagedCall[] = [];
    for (const call of this.calls) (call.start ? (call.end ? full : startOnly) : endOnly).push(call);
    this.upsertRows(CALL_SQL, full);
    this.upsertRows(START_SQL, startOnly);
    this.upsertRows(END_SQL, endOnly);
    for (const call of this.calls) {
      const key = [call.projectId, call.id];
      if (call.endName !== undefined) this.prepare(SET_NAME).run(call.endName, ...key);
      const stored = refsStored(call.projectId);
      if (call.inputs) this.replaceRefs(call, 'input', call.inputs, stored);
      if (call.output) this.replaceRefs(call, 'output', call.output, stored);
    }
    applyPendingRenames(this.prepare, this.calls.filter((call) => call.start));
    rollUpTouched(this.prepare, this.calls);
    this.calls.length = 0;
    this.byProject.clear();
  }

  /** Upserts staged calls of one kind (`sql`: its texts by rows per statement), several rows per statement. */
  private upsertRows(sql: Map<number, string>, calls: readonly StagedCall[]): void {
    let at = 0;
    for (const rows of ROWS_PER_STATEMENT) {
      if (calls.length - at < rows) continue;
      const statement = this.prepare(sql.get(rows) as string);
      for (; calls.length - at >= rows; at += rows) statement.run(rowValues(calls, at, rows));
    }
  }

  /** Replaces a call's refs of one kind; skips the delete when the project has no refs at all, and the scan when the JSON holds no `svc:///`. */
  private replaceRefs(call: StagedCall, kind: 'input' | 'output', value: { value: unknown; json: string | null }, stored: boolean): void {
    if (stored) this.prepare(DELETE_REFS).run(call.projectId, call.id, kind);
    if (!value.json?.includes('svc:///')) return;
    const insert = this.prepare(INSERT_REF);
    for (const ref of extractRefs(value.value)) insert.run(call.projectId, call.id, kind, ref);
  }
}

/**
 * Stores a batch of starts and ends with the effect of applying them one by one, in order: a start
 * replaces the start fields of its call, an end the end fields (an end may come first; its row waits,
 * invisible to queries, until the start lands). Each call is written once however many items it has,
 * with `started_at` / `ended_at` normalized to UTC. Run it inside a transaction.
 *
 * `display_name` does not depend on batching or on the order starts and ends arrive in
 * (docs/interface-notes.md, "Call starts and ends"):
 * - an end's `display_name`, when given, replaces the call's name, whether its start is stored or not yet;
 * - a start's `display_name` only fills a call without a name: a start never clears a name, nor replaces
 *   an end's (an end carrying a name that arrives before its start keeps it) or an earlier start's;
 * - a `/call/update` rename replaces the name (`renameCall` in call-edit-writes.ts); one for a call whose start is not stored
 *   waits in `call_renames` and is applied after the start lands ({@link applyPendingRenames}).
 *
 * @param prepare - statement source of a read-write connection.
 * @param items - validated batch items.
 * @returns one result per item, in order: `{id, trace_id}` for a start (generated as UUIDv7 when absent;
 *   a start without `trace_id` keeps its call's, else takes its parent's), `{}` (the wire `CallEndRes`) for an end.
 */
export function writeItems(prepare: Prepare, items: readonly UpsertItem[]): (CallStartRes | CallEndRes)[] {
  const writer = new BatchWriter(prepare);
  const res = items.map((item) => (item.mode === 'start' ? writer.start(item.req.start) : writer.end(item.req.end)));
  writer.flush();
  return res;
}
