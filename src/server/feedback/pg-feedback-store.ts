/**
 * Feedback of one PostgreSQL database (spec endpoints 2 and 6): batch inserts, stats, and per-call lookups for
 * `include_feedback`, with the answers of the SQLite `FeedbackStore`. The only code that runs SQL on `feedback` there.
 * @module
 */
import { newId } from '../../internal/ids.js';
import { percentileName, type FeedbackCreateRes, type FeedbackRecord, type FeedbackStatsBucket, type FeedbackStatsRes } from '../../schema/feedback.js';
import { type PgDatabase, pgRows } from '../db/pg-database.js';
import { pgJsonText } from '../db/pg-json.js';
import { feedbackByCall, targetCallId, type FeedbackInput, type FeedbackRow } from './feedback-store.js';
import { pgStatsScan, type PgStatsRow } from './pg-stats-sql.js';
import { combine, metricResults, type PartialStats } from './stats-aggregate.js';
import { zonedIso } from './stats-buckets.js';
import { statsWindow, type StatsQuery } from './stats-query.js';
import { metricsOf, type StatsMetric } from './stats-sql.js';

const RECORD_COLUMNS = `id, project_id, feedback_type, svc_ref, payload::text AS payload, annotation_ref, call_ref, creator, queue_id,
  runnable_ref, trigger_ref, svc_user_id, created_at`;

/** One multi-row insert of a whole batch: one array per column, rows in batch order; ids already stored are skipped. */
const INSERT_SQL = `INSERT INTO feedback (project_id, id, feedback_type, svc_ref, call_id, payload, annotation_ref,
    call_ref, creator, queue_id, runnable_ref, trigger_ref, svc_user_id, created_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::json[], $7::text[],
    $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[])
  ON CONFLICT (project_id, id) DO NOTHING
  RETURNING project_id, id`;

const STORED_SQL = 'SELECT id, created_at, payload::text AS payload, svc_user_id FROM feedback WHERE project_id = $1 AND id = ANY($2::text[])';

const FOR_CALLS_SQL = `SELECT call_id, ${RECORD_COLUMNS} FROM feedback
  WHERE project_id = $1 AND call_id = ANY($2::text[])
  ORDER BY created_at, id`;

/** Column order of {@link INSERT_SQL}. */
const INSERT_COLUMNS = ['project_id', 'id', 'feedback_type', 'svc_ref', 'call_id', 'payload', 'annotation_ref', 'call_ref', 'creator',
  'queue_id', 'runnable_ref', 'trigger_ref', 'svc_user_id', 'created_at'] as const;

type InsertRow = Record<(typeof INSERT_COLUMNS)[number], string | null>;

const EMPTY: PartialStats = { count: 0, sum: null, min: null, max: null };

/** The results of one metric in one bucket (or the window): aggregations from the partial, then percentiles. */
function results(part: PartialStats, percentiles: readonly (number | null)[] | null, m: StatsMetric, scope: 'bucket' | 'window'): [string, number | null][] {
  const out = metricResults(part, undefined, { aggregations: m.aggregations, percentiles: [] }, scope);
  m.percentiles.forEach((p, k) => out.push([percentileName(p), part.count > 0 ? (percentiles?.[k] ?? null) : null]));
  return out;
}

/** Feedback of every project in one PostgreSQL database (the `feedback` table, payload as `json` since PG migration 2, `seq` in insert order). */
export class PgFeedbackStore {
  /** @param db - the migrated database. */
  constructor(private readonly db: PgDatabase) {}

  /**
   * Stores a batch of feedback in one transaction, with one multi-row insert. Ids, `created_at` and idempotence
   * on `id` as in the SQLite store (`FeedbackStore.createBatch`); also across servers: an id stored by another
   * server is answered as stored.
   *
   * @param items - validated `FeedbackCreateReq` items.
   * @param now - the clock; called once per item, in order.
   * @returns one `{id, created_at, payload, svc_user_id}` per item, in the order of `items`.
   * @throws the PostgreSQL error of a failing write; nothing of the batch is stored then.
   * @see spec endpoint 2, "Create feedback in batch"
   */
  async createBatch(items: readonly FeedbackInput[], now: () => Date = () => new Date()): Promise<FeedbackCreateRes[]> {
    const rows: InsertRow[] = items.map((item) => ({
      project_id: item.project_id, id: item.id ?? newId(), feedback_type: item.feedback_type, svc_ref: item.svc_ref,
      call_id: targetCallId(item), payload: pgJsonText(item.payload),
      annotation_ref: item.annotation_ref ?? null, call_ref: item.call_ref ?? null, creator: item.creator ?? null,
      queue_id: item.queue_id ?? null, runnable_ref: item.runnable_ref ?? null, trigger_ref: item.trigger_ref ?? null,
      svc_user_id: item.svc_user_id ?? null, created_at: now().toISOString(),
    }));
    if (rows.length === 0) return [];
    return this.db.transaction(async (tx) => {
      const returned = await pgRows<{ project_id: string; id: string }>(tx, INSERT_SQL, INSERT_COLUMNS.map((c) => rows.map((r) => r[c])));
      const inserted = new Set(returned.map((r) => `${r.project_id}\u0000${r.id}`));
      // A batch is one project's or several; the first item of an id inserted it, any later one is answered as stored.
      const fresh = new Set<string>();
      const res = rows.map((row, i): FeedbackCreateRes | undefined => {
        const key = `${row.project_id}\u0000${row.id}`;
        if (!inserted.has(key) || fresh.has(key)) return undefined;
        fresh.add(key);
        return { id: row.id!, created_at: row.created_at!, payload: items[i]!.payload, svc_user_id: row.svc_user_id };
      });
      const missing = rows.filter((_, i) => res[i] === undefined);
      if (missing.length === 0) return res as FeedbackCreateRes[];
      const stored = new Map<string, { created_at: string; payload: string; svc_user_id: string | null }>();
      for (const project of new Set(missing.map((r) => r.project_id!))) {
        const ids = missing.filter((r) => r.project_id === project).map((r) => r.id!);
        for (const s of await pgRows<{ id: string; created_at: string; payload: string; svc_user_id: string | null }>(tx, STORED_SQL, [project, ids])) {
          stored.set(`${project}\u0000${s.id}`, s);
        }
      }
      return rows.map((row, i) => {
        if (res[i]) return res[i];
        const old = stored.get(`${row.project_id}\u0000${row.id}`)!;
        return { id: row.id!, created_at: old.created_at, payload: JSON.parse(old.payload) as Record<string, unknown>, svc_user_id: old.svc_user_id };
      });
    });
  }

