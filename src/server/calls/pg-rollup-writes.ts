/**
 * The server's rollup on PostgreSQL (the twin of rollup-writes.ts): the traces a batch touches that hold OTel span calls are locked before the batch writes, and rolled up after.
 * @module
 */
import type pg from 'pg';
import { pgRows } from '../db/pg-database.js';
import { rollUpTrace, type RollupRow } from './rollup.js';
import type { TouchedCall } from './rollup-writes.js';

/** The given projects that hold a span call (the partial index `calls_otel`). */
const OTEL_PROJECTS = `SELECT p AS project_id FROM unnest($1::text[]) AS p
  WHERE EXISTS (SELECT 1 FROM calls c WHERE c.project_id = p AND c.otel_dump IS NOT NULL)`;
const STORED_TRACES = `SELECT c.project_id, c.trace_id FROM unnest($1::text[], $2::text[]) AS k(project_id, id)
  JOIN calls c ON c.project_id = k.project_id AND c.id = k.id WHERE c.trace_id IS NOT NULL`;
/** Namespace (first int4 key) of the per-trace advisory locks of the rollup: 'wftr' in ASCII. */
const LOCK_SPACE = 0x77667472;
const LOCK_TRACES = `SELECT count(pg_advisory_xact_lock(${LOCK_SPACE}, h)) FROM (
    SELECT DISTINCT hashtext(t) AS h FROM unnest($1::text[]) AS t ORDER BY 1) l`;
const TRACE_HAS_OTEL = 'SELECT 1 FROM calls WHERE project_id = $1 AND trace_id = $2 AND otel_dump IS NOT NULL LIMIT 1';
const TRACE_ROWS = `SELECT id, parent_id, otel_dump IS NOT NULL AS otel, summary::text AS summary, sent_summary::text AS sent_summary
  FROM calls WHERE project_id = $1 AND trace_id = $2 AND started_at IS NOT NULL`;
const SET_SUMMARIES = `UPDATE calls c SET summary = v.summary::json, sent_summary = v.sent::json
  FROM unnest($2::text[], $3::text[], $4::text[]) AS v(id, summary, sent) WHERE c.project_id = $1 AND c.id = v.id`;

/** A trace the batch may change: project and trace id. */
export type TraceKey = [projectId: string, traceId: string];

/**
 * The traces of `touched` in projects holding a span call (or starting one in this batch, `otelStarts`), each locked
 * until the transaction ends: two servers rolling up one trace take turns, and the later reads the earlier's rows.
 * Locks are taken in one order (hash order), before the batch writes, so they never wait in a cycle with row locks.
 * Costs one indexed probe per batch when no project of it holds a span call.
 *
 * @param client - a client inside the batch's transaction.
 * @param touched - the calls the batch writes (trace id set when the batch carries the start).
 * @param otelStarts - projects whose span calls the batch starts.
 * @returns the locked traces, for {@link pgRollUpTraces}.
 */
export async function pgLockRollupTraces(client: pg.PoolClient, touched: readonly TouchedCall[], otelStarts: ReadonlySet<string>): Promise<TraceKey[]> {
  const projects = [...new Set(touched.map((c) => c.projectId))];
  const stored = await pgRows<{ project_id: string }>(client, OTEL_PROJECTS, [projects.filter((p) => !otelStarts.has(p))]);
  const otel = new Set([...otelStarts, ...stored.map((r) => r.project_id)]);
  if (otel.size === 0) return [];
  const keys = new Map<string, TraceKey>();
  const add = (projectId: string, traceId: string): void => void keys.set(`${projectId.length}:${projectId}${traceId}`, [projectId, traceId]);
  const unknown = touched.filter((c) => otel.has(c.projectId) && c.traceId === undefined);
  for (const c of touched) if (otel.has(c.projectId) && c.traceId !== undefined) add(c.projectId, c.traceId);
  if (unknown.length > 0) {
    const rows = await pgRows<{ project_id: string; trace_id: string }>(client, STORED_TRACES, [unknown.map((c) => c.projectId), unknown.map((c) => c.id)]);
    for (const r of rows) add(r.project_id, r.trace_id);
  }
  const traces = [...keys.values()];
  if (traces.length > 0) await client.query(LOCK_TRACES, [traces.map(([p, t]) => `${p.length}:${p}${t}`)]);
  return traces;
}

/**
 * Rolls up status counts and usage (calls/rollup.ts) in each of `traces` that holds a span call. Run it in the batch's
 * transaction, after its rows are written.
 *
 * @param client - a client inside the batch's transaction.
 * @param traces - the traces {@link pgLockRollupTraces} locked.
 */
export async function pgRollUpTraces(client: pg.PoolClient, traces: readonly TraceKey[]): Promise<void> {
  for (const [projectId, traceId] of traces) {
    if ((await pgRows(client, TRACE_HAS_OTEL, [projectId, traceId])).length === 0) continue;
    const rows = await pgRows<RollupRow>(client, TRACE_ROWS, [projectId, traceId]);
    const writes = rollUpTrace(rows);
    if (writes.length === 0) continue;
    await client.query(SET_SUMMARIES, [projectId, writes.map((w) => w.id), writes.map((w) => w.summary), writes.map((w) => w.sent_summary)]);
  }
}
