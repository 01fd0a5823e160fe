/**
 * Idempotent writes of call starts and ends (upserts keyed by project_id and id), including ref extraction.
 * @module
 */
import type Database from 'better-sqlite3';
import { uuidv7 } from 'uuidv7';
import type { z } from 'zod';
import type { CallEndRes, CallStartRes, EndedCallSchemaForInsert, StartedCallSchemaForInsert } from '../schema/calls.js';
import { extractRefs } from './refs.js';
import { normalizeTimestamp } from './time.js';

/** A validated start (zod output of `StartedCallSchemaForInsert`). */
export type StartInput = z.output<typeof StartedCallSchemaForInsert>;
/** A validated end (zod output of `EndedCallSchemaForInsert`). */
export type EndInput = z.output<typeof EndedCallSchemaForInsert>;

/** Returns a cached prepared statement for a SQL text. */
export type Prepare = (sql: string) => Database.Statement;

const START_SQL = `INSERT INTO calls (project_id, id, op_name, display_name, trace_id, parent_id, thread_id,
    turn_id, started_at, attributes, inputs, otel_dump, svc_user_id, svc_run_id, svc_run_step)
  VALUES (@project_id, @id, @op_name, @display_name, @trace_id, @parent_id, @thread_id,
    @turn_id, @started_at, @attributes, @inputs, @otel_dump, @svc_user_id, @svc_run_id, @svc_run_step)
  ON CONFLICT (project_id, id) DO UPDATE SET op_name = excluded.op_name, display_name = excluded.display_name,
    trace_id = excluded.trace_id, parent_id = excluded.parent_id, thread_id = excluded.thread_id,
    turn_id = excluded.turn_id, started_at = excluded.started_at, attributes = excluded.attributes,
    inputs = excluded.inputs, otel_dump = excluded.otel_dump, svc_user_id = excluded.svc_user_id,
    svc_run_id = excluded.svc_run_id, svc_run_step = excluded.svc_run_step`;

const END_SQL = `INSERT INTO calls (project_id, id, ended_at, output, exception, summary)
  VALUES (@project_id, @id, @ended_at, @output, @exception, @summary)
  ON CONFLICT (project_id, id) DO UPDATE SET ended_at = excluded.ended_at, output = excluded.output,
    exception = excluded.exception, summary = excluded.summary`;

const TRACE_OF = 'SELECT trace_id FROM calls WHERE project_id = ? AND id = ? AND trace_id IS NOT NULL';

function replaceRefs(prepare: Prepare, projectId: string, id: string, kind: 'input' | 'output', value: unknown): void {
  prepare('DELETE FROM call_refs WHERE project_id = ? AND call_id = ? AND kind = ?').run(projectId, id, kind);
  const insert = prepare('INSERT OR IGNORE INTO call_refs (project_id, call_id, kind, ref) VALUES (?, ?, ?, ?)');
  for (const ref of extractRefs(value)) insert.run(projectId, id, kind, ref);
}

function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/**
 * Picks the trace id of a start: the one sent; else the one already stored for this call (so a
 * repeated start keeps it); else the parent's, when the parent is stored; else a new UUIDv7.
 */
function resolveTraceId(prepare: Prepare, start: StartInput, id: string): string {
  if (start.trace_id) return start.trace_id;
  const trace = prepare(TRACE_OF);
  const own = trace.get(start.project_id, id) as { trace_id: string } | undefined;
  if (own) return own.trace_id;
  const parent = start.parent_id ? (trace.get(start.project_id, start.parent_id) as { trace_id: string } | undefined) : undefined;
  return parent?.trace_id ?? uuidv7();
}

/**
 * Inserts or replaces the start fields of a call; the end fields of the row, if an end came first, are kept.
 * Call in a transaction when combined with other writes.
 *
 * @param prepare - statement source of a read-write connection.
 * @param start - a validated start; `started_at` is normalized to UTC.
 * @returns the call's id and trace id (generated as UUIDv7 when absent; see {@link resolveTraceId}).
 */
export function writeStart(prepare: Prepare, start: StartInput): CallStartRes {
  const id = start.id || uuidv7();
  const trace_id = resolveTraceId(prepare, start, id);
  prepare(START_SQL).run({
    project_id: start.project_id,
    id,
    op_name: start.op_name,
    display_name: start.display_name ?? null,
    trace_id,
    parent_id: start.parent_id ?? null,
    thread_id: start.thread_id ?? null,
    turn_id: start.turn_id ?? null,
    started_at: normalizeTimestamp(start.started_at),
    attributes: JSON.stringify(start.attributes),
    inputs: JSON.stringify(start.inputs),
    otel_dump: json(start.otel_dump),
    svc_user_id: start.svc_user_id ?? null,
    svc_run_id: start.svc_run_id ?? null,
    svc_run_step: start.svc_run_step ?? null,
  });
  replaceRefs(prepare, start.project_id, id, 'input', start.inputs);
  return { id, trace_id };
}

/**
 * Inserts or replaces the end fields of a call. When the start has not arrived yet the row waits,
 * invisible to queries, until it does.
 *
 * @param prepare - statement source of a read-write connection.
 * @param end - a validated end; `ended_at` is normalized to UTC.
 * @returns `{}` (the wire `CallEndRes`).
 */
export function writeEnd(prepare: Prepare, end: EndInput): CallEndRes {
  prepare(END_SQL).run({
    project_id: end.project_id,
    id: end.id,
    ended_at: normalizeTimestamp(end.ended_at),
    output: json(end.output),
    exception: json(end.exception),
    summary: JSON.stringify(end.summary),
  });
  replaceRefs(prepare, end.project_id, end.id, 'output', end.output);
  return {};
}
