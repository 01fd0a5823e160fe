/**
 * `POST /weft/calls/overview` (a weft extension): a project's traces over a window in time buckets, computed by the
 * server from the trace roots read through the store's `queryCalls` (both stores), costs priced as `include_costs`.
 * @module
 */
import { Hono } from 'hono';
import { CallsOverviewReq, type CallsOverviewRes } from '../../schema/calls-overview.js';
import { CallsQueryReq } from '../../schema/calls.js';
import { planBuckets } from '../feedback/stats-buckets.js';
import { HttpError } from '../http/http-error.js';
import { readJsonBody } from '../http/request-body.js';
import type { CallStoreApi } from './call-store-api.js';
import { OverviewBuilder, type OverviewRecord } from './overview.js';

/** Path of the route, outside the spec's paths. */
export const OVERVIEW_PATH = '/weft/calls/overview';

const PAGE = 2000;
const DAY_MS = 86_400_000;

/**
 * Builds the route. Body {@link CallsOverviewReq}; answer {@link CallsOverviewRes}. Reads every root started in
 * `[start, end)` (a page at a time, yielding to other requests between pages); 422 when `start` is not before `end`.
 *
 * @param calls - the call store.
 * @param now - the server clock (the default `end`).
 */
export function overviewRoute(calls: CallStoreApi, now: () => Date): Hono {
  const app = new Hono();
  app.post(OVERVIEW_PATH, async (c) => {
    const body = await readJsonBody(c, CallsOverviewReq);
    const endMs = body.end ? Date.parse(body.end) : now().getTime();
    const startMs = body.start ? Date.parse(body.start) : endMs - DAY_MS;
    if (!(startMs < endMs)) throw HttpError.validation([{ loc: ['body', 'start'], msg: 'start must be before end', type: 'value_error' }]);
    const plan = planBuckets(startMs, endMs, body.granularity ?? undefined, 'UTC');
    const builder = new OverviewBuilder(plan.edges, body.group_by ?? null);
    const iso = (ms: number): string => new Date(ms).toISOString();
    const cursor = await calls.queryCalls(CallsQueryReq.parse({
      project_id: body.project_id,
      filter: { trace_roots_only: true },
      query: { $expr: { $and: [
        { $gte: [{ $getField: 'started_at' }, { $literal: iso(startMs) }] },
        { $lt: [{ $getField: 'started_at' }, { $literal: iso(endMs) }] },
      ] } },
      columns: ['id', 'op_name', 'started_at', 'summary'],
      include_costs: true,
    }), c.req.raw.signal);
    try {
      for (let page = await cursor.next(PAGE); page.length > 0; page = await cursor.next(PAGE)) {
        for (const r of page) builder.add(r as unknown as OverviewRecord);
        if (page.length < PAGE) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      await cursor.close();
    }
    const res: CallsOverviewRes = { start: iso(startMs), end: iso(endMs), granularity: plan.granularity, group_by: body.group_by ?? null, ...builder.result() };
    return c.json(res);
  });
  return app;
}
