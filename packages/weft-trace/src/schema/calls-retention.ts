/**
 * `POST /weft/calls/delete_before` (a weft extension, not in the interface spec): deletes a project's traces started
 * before a cutoff, in small batches, with their feedback (retention; `weft calls delete --before`).
 * @module
 */
import { z } from 'zod';
import { DateTime } from './common.js';

/** Path of the route, outside the spec's paths. */
export const CALLS_DELETE_BEFORE_PATH = '/weft/calls/delete_before';

/** Calls deleted per transaction when the request names no `batch_size`. */
export const DEFAULT_DELETE_BATCH = 2_000;

/** Largest `batch_size` accepted: a transaction stays short (SQLite holds one writer; PostgreSQL holds row locks). */
export const MAX_DELETE_BATCH = 50_000;

/**
 * Body: the project, the cutoff `before` (ISO 8601 with an offset; not later than the server's clock) and the calls
 * per transaction (`batch_size`, 1 to {@link MAX_DELETE_BATCH}, default {@link DEFAULT_DELETE_BATCH}).
 */
export const CallsDeleteBeforeReq = z.object({
  project_id: z.string().min(1),
  before: DateTime,
  batch_size: z.number().int().min(1).max(MAX_DELETE_BATCH).nullish(),
});
export type CallsDeleteBeforeReq = z.output<typeof CallsDeleteBeforeReq>;

/**
 * Answer: what was deleted, the cutoff as stored timestamps compare (UTC, milliseconds), and how many transactions.
 * `deleted_files`: the media files the deleted calls referred to that no remaining call refers to (absent from servers
 * before issue 51).
 */
export const CallsDeleteBeforeRes = z.object({
  before: z.string(),
  deleted_calls: z.number().int(),
  deleted_feedback: z.number().int(),
  deleted_files: z.number().int().optional(),
  batches: z.number().int(),
});
export type CallsDeleteBeforeRes = z.output<typeof CallsDeleteBeforeRes>;
