/**
 * The status of a call (`summary.status`), one union for the schema, the server's records, the CLI and the viewer; no zod, so the viewer bundles it as is.
 * @module
 */

/**
 * Every `summary.status` a call record can carry, as the server derives it (once per store, in SQL and in
 * `packages/weft-server/src/server/calls/query/records.ts`): `running` without `ended_at`; `error` with its own exception; `cancelled` when
 * its consumer abandoned it (`summary.cancelled`); `descendant_error` when a descendant failed
 * (`summary.status_counts.error > 0`); else `success`. Also the order the CLI and the viewer offer them in.
 */
export const CALL_STATUSES = ['success', 'error', 'descendant_error', 'running', 'cancelled'] as const;

/** `summary.status` of a call record (see {@link CALL_STATUSES}). */
export type CallStatus = (typeof CALL_STATUSES)[number];

/** Whether `value` is a {@link CallStatus}. */
export function isCallStatus(value: unknown): value is CallStatus {
  return typeof value === 'string' && (CALL_STATUSES as readonly string[]).includes(value);
}

/**
 * Derives `summary.status` from a call's fields, by the rule of {@link CALL_STATUSES} (the server's SQL
 * computes the same per store; this is the rule for a record that carries none, e.g. one read from a file).
 * @param endedAt - `ended_at`, `null` or absent while the call runs.
 * @param exception - the call's own `exception`, if any.
 * @param summary - the call's stored `summary` (`cancelled`, `status_counts.error`).
 */
export function deriveStatus(endedAt: string | null | undefined, exception: unknown, summary: Record<string, unknown> | null | undefined): CallStatus {
  if (endedAt === null || endedAt === undefined) return 'running';
  if (exception !== null && exception !== undefined) return 'error';
  if (summary?.['cancelled'] === true) return 'cancelled';
  const counts = summary?.['status_counts'];
  const errors = counts && typeof counts === 'object' ? (counts as Record<string, unknown>)['error'] : undefined;
  return typeof errors === 'number' && errors > 0 ? 'descendant_error' : 'success';
}
