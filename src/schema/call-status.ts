/**
 * The status of a call (`summary.status`), one union for the schema, the server's records, the CLI and the viewer; no zod, so the viewer bundles it as is.
 * @module
 */

/**
 * Every `summary.status` a call record can carry, as the server derives it (once per store, in SQL and in
 * `server/calls/records.ts`): `running` without `ended_at`; `error` with its own exception; `cancelled` when
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
