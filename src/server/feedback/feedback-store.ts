/**
 * Feedback of one database (spec endpoints 2 and 6): batch inserts (ids and created_at filled in), stats, and
 * per-call lookups for `include_feedback`. The only code that runs SQL on `feedback`.
 * @module
 */
import type Database from 'better-sqlite3';
import { newId } from '../../internal/ids.js';
import type { z } from 'zod';
import { parseRef } from '../../schema/refs.js';
import { type FeedbackCreateReq, type FeedbackCreateRes, type FeedbackRecord, type FeedbackStatsRes } from '../../schema/feedback.js';
import { type StatementCache, statementCache } from '../db/statement-cache.js';
import { feedbackStats, type StatsQuery } from './stats-query.js';

export type { FeedbackRecord };

/** A validated batch item (zod output of `FeedbackCreateReq`). */
export type FeedbackInput = z.output<typeof FeedbackCreateReq>;

const RECORD_COLUMNS = `id, project_id, feedback_type, svc_ref, json(payload) AS payload, annotation_ref, call_ref, creator, queue_id,
  runnable_ref, trigger_ref, svc_user_id, created_at`;

const INSERT_SQL = `INSERT INTO feedback (project_id, id, feedback_type, svc_ref, call_id, payload, annotation_ref,
    call_ref, creator, queue_id, runnable_ref, trigger_ref, svc_user_id, created_at)
  VALUES (@project_id, @id, @feedback_type, @svc_ref, @call_id, jsonb(@payload), @annotation_ref,
    @call_ref, @creator, @queue_id, @runnable_ref, @trigger_ref, @svc_user_id, @created_at)
  ON CONFLICT (project_id, id) DO NOTHING`;

const STORED_SQL = 'SELECT created_at, json(payload) AS payload, svc_user_id FROM feedback WHERE project_id = ? AND id = ?';

const FOR_CALLS_SQL = `SELECT call_id, ${RECORD_COLUMNS} FROM feedback
  WHERE project_id = ? AND call_id IN (SELECT value FROM json_each(?))
  ORDER BY created_at, id`;

const PURGE_SQL = 'DELETE FROM feedback WHERE project_id = ? AND id IN (SELECT value FROM json_each(?))';

/** A stored feedback row read for `include_feedback`: its columns, the call it is about, the payload as JSON text. */
export type FeedbackRow = Record<string, unknown> & { call_id: string; payload: string };

/** Groups feedback rows (already in their order) by call id, each payload parsed; shared by both stores. */
export function feedbackByCall(rows: Iterable<FeedbackRow>): Map<string, FeedbackRecord[]> {
  const out = new Map<string, FeedbackRecord[]>();
  for (const { call_id, ...row } of rows) {
    const record = { ...row, payload: JSON.parse(row.payload) as Record<string, unknown> } as FeedbackRecord;
    const list = out.get(call_id);
    if (list) list.push(record);
    else out.set(call_id, [record]);
  }
  return out;
}

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

/** Feedback of every project in one SQLite database (the `feedback` table of migration 2, payload as JSONB). */
export class FeedbackStore {
  private readonly statements: StatementCache;

  /** @param db - a read-write connection with the `create_feedback` migration applied. */
  constructor(private readonly db: Database.Database) {
    this.statements = statementCache(db);
  }

  /**
   * Stores a batch of feedback in one transaction. Each item gets a UUIDv7 `id` when it has none and
   * `created_at` from `now()` (ISO 8601 UTC, ms). Repeating an `id` already stored in the project never
   * duplicates it: the stored record is kept and answered.
   *
   * @param items - validated `FeedbackCreateReq` items.
   * @param now - the clock; called once per item. @defaultValue `() => new Date()`
   * @returns one `{id, created_at, payload, svc_user_id}` per item, in the order of `items`.
   * @throws the SQLite error of a failing write; nothing of the batch is stored then.
   * @see spec endpoint 2, "Create feedback in batch"
   */
  createBatch(items: readonly FeedbackInput[], now: () => Date = () => new Date()): FeedbackCreateRes[] {
    const insert = this.statements.prepare(INSERT_SQL);
    const stored = this.statements.prepare(STORED_SQL);
    return this.db.transaction(() =>
      items.map((item) => {
        const id = item.id ?? newId();
        const row = {
          project_id: item.project_id, id, feedback_type: item.feedback_type, svc_ref: item.svc_ref,
          call_id: targetCallId(item), payload: JSON.stringify(item.payload),
          annotation_ref: item.annotation_ref ?? null, call_ref: item.call_ref ?? null, creator: item.creator ?? null,
          queue_id: item.queue_id ?? null, runnable_ref: item.runnable_ref ?? null, trigger_ref: item.trigger_ref ?? null,
          svc_user_id: item.svc_user_id ?? null, created_at: now().toISOString(),
        };
        if (insert.run(row).changes === 1) {
          return { id, created_at: row.created_at, payload: item.payload, svc_user_id: row.svc_user_id };
        }
        const old = stored.get(item.project_id, id) as { created_at: string; payload: string; svc_user_id: string | null };
        return { id, created_at: old.created_at, payload: JSON.parse(old.payload) as Record<string, unknown>, svc_user_id: old.svc_user_id };
      }),
    )();
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
  forCalls(projectId: string, callIds: readonly string[]): Map<string, FeedbackRecord[]> {
    if (callIds.length === 0) return new Map();
    return feedbackByCall(this.statements.prepare(FOR_CALLS_SQL).all(projectId, JSON.stringify(callIds)) as FeedbackRow[]);
  }

  /**
   * Deletes the feedback with the given ids in one project (`POST /feedback/purge`); ids not stored are skipped.
   * @returns how many records were deleted.
   */
  purge(projectId: string, ids: readonly string[]): number {
    return this.statements.prepare(PURGE_SQL).run(projectId, JSON.stringify(ids)).changes;
  }

  /**
   * Feedback stats over `[start, end)` of a validated request; see `feedbackStats`.
   * @param now - the end when `query.end` is absent.
   * @throws HttpError 422 when `end` is absent and `start` is not before `now`.
   * @see spec endpoint 6, "Feedback statistics"
   */
  stats(query: StatsQuery, now: Date): FeedbackStatsRes {
    return feedbackStats(this.db, query, now);
  }
}
