/**
 * `POST /weft/calls/overview` (a weft extension): a project's traces over a window in time buckets, counted by the
 * store's SQL (both stores, overview-sql.ts) and priced as `include_costs` prices (overview.ts).
 * @module
 */
import { Hono } from 'hono';
import { CallsOverviewReq, type CallsOverviewRes } from 'weft-trace/wire';
import { planBuckets } from '../stats/stats-buckets.js';
import { HttpError } from '../http/http-error.js';
import { postJson } from '../http/request-body.js';
import type { CallStore } from './call-store.js';

/** Path of the route, outside the spec's paths. */
export const OVERVIEW_PATH = '/weft/calls/overview';

const DAY_MS = 86_400_000;

/**
 * Builds the route. Body {@link CallsOverviewReq}; answer {@link CallsOverviewRes}: the roots started in `[start, end)`;
 * 422 when `start` is not before `end`.
 *
 * @param calls - the call store.
 * @param now - the server clock (the default `end`).
 */
export function overviewRoute(calls: CallStore, now: () => Date): Hono {
  const app = new Hono();
  postJson(app, OVERVIEW_PATH, CallsOverviewReq, async (body): Promise<CallsOverviewRes> => {
    const endMs = body.end ? Date.parse(body.end) : now().getTime();
    const startMs = body.start ? Date.parse(body.start) : endMs - DAY_MS;
    if (!(startMs < endMs)) throw HttpError.validation([{ loc: ['body', 'start'], msg: 'start must be before end', type: 'value_error' }]);
    const plan = planBuckets(startMs, endMs, body.granularity ?? undefined, 'UTC');
    const groupBy = body.group_by ?? null;
    const result = await calls.overview({ projectId: body.project_id, startMs, endMs, edges: plan.edges, groupBy });
    const iso = (ms: number): string => new Date(ms).toISOString();
    return { start: iso(startMs), end: iso(endMs), granularity: plan.granularity, group_by: groupBy, ...result };
  });
  return app;
}
