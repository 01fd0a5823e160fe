/**
 * Feedback of one database (spec endpoints 2 and 6): batch inserts (ids and created_at filled in), stats, and
 * per-call lookups for `include_feedback`. The only code that runs SQL on `feedback`, for both engines (payload as
 * SQLite JSONB or PostgreSQL `json`; the stats scans are each engine's SQL leaf, see stats-query.ts).
 * @module
 */
import { newId } from 'weft-trace/wire';
import type { z } from 'zod';
import { parseRef } from 'weft-trace/wire';
import { type FeedbackCreateReq, type FeedbackCreateRes, type FeedbackRecord, type FeedbackStatsRes } from 'weft-trace/wire';
import type { Dialect } from '../db/dialect.js';
import type { Out, SqlRunner, Wait } from '../db/sql-runner.js';
import { all, insert, type Steps } from '../db/sql-steps.js';
import { deleteFeedback, markFeedbackHours } from './feedback-rollup-marks.js';
import { type HourCursor, type HourRow, hourRows, markGen, type StaleFeedbackHour, staleFeedbackHours, storeHour } from './feedback-rollup-refresh.js';
import type { RollupCell } from './rollup-fold.js';
import { feedbackStats, type StatsAnswer, type StatsQuery } from './stats-query.js';

export type { FeedbackRecord };

/** A validated batch item (zod output of `FeedbackCreateReq`). */
export type FeedbackInput = z.output<typeof FeedbackCreateReq>;

/** The payload as JSON text: SQLite keeps it as JSONB, PostgreSQL as `json`. */
const PAYLOAD = { sqlite: 'json(payload)', postgres: 'payload::text' } as const;

const recordColumns = (d: Dialect): string => `id, project_id, feedback_type, svc_ref, ${PAYLOAD[d.engine]} AS payload, annotation_ref, call_ref,
  creator, queue_id, runnable_ref, trigger_ref, svc_user_id, created_at`;

/** The inserted columns, in the order of a row's values. */
const INSERT_COLUMNS = {
  project_id: 'text', id: 'text', feedback_type: 'text', svc_ref: 'text', call_id: 'text', payload: 'jsonb', annotation_ref: 'text',
  call_ref: 'text', creator: 'text', queue_id: 'text', runnable_ref: 'text', trigger_ref: 'text', svc_user_id: 'text', created_at: 'text',
} as const;

/** A stored feedback row read for `include_feedback`: its columns, the call it is about, the payload as JSON text. */
type FeedbackRow = Record<string, unknown> & { call_id: string; payload: string };

/** What a batch answers of a record stored before (its payload as JSON text). */
type StoredRow = { project_id: string; id: string; created_at: string; payload: string; svc_user_id: string | null };

/**
 * The call a feedback item is about: the id in `svc_ref` when that is a call ref, else the id in `call_ref`,
 * else null. Refs of another project never match (validation refuses them anyway).
 */
export function targetCallId(item: Pick<FeedbackInput, 'project_id' | 'svc_ref' | 'call_ref'>): string | null {
  for (const ref of [item.svc_ref, item.call_ref]) {
    const parsed = ref ? parseRef(ref) : undefined;
    if (parsed?.kind === 'call' && parsed.project === item.project_id) return parsed.rest;
  }
  return null;
}

const keyOf = (projectId: string, id: string): string => `${projectId}\u0000${id}`;

