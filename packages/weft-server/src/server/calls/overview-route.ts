/**
 * `POST /weft/calls/overview` (a weft extension): a project's traces over a window in time buckets, counted by the
 * store's SQL (both stores, overview-sql.ts) and priced as `include_costs` prices (overview.ts).
 * @module
 */
import { Hono } from 'hono';
import { CallsOverviewReq, type CallsOverviewRes, OVERVIEW_HEADERS } from 'weft-trace/wire';
import { planBuckets } from '../stats/stats-buckets.js';
import { HttpError } from '../http/http-error.js';
import { postJson } from '../http/request-body.js';
import type { CallStore } from './call-store.js';
import { callTurns } from './call-turns.js';

/** Path of the route, outside the spec's paths. */
export const OVERVIEW_PATH = '/weft/calls/overview';

const DAY_MS = 86_400_000;

/**
 * The response header saying where the answer came from (a weft extension, as feedback stats' `x-weft-stats-source`):
 * `rollups` (stored hour rollups), `rows` (roots counted live) or both joined by `+`, then `+pending` when stale hours
 * were left out while the rollup job catches up (their roots are in no figure; overview/overview-live-bound.ts).
 * Written once in the SDK's `OVERVIEW_HEADERS`, which the viewer reads too.
 */
export const OVERVIEW_SOURCE_HEADER = OVERVIEW_HEADERS.source;

/** With `+pending`: how many stale hours of the window were left out. */
export const OVERVIEW_PENDING_HEADER = OVERVIEW_HEADERS.pendingHours;

/**
 * Builds the route. Body {@link CallsOverviewReq}; answer {@link CallsOverviewRes}: the roots started in `[start, end)`
 * (but those of the stale hours left out while the rollup job catches up: {@link OVERVIEW_SOURCE_HEADER}); 422 when
 * `start` is not before `end`.
 *
 * @param calls - the call store.
 * @param now - the server clock (the default `end`).
 */
export function overviewRoute(calls: CallStore, now: () => Date): Hono {
  const app = new Hono();
  const turns = callTurns(calls);
  postJson(app, OVERVIEW_PATH, CallsOverviewReq, async (body, c): Promise<CallsOverviewRes> => {
    const endMs = body.end ? Date.parse(body.end) : now().getTime();
    const startMs = body.start ? Date.parse(body.start) : endMs - DAY_MS;
    if (!(startMs < endMs)) throw HttpError.validation([{ loc: ['body', 'start'], msg: 'start must be before end', type: 'value_error' }]);
    const plan = planBuckets(startMs, endMs, body.granularity ?? undefined, 'UTC');
    const groupBy = body.group_by ?? null;
    // on SQLite an hour of live roots per turn: writes and other requests wait behind no more
    const { result, source } = await calls.overviewInTurns({ projectId: body.project_id, startMs, endMs, edges: plan.edges, groupBy }, (job) => turns.run(job));
    const from = [source.rollupHours > 0 ? 'rollups' : '', source.liveRanges > 0 || source.rollupHours === 0 ? 'rows' : '', source.pendingHours > 0 ? 'pending' : ''];
    c.header(OVERVIEW_SOURCE_HEADER, from.filter(Boolean).join('+'));
    if (source.pendingHours > 0) c.header(OVERVIEW_PENDING_HEADER, String(source.pendingHours));
    const iso = (ms: number): string => new Date(ms).toISOString();
    return { start: iso(startMs), end: iso(endMs), granularity: plan.granularity, group_by: groupBy, ...result };
  });
  return app;
}
