/**
 * The traces list's filters, turned into a `/calls/stream_query` body: roots only, newest first, one page (from a
 * keyset cursor).
 * @module
 */
import type { StreamQuery } from './api.js';

export interface TraceFilters {
  op: string;
  status: string;
  /** Minutes back from now; 0 means any time. */
  sinceMinutes: number;
  threadId: string;
  runId: string;
  text: string;
}

export const NO_FILTERS: TraceFilters = { op: '', status: '', sinceMinutes: 0, threadId: '', runId: '', text: '' };

/** What a list row draws (status, name, input and output previews, model, times, tokens, cost): no attributes. */
export const LIST_COLUMNS = ['id', 'trace_id', 'op_name', 'display_name', 'started_at', 'ended_at', 'inputs', 'output', 'exception', 'summary'];

const field = (f: string) => ({ $getField: f });
const lit = (v: unknown) => ({ $literal: v });

/**
 * Where the next page starts (a keyset cursor): roots started at or before `startedAt`, the first `skip` of those
 * skipped (the rows already read that started at that very time: the order is `started_at` desc, then `id` asc).
 * The server reads it from the `started_at` index, where an `offset` walks every row it skips (offset 500,000 of
 * 1,000,000 roots: seconds).
 */
export interface PageCursor {
  startedAt: string;
  skip: number;
}

/** The cursor after `rows` (the list as read, newest first), or undefined for the first page. */
export function cursorAfter(rows: readonly { started_at: string }[]): PageCursor | undefined {
  const last = rows[rows.length - 1];
  if (!last) return undefined;
  let skip = 0;
  for (let i = rows.length - 1; i >= 0 && rows[i]!.started_at === last.started_at; i -= 1) skip += 1;
  return { startedAt: last.started_at, skip };
}

/** The stream-query body of one page of roots: `limit` rows from `after` (the first page without). */
export function tracesQuery(project: string, f: TraceFilters, limit: number, after?: PageCursor, now = Date.now()): StreamQuery {
  const terms: unknown[] = [];
  if (after) terms.push({ $lte: [field('started_at'), lit(after.startedAt)] });
  if (f.op.trim()) terms.push({ $contains: { input: field('op_name'), substr: lit(f.op.trim()), case_insensitive: true } });
  if (f.status) terms.push({ $eq: [field('summary.status'), lit(f.status)] });
  if (f.sinceMinutes > 0) terms.push({ $gte: [field('started_at'), lit(new Date(now - f.sinceMinutes * 60_000).toISOString())] });
  if (f.text.trim()) {
    const substr = lit(f.text.trim());
    terms.push({
      $or: [
        { $contains: { input: field('inputs'), substr, case_insensitive: true } },
        { $contains: { input: field('output'), substr, case_insensitive: true } },
      ],
    });
  }
  const filter: Record<string, unknown> = { trace_roots_only: true };
  if (f.threadId.trim()) filter['thread_ids'] = [f.threadId.trim()];
  if (f.runId.trim()) filter['svc_run_ids'] = [f.runId.trim()];
  return {
    project_id: project,
    filter,
    ...(terms.length > 0 ? { query: { $expr: { $and: terms } } } : {}),
    sort_by: [{ field: 'started_at', direction: 'desc' }],
    limit,
    offset: after?.skip ?? 0,
    columns: LIST_COLUMNS,
    include_feedback: true,
    include_costs: true,
  };
}

const URL_KEYS: Record<keyof TraceFilters, string> = { op: 'op', status: 'status', sinceMinutes: 'since', threadId: 'thread', runId: 'run', text: 'text' };

/** The filters as the URL's query (`#/p/<project>?op=agent&status=error`): only those set. */
export function filtersToQuery(f: TraceFilters): Record<string, string> {
  const q: Record<string, string> = {};
  for (const [k, name] of Object.entries(URL_KEYS) as [keyof TraceFilters, string][]) {
    const v = f[k];
    if (v !== '' && v !== 0) q[name] = String(v);
  }
  return q;
}

/** The filters of a URL query; what it does not set stays unset, and a malformed `since` is 0 (any time). */
export function filtersFromQuery(q: Readonly<Record<string, string>> | undefined): TraceFilters {
  const f = { ...NO_FILTERS };
  if (!q) return f;
  for (const [k, name] of Object.entries(URL_KEYS) as [keyof TraceFilters, string][]) {
    const v = q[name];
    if (v === undefined) continue;
    if (k === 'sinceMinutes') f.sinceMinutes = Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v) : 0;
    else f[k] = v;
  }
  return f;
}