/** Stores a batch (see {@link FeedbackStore.createBatch}): one bulk insert, then the records stored before read back. */
function* createBatch(d: Dialect, items: readonly FeedbackInput[], now: () => Date): Steps<FeedbackCreateRes[]> {
  const rows = items.map((item): Record<keyof typeof INSERT_COLUMNS, string | null> => ({
    project_id: item.project_id, id: item.id ?? newId(), feedback_type: item.feedback_type, svc_ref: item.svc_ref, call_id: targetCallId(item),
    payload: d.json(item.payload), annotation_ref: item.annotation_ref ?? null, call_ref: item.call_ref ?? null, creator: item.creator ?? null,
    queue_id: item.queue_id ?? null, runnable_ref: item.runnable_ref ?? null, trigger_ref: item.trigger_ref ?? null,
    svc_user_id: item.svc_user_id ?? null, created_at: now().toISOString(),
  }));
  const inserted = yield* insert<{ project_id: string; id: string }>({
    table: 'feedback', columns: INSERT_COLUMNS, rows: rows.map((r) => Object.keys(INSERT_COLUMNS).map((c) => r[c as keyof typeof INSERT_COLUMNS])),
    tail: 'ON CONFLICT (project_id, id) DO NOTHING', returning: 'project_id, id',
  });
  // The first item of an inserted id stored it; any later one of the batch, and an id stored before, is answered as stored.
  const fresh = new Set(inserted.map((r) => keyOf(r.project_id, r.id)));
  // the hours of the rows added go stale (a re-sent id adds none); the rollup job recomputes them
  yield* markFeedbackHours(d, rows.filter((r) => fresh.has(keyOf(r.project_id!, r.id!))) as { project_id: string; created_at: string }[]);
  const isFresh = rows.map((r) => fresh.delete(keyOf(r.project_id!, r.id!)));
  const stored = new Map<string, StoredRow>();
  const old = rows.filter((_, i) => !isFresh[i]);
  for (const project of new Set(old.map((r) => r.project_id!))) {
    const found = yield* all<StoredRow>(`SELECT project_id, id, created_at, ${PAYLOAD[d.engine]} AS payload, svc_user_id FROM feedback
      WHERE project_id = ? AND ${d.inList('id')}`, [project, d.list(old.filter((r) => r.project_id === project).map((r) => r.id!))]);
    for (const s of found) stored.set(keyOf(s.project_id, s.id), s);
  }
  return rows.map((r, i) => {
    if (isFresh[i]) return { id: r.id!, created_at: r.created_at!, payload: items[i]!.payload, svc_user_id: r.svc_user_id };
    const s = stored.get(keyOf(r.project_id!, r.id!))!;
    return { id: r.id!, created_at: s.created_at, payload: JSON.parse(s.payload) as Record<string, unknown>, svc_user_id: s.svc_user_id };
  });
}

/** Feedback about each of some calls (see {@link FeedbackStore.forCalls}). */
function* forCalls(d: Dialect, projectId: string, callIds: readonly string[]): Steps<Map<string, FeedbackRecord[]>> {
  const out = new Map<string, FeedbackRecord[]>();
  if (callIds.length === 0) return out;
  const rows = yield* all<FeedbackRow>(`SELECT call_id, ${recordColumns(d)} FROM feedback
    WHERE project_id = ? AND ${d.inList('call_id')} ORDER BY created_at, id`, [projectId, d.list([...new Set(callIds)])]);
  for (const { call_id, ...row } of rows) {
    const record = { ...row, payload: JSON.parse(row.payload) as Record<string, unknown> } as FeedbackRecord;
    const list = out.get(call_id);
    if (list) list.push(record);
    else out.set(call_id, [record]);
  }
  return out;
}

/** Feedback given through a queue, or carrying a trigger after a cursor (see {@link FeedbackStore.forQueue}, {@link FeedbackStore.afterCursor}). */
function* byColumn(d: Dialect, projectId: string, column: 'queue_id' | 'trigger_ref', value: string, after: HourCursor | null, limit: number | null): Steps<(FeedbackRecord & { call_id: string | null })[]> {
  const cursor = after ? ' AND (created_at > ? OR (created_at = ? AND id > ?))' : '';
  const rows = yield* all<FeedbackRow>(`SELECT call_id, ${recordColumns(d)} FROM feedback WHERE project_id = ? AND ${column} = ?${cursor}
    ORDER BY created_at, id LIMIT ?`, [projectId, value, ...(after ? [after.created_at, after.created_at, after.id] : []), limit ?? d.noLimit]);
  return rows.map((row) => ({ ...row, payload: JSON.parse(row.payload) as Record<string, unknown> }) as FeedbackRecord & { call_id: string | null });
}

/** Deletes feedback by id (see {@link FeedbackStore.purge}). */
function* purge(d: Dialect, projectId: string, ids: readonly string[]): Steps<number> {
  return yield* deleteFeedback(d, projectId, 'id', ids);
}

/** Feedback of every project in one database (SQLite: the `feedback` table of migration 2; PostgreSQL's, with `seq` in insert order). */
export class FeedbackStore<W extends Wait = Wait> {
  /** @param db - the engine's runner over a migrated database. */
  constructor(private readonly db: SqlRunner<W>) {}

