/**
 * Every endpoint path of the interface, written once for the client, the exporter and the server.
 * @module
 * @see the interface spec, section "Endpoints"
 */

/**
 * The paths, as the spec writes them. A path parameter is written `:name` (Hono's syntax, which the
 * server routes with directly); the client fills it with `fillPath` (percent-encoded).
 */
export const ENDPOINTS = {
  /** Spec endpoint 7: start a call. */
  callStart: '/call/start',
  /** Spec endpoint 5: start (and end) calls in batch. */
  callUpsertBatch: '/call/upsert_batch',
  /** Spec endpoint 3: stream-query calls (JSONL, or a JSON array). */
  callsStreamQuery: '/calls/stream_query',
  /** Spec endpoint 2: create feedback in batch. */
  feedbackBatchCreate: '/feedback/batch/create',
  /** Spec endpoint 6: feedback statistics. */
  feedbackStats: '/feedback/stats',
  /** Spec endpoint 8: query a table. */
  tableQuery: '/table/query',
  /** Extension of the local server: the spec has no way to create a table. */
  tableCreate: '/table/create',
  /** Spec endpoint 1: log trajectories of a model (preview, Bearer auth). */
  trajectoryLog: '/v1/preview/models/:model_id/log',
  /** Spec endpoint 4: create a training job (preview, Bearer auth). */
  trainingJobCreate: '/v1/preview/training-jobs',
  /** Extension: read a training job back (`{id}`). */
  trainingJobRead: '/v1/preview/training-jobs/read',
  /** Extension: a model's training jobs (`{model_id}`). */
  trainingJobQuery: '/v1/preview/training-jobs/query',
  /** Extension: a model's stored trajectory groups (`{split?}`). */
  trajectoryQuery: '/v1/preview/models/:model_id/trajectories/query',
  /** Extension: the models that have trajectories (`{}`). */
  trajectoryModels: '/v1/preview/models/query',
} as const;

/** Paths under this prefix take `Authorization: Bearer <key>`; every other path takes Basic `api:<key>`. */
export const PREVIEW_PREFIX = '/v1/preview/';

/**
 * `GET` path of `weft serve`'s list of the projects holding calls (`{projects: string[]}`, sorted): a weft
 * extension outside the spec, read by the trace viewer and the CLI's "did you mean" hint.
 */
export const WEFT_PROJECTS_PATH = '/weft/projects';

/**
 * Response headers of `weft serve`'s `POST /weft/calls/overview` (a weft extension, docs/scale.md): where the answer
 * came from, and how many of the window's hours it left out while the server's rollup job catches up (after a bulk
 * import, an upgrade or a restart). Read by the trace viewer, which says so and asks again.
 */
export const OVERVIEW_HEADERS = {
  /**
   * `x-weft-overview-source`: `rollups` (stored hour rollups), `rows` (roots counted live) or both joined by `+`, then
   * `+pending` when stale hours were left out (their roots are in no figure yet).
   */
  source: 'x-weft-overview-source',
  /** `x-weft-overview-pending-hours`: with `+pending`, how many stale hours (a decimal integer) were left out. */
  pendingHours: 'x-weft-overview-pending-hours',
} as const;