  /**
   * Every feedback record about each of the given calls of one project, for `include_feedback`; the contract of
   * the SQLite `FeedbackStore.forCalls`. One query, whatever the number of ids.
   *
   * @returns a map from call id to its records, oldest first (`created_at`, then `id`); calls without feedback are absent.
   */
  async forCalls(projectId: string, callIds: readonly string[]): Promise<Map<string, FeedbackRecord[]>> {
    if (callIds.length === 0) return new Map();
    return feedbackByCall(await pgRows<FeedbackRow>(this.db.pool, FOR_CALLS_SQL, [projectId, [...new Set(callIds)]]));
  }

  /** Deletes the feedback with the given ids in one project; the contract of the SQLite `FeedbackStore.purge`. */
  async purge(projectId: string, ids: readonly string[]): Promise<number> {
    return (await this.db.pool.query('DELETE FROM feedback WHERE project_id = $1 AND id = ANY($2::text[])', [projectId, [...ids]])).rowCount ?? 0;
  }

  /**
   * Feedback stats over `[start, end)`: the buckets of the SQLite store (same plan, `statsWindow`), computed by
   * one grouped scan in PostgreSQL (see `pgStatsScan`); window aggregations combine the buckets' as in SQLite.
   *
   * @param now - the end when `query.end` is absent.
   * @throws HttpError 422 when `start` is not before the end.
   * @see spec endpoint 6, "Feedback statistics"
   */
  async stats(query: StatsQuery, now: Date): Promise<FeedbackStatsRes> {
    const { start, end, plan } = statsWindow(query, now);
    const metrics = metricsOf(query);
    const inner = plan.edges.slice(1, -1).map((ms) => new Date(ms).toISOString());
    const scan = pgStatsScan(query, metrics, start, end, inner);
    // a long read: on the cursor pool, whose statement_timeout bounds it (answered 503 by the app)
    const rows = await pgRows<PgStatsRow>(this.db.cursorPool, scan.sql, scan.params);
    const byBucket = new Map<number, PgStatsRow>();
    let windowRow: PgStatsRow | undefined;
    for (const row of rows) {
      if (row.b === null) windowRow = row;
      else byBucket.set(row.b, row);
    }
    const partOf = (row: PgStatsRow | undefined, j: number): PartialStats =>
      row ? { count: row[`c${j}`] as number, sum: row[`s${j}`] as number | null, min: row[`lo${j}`] as number | null, max: row[`hi${j}`] as number | null } : EMPTY;
    const pcts = (row: PgStatsRow | undefined, j: number): (number | null)[] | null => (row?.[`p${j}`] as (number | null)[] | undefined) ?? null;
    const parts: PartialStats[][] = metrics.map(() => []);
    const buckets: FeedbackStatsBucket[] = [];
    for (let i = 0; i + 1 < plan.edges.length; i++) {
      const row = byBucket.get(i);
      const bucket: FeedbackStatsBucket = { timestamp: zonedIso(plan.edges[i]!, query.timezone), count: row?.n ?? 0 };
      metrics.forEach((m, j) => {
        const part = partOf(row, j);
        parts[j]!.push(part);
        for (const [name, value] of results(part, pcts(row, j), m, 'bucket')) bucket[`${name}_${m.slug}`] = value;
      });
      buckets.push(bucket);
    }
    const windowStats = Object.fromEntries(metrics.map((m, j) => [m.slug, Object.fromEntries(results(combine(parts[j]!), pcts(windowRow, j), m, 'window'))]));
    return { start, end, granularity: plan.granularity, timezone: query.timezone, buckets, window_stats: windowStats };
  }
}
