/**
 * The request limits of the interface as weft serves it: nesting depth, list lengths and issues reported.
 * @module
 */

/**
 * Every documented maximum, in one place. A request past one gets 422 with `{detail: [{loc, msg, type}]}`
 * naming the list (or the too-deep value); none of them is near what the SDK sends by default.
 */
export const LIMITS = {
  /**
   * Objects and arrays a request body may nest, counting the body itself: a call's inputs, output,
   * attributes or summary, a feedback payload, trajectory messages, a table row or a `$expr` deeper than
   * this gets 422 (`type: "json_too_deep"`). The SDK's serializer stops at depth 12 by default (`maxDepth`).
   */
  maxJsonDepth: 128,
  /** Items of one `/call/upsert_batch` or `/feedback/batch/create` body (the SDK sends 500 by default). */
  maxBatchItems: 10_000,
  /** Trajectory groups of one trajectory log or training job body, and trajectories in one group. */
  maxTrajectoryGroups: 10_000,
  /**
   * Rows of one `/table/create` body (a local extension). Past it the server answers 413 `{detail}` at once, before
   * any row is digested or stored, so a create's time and memory stay bounded (the 32 MiB body limit alone lets
   * through 16 million one-byte rows). A create of this many rows costs about what the stores' raw inserts of them
   * cost (bench/table-create.bench.ts); a million rows would be about 300 MB of SQLite b-tree pages written in one
   * transaction, tens of seconds on the bench machine. Unlike the others, this limit answers 413, not 422.
   */
  maxTableRows: 100_000,
  /** `sort_by` entries of `/calls/stream_query` and `/table/query`. */
  maxSortBy: 32,
  /** `columns` and `expand_columns` entries of `/calls/stream_query`. */
  maxColumns: 256,
  /** Terms of one `$and` or `$or` in a `$expr`. */
  maxExprTerms: 100,
  /** Values of one `$in` list in a `$expr`. */
  maxInValues: 1_000,
  /** Operands (literals, fields, operations) in a whole `$expr`, so its parameters stay well under SQLite's. */
  maxExprOperands: 5_000,
  /** `metrics` of one `/feedback/stats` body. */
  maxMetrics: 64,
  /** `percentiles` of one metric (and `aggregations`, which has 7 names). */
  maxPercentiles: 16,
  /** Validation problems listed in a 422 body; one more item then says how many were left out. */
  maxIssues: 100,
  /**
   * Request bodies up to this many bytes are checked whole (every problem found, `maxIssues` listed);
   * larger ones only up to their first problem, so refusing a big body costs no more than accepting it.
   */
  fullReportBytes: 128 * 1024,
} as const;

/** The message of a list past its maximum. */
export function tooMany(what: string, max: number): { message: string } {
  return { message: `at most ${max} ${what} are accepted` };
}
