/**
 * SQL for stream_query `include_storage_size` / `include_total_storage_size`: bytes of stored call rows.
 * @module
 */

/** Every stored column of a `calls` row (migration 1). */
export const STORED_COLUMNS = [
  'project_id', 'id', 'op_name', 'display_name', 'trace_id', 'parent_id', 'thread_id', 'turn_id', 'started_at',
  'ended_at', 'attributes', 'inputs', 'output', 'exception', 'summary', 'otel_dump', 'svc_user_id', 'svc_run_id',
  'svc_run_step',
] as const;

/**
 * Size of a row in bytes: the sum over its stored columns of the UTF-8 length of the value's text
 * (JSON columns hold JSON text; an integer counts as its decimal digits; NULL counts 0).
 *
 * @param alias - table alias to qualify columns with.
 */
export function rowBytesSql(alias: string): string {
  return `(${STORED_COLUMNS.map((c) => `COALESCE(length(CAST(${alias}.${c} AS BLOB)), 0)`).join(' + ')})`;
}

/** `storage_size_bytes` of the current `calls` row. */
export const STORAGE_SIZE_SQL = `${rowBytesSql('calls')} AS storage_size_bytes`;

/** `total_storage_size_bytes`: the row sizes summed over every stored row of the call's trace. */
export const TOTAL_STORAGE_SIZE_SQL = `(SELECT sum(${rowBytesSql('t')}) FROM calls t
  WHERE t.project_id = calls.project_id AND t.trace_id = calls.trace_id) AS total_storage_size_bytes`;
