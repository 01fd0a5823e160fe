/**
 * Turns a stored `calls` row into the wire call record, adding the server-derived summary fields.
 * @module
 */
import type { CallRecord } from 'weft-trace/wire';
import { deriveStatus } from 'weft-trace/wire';
import { latencyMs } from '../../db/timestamps.js';

/** A `calls` row as selected by {@link CALL_COLUMNS}; JSON columns are TEXT. */
export interface CallRow {
  id: string;
  project_id: string;
  op_name: string;
  display_name: string | null;
  trace_id: string;
  parent_id: string | null;
  thread_id: string | null;
  turn_id: string | null;
  started_at: string;
  ended_at: string | null;
  attributes: string | null;
  inputs: string | null;
  output: string | null;
  exception: string | null;
  summary: string | null;
  svc_user_id: string | null;
  svc_run_id: string | null;
  svc_run_step: number | null;
  svc_run_step_end: number | null;
  /** Present when the query asked for `include_storage_size`. */
  storage_size_bytes?: number;
  /** Present when the query asked for `include_total_storage_size`. */
  total_storage_size_bytes?: number;
}

/** The record keys, in wire order; also the selected columns. */
export const CALL_COLUMNS = [
  'id', 'project_id', 'op_name', 'display_name', 'trace_id', 'parent_id', 'thread_id', 'turn_id',
  'started_at', 'ended_at', 'attributes', 'inputs', 'output', 'exception', 'summary',
  'svc_user_id', 'svc_run_id', 'svc_run_step', 'svc_run_step_end',
] as const;

/**
 * Every stored column of a `calls` row (migration 1), whose text lengths make stream_query `include_storage_size` /
 * `include_total_storage_size` (each engine's `rowBytes` leaf): a row's size in bytes is the sum over them of the UTF-8
 * length of the value's text (JSON columns hold JSON text; an integer counts as its decimal digits; NULL counts 0).
 */
export const STORED_COLUMNS = [...CALL_COLUMNS, 'otel_dump'] as const;

/**
 * Keys a record may gain from the `include_*` options of stream_query (spec endpoint 3, rule 3-4):
 * `storage_size_bytes` (bytes of the stored row), `total_storage_size_bytes` (summed over the trace),
 * `svc_user_name` (the name of `svc_user_id`). Costs and feedback go into `summary` instead.
 */
export const EXTRA_COLUMNS = ['storage_size_bytes', 'total_storage_size_bytes', 'svc_user_name'] as const;

/** `summary.status`: the one union of `schema/call-status.ts`. */
export type CallStatus = import('weft-trace/wire').CallStatus;

/** A wire record: the stored fields plus `summary.status` and `summary.latency_ms` (ms, null while running). */
export type StoredCallRecord = CallRecord & {
  summary: Record<string, unknown> & { status: CallStatus; latency_ms: number | null };
  storage_size_bytes?: number;
  total_storage_size_bytes?: number;
};

function parse(text: string | null): unknown {
  return text === null ? null : (JSON.parse(text) as unknown);
}

/**
 * Builds the wire record of a row, keys in {@link CALL_COLUMNS} order.
 *
 * @param row - a row selected with {@link CALL_COLUMNS} (its start has arrived).
 * @returns the record; `summary` always carries `status` and `latency_ms`.
 * @throws SyntaxError if a JSON column is corrupt (never for rows written by the store).
 */
export function rowToRecord(row: CallRow): StoredCallRecord {
  const exception = parse(row.exception) as CallRecord['exception'];
  const stored = (parse(row.summary) ?? {}) as Record<string, unknown>;
  const summary = {
    ...stored,
    status: deriveStatus(row.ended_at, exception, stored),
    latency_ms: latencyMs(row.started_at, row.ended_at),
  };
  const record: StoredCallRecord = {
    id: row.id,
    project_id: row.project_id,
    op_name: row.op_name,
    display_name: row.display_name,
    trace_id: row.trace_id,
    parent_id: row.parent_id,
    thread_id: row.thread_id,
    turn_id: row.turn_id,
    started_at: row.started_at,
    ended_at: row.ended_at,
    attributes: (parse(row.attributes) ?? {}) as Record<string, unknown>,
    inputs: (parse(row.inputs) ?? {}) as Record<string, unknown>,
    output: parse(row.output),
    exception,
    summary,
    svc_user_id: row.svc_user_id,
    svc_run_id: row.svc_run_id,
    svc_run_step: row.svc_run_step,
    svc_run_step_end: row.svc_run_step_end,
  };
  if (row.storage_size_bytes !== undefined) record.storage_size_bytes = row.storage_size_bytes;
  if (row.total_storage_size_bytes !== undefined) record.total_storage_size_bytes = row.total_storage_size_bytes;
  return record;
}
