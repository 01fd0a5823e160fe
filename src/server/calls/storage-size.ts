/**
 * The stored columns of a `calls` row, whose text lengths make stream_query `include_storage_size` /
 * `include_total_storage_size` (each engine's `rowBytes` leaf: SQLite's query-sql.ts, PostgreSQL's pg-query-sql.ts).
 * @module
 */

/**
 * Every stored column of a `calls` row (migration 1). A row's size in bytes is the sum over them of the UTF-8 length
 * of the value's text (JSON columns hold JSON text; an integer counts as its decimal digits; NULL counts 0).
 */
export const STORED_COLUMNS = [
  'project_id', 'id', 'op_name', 'display_name', 'trace_id', 'parent_id', 'thread_id', 'turn_id', 'started_at',
  'ended_at', 'attributes', 'inputs', 'output', 'exception', 'summary', 'otel_dump', 'svc_user_id', 'svc_run_id',
  'svc_run_step', 'svc_run_step_end',
] as const;
