/**
 * `POST /weft/calls/overview` (a weft extension, not in the interface spec): a project's traces over a window, in
 * time buckets: how many, errors, latency p50 / p95, tokens and cost, optionally split by root op or by model.
 * @module
 */
import { z } from 'zod';
import { DateTime } from './common.js';

/** Body: the project, the window `[start, end)` (ISO 8601; `end` defaults to now, `start` to 24 h before `end`), bucket size in seconds (automatic when absent, as `/feedback/stats` chooses it), and the split. */
export const CallsOverviewReq = z.object({
  project_id: z.string().min(1),
  start: DateTime.nullish(),
  end: DateTime.nullish(),
  granularity: z.number().int().positive().nullish(),
  /** `op_name`: one series per root op; `model`: per model of the trace's usage; none: totals only. */
  group_by: z.enum(['op_name', 'model']).nullish(),
});
export type CallsOverviewReq = z.output<typeof CallsOverviewReq>;

/**
 * Figures of a set of traces. Latencies in ms (null without an ended trace), cost in USD (null when no model has a price).
 * `latency_p50_ms` / `latency_p95_ms` are read from a log-scale latency histogram (the server keeps them per hour to
 * answer large windows fast): within 0.99% (relative) of the exact percentile of the roots' latencies (linear
 * interpolation between ranks, as PostgreSQL's `percentile_cont`); exact up to 50 ms. Counts, tokens and cost are exact.
 */
export interface OverviewFigures {
  /** Traces (root calls) started in the bucket. */
  calls: number;
  /** Of those, roots whose status is `error`. */
  errors: number;
  /** Of those, roots that ended but a descendant failed (`descendant_error`). */
  descendant_errors: number;
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
  /** All input tokens (cache reads and writes included), summed over the traces' rolled-up usage. */
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
}

/** One bucket: its start (ISO 8601 UTC) and its figures. */
export type OverviewBucket = OverviewFigures & { timestamp: string };

/** One series of a split: its key (an op name or a model; `(none)` for traces without usage). */
export interface OverviewGroup {
  key: string;
  totals: OverviewFigures;
  buckets: OverviewBucket[];
}

/** Answer. `groups` (present with `group_by`) are ordered by calls, most first; at most 12, the rest merged as `(other)`. */
export interface CallsOverviewRes {
  start: string;
  end: string;
  /** Bucket size in seconds. */
  granularity: number;
  group_by: 'op_name' | 'model' | null;
  totals: OverviewFigures;
  buckets: OverviewBucket[];
  groups?: OverviewGroup[];
}
