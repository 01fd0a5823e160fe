/**
 * The overview's read: `POST /weft/calls/overview` (a weft extension; shapes in src/schema/calls-overview.ts) for a
 * window back from now with how many hours its answer left out while the server's rollup job catches up, and the
 * window and split choices the page offers (kept in the URL).
 * @module
 */
import { type CallsOverviewRes, OVERVIEW_HEADERS } from 'weft-trace/viewer';
import { request } from '../api';

/** The answer of `/weft/calls/overview` (its type is the server's, `src/schema/calls-overview.ts`). */
export type Overview = CallsOverviewRes;
export type { OverviewBucket, OverviewFigures } from 'weft-trace/viewer';

/** Window names → hours back from now, and the bucket size (s) asked for: about 50 buckets each. */
export const WINDOWS: Record<string, { hours: number; granularity: number }> = {
  '1h': { hours: 1, granularity: 60 },
  '24h': { hours: 24, granularity: 1800 },
  '7d': { hours: 168, granularity: 3 * 3600 },
  '30d': { hours: 720, granularity: 12 * 3600 },
};
export const SPLITS = ['', 'op_name', 'model'] as const;
export type Split = (typeof SPLITS)[number];

/** An overview and what the route's headers say of it. */
export interface OverviewAnswer {
  overview: Overview;
  /**
   * `x-weft-overview-pending-hours`: how many hours of the window were left out of every figure while the server's
   * rollup job catches up (after a bulk import, an upgrade or a restart); 0 when none. The figures are then low until
   * the job has done those hours: ask again.
   */
  pendingHours: number;
}

/**
 * Reads the overview of the last `window` (a key of {@link WINDOWS}) with `split`, ending at `now` (epoch ms);
 * `signal` aborts it.
 * @throws NeedsKeyError on 401, Error with the status and the server's detail on another failure.
 */
export async function loadOverview(project: string, window: string, split: Split, now = Date.now(), signal?: AbortSignal): Promise<OverviewAnswer> {
  const { hours, granularity } = WINDOWS[window] ?? WINDOWS['24h']!;
  const res = await request('/weft/calls/overview', {
    project_id: project,
    start: new Date(now - hours * 3_600_000).toISOString(),
    end: new Date(now).toISOString(),
    granularity,
    ...(split ? { group_by: split } : {}),
  }, signal);
  const pending = Number(res.headers.get(OVERVIEW_HEADERS.pendingHours) ?? 0);
  return {
    overview: (await res.json()) as Overview,
    pendingHours: Number.isInteger(pending) && pending > 0 ? pending : 0,
  };
}