  /**
   * Stores a batch of feedback in one transaction. Each item gets a UUIDv7 `id` when it has none and
   * `created_at` from `now()` (ISO 8601 UTC, ms). Repeating an `id` already stored in the project never
   * duplicates it: the stored record is kept and answered (on PostgreSQL also one stored by another server).
   *
   * @param items - validated `FeedbackCreateReq` items.
   * @param now - the clock; called once per item, in order. @defaultValue `() => new Date()`
   * @returns one `{id, created_at, payload, svc_user_id}` per item, in the order of `items`.
   * @throws the engine's error of a failing write; nothing of the batch is stored then.
   * @see spec endpoint 2, "Create feedback in batch"
   */
  createBatch(items: readonly FeedbackInput[], now: () => Date = () => new Date()): Out<W, FeedbackCreateRes[]> {
    return this.db.transaction(createBatch, items, now);
  }

  /**
   * Every feedback record about each of the given calls of one project, for `include_feedback`. A feedback
   * is about call `<id>` when its `svc_ref` (or else its `call_ref`) is `svc:///<project_id>/call/<id>`.
   * One query, whatever the number of ids.
   *
   * @param projectId - `<entity>/<project>` of the calls.
   * @param callIds - the call ids (duplicates are fine).
   * @returns a map from call id to its records, oldest first (`created_at`, then `id`); calls without
   *   feedback are absent from the map.
   */
  forCalls(projectId: string, callIds: readonly string[]): Out<W, Map<string, FeedbackRecord[]>> {
    return this.db.run(forCalls, projectId, callIds);
  }

  /**
   * Deletes the feedback with the given ids in one project (`POST /feedback/purge`); ids not stored are skipped.
   * @returns how many records were deleted.
   */
  purge(projectId: string, ids: readonly string[]): Out<W, number> {
    return this.db.run(purge, projectId, ids);
  }

  /** The feedback given through review queue `queueId` (its `queue_id`), oldest first, each with the call it is about. */
  forQueue(projectId: string, queueId: string): Out<W, (FeedbackRecord & { call_id: string | null })[]> {
    return this.db.run(byColumn, projectId, 'queue_id', queueId, null, null);
  }

  /** At most `limit` records with `trigger_ref` after `after` (`created_at`, then `id`), oldest first, each with its call. */
  afterCursor(projectId: string, triggerRef: string, after: HourCursor | null, limit: number): Out<W, (FeedbackRecord & { call_id: string | null })[]> {
    return this.db.run(byColumn, projectId, 'trigger_ref', triggerRef, after, limit);
  }

  /** The oldest stale feedback rollup hours before `beforeHour` (`YYYY-MM-DDTHH`), at most `limit` (feedback-rollup-refresh.ts). */
  staleRollupHours(beforeHour: string, limit: number): Out<W, StaleFeedbackHour[]> {
    return this.db.run(staleFeedbackHours, beforeHour, limit);
  }

  /** The `gen` of a feedback rollup hour's mark, or undefined when it is not marked (feedback-rollup-marks.ts). */
  rollupMarkGen(projectId: string, hour: string): Out<W, number | undefined> {
    return this.db.run(markGen, projectId, hour);
  }

  /** The next `limit` rows of an hour after `after` (`created_at`, `id` order), for its rollup. */
  rollupHourRows(projectId: string, hour: string, after: HourCursor | null, limit: number): Out<W, HourRow[]> {
    return this.db.run(hourRows, projectId, hour, after, limit);
  }

  /** Stores an hour's rollup and clears its mark, in one transaction, if its mark's `gen` is still `gen`. @returns whether it did. */
  storeRollupHour(projectId: string, hour: string, gen: number, cells: readonly RollupCell[]): Out<W, boolean> {
    return this.db.transaction(storeHour, projectId, hour, gen, cells);
  }

  /**
   * Feedback stats over `[start, end)` of a validated request, and where they came from; see `feedbackStats`. On PostgreSQL a long read, on
   * the long-read pool (its `statement_timeout` bounds it; answered 503 by the app).
   * @param now - the end when `query.end` is absent.
   * @throws HttpError 422 when `end` is absent and `start` is not before `now`.
   * @see spec endpoint 6, "Feedback statistics"
   */
  stats(query: StatsQuery, now: Date, useRollups = true): Out<W, StatsAnswer> {
    return this.db.longRead(feedbackStats, query, now, useRollups);
  }
}
