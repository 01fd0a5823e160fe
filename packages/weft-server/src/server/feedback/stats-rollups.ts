/**
 * Feedback stats from the hour rollups (migration 13, feedback-rollup-refresh.ts): which buckets of a request they can
 * answer, and those buckets' rows built from them in the shape of the SQLite scan's rows (stats-sql.ts `StatsRow`:
 * count, sum, min, max per metric), so stats-query.ts assembles either alike. A bucket is answered from rollups when
 * its range (clipped to the window) starts and ends on whole UTC hours before the hour in progress, and none of its
 * hours is marked stale; a request with a `trigger_ref` or a `json_path` holding an array index is read from rows
 * whole (the rollups keep neither triggers nor paths into arrays). Percentiles come from each hour's stored numbers
 * (`vals`), exactly as from the rows: the same values, the same selection (stats-aggregate.ts `percentileOf`).
 * @module
 */
import type { Dialect } from '../db/dialect.js';
import { all, type Steps } from '../db/sql-steps.js';
import { addExact, exactValue } from './exact-sum.js';
import { decodeValues } from './rollup-fold.js';
import type { StatsQuery, StatsMetric, StatsRow, StatsWindow } from './stats-sql.js';

const HOUR_MS = 3_600_000;
const hourKey = (ms: number): string => new Date(ms).toISOString().slice(0, 13);

/** Where the buckets of an answer came from: the rollups, the rows, or some of each. */
export type StatsSource = 'rollups' | 'rows' | 'rollups+rows';

/** The clipped range `[lo, hi)` in ms of bucket `i`. */
export function bucketMs(window: StatsWindow, i: number): [number, number] {
  const { plan } = window;
  const lo = i === 0 ? Date.parse(window.start) : plan.edges[i]!;
  const hi = i + 2 === plan.edges.length ? Date.parse(window.end) : plan.edges[i + 1]!;
  return [lo, hi];
}

/** True when the request may read rollups at all (see the module comment). */
function rollupable(query: StatsQuery, metrics: readonly StatsMetric[]): boolean {
  return query.trigger_ref == null && metrics.every((m) => m.steps.every((s) => typeof s === 'string'));
}

/** One rollup row read for a request. */
type Cell = { hour: string; path: string; present: number; count: number; total: string | null; lo: number | null; hi: number | null; vals: string | null; t: number; f: number };

/** A bucket's sums being gathered: rows, and per metric count, exact-sum partials, min, max, and the numbers' lists. */
type Gather = { n: number; c: number[]; s: number[][]; lo: (number | null)[]; hi: (number | null)[]; v: Float64Array[][] };

/**
 * The rows of the buckets the rollups answer, by bucket index (see {@link StatsRow}; a bucket without rows is absent
 * from `rows` but listed in `buckets`), or none when the request cannot read rollups.
 * @param now - the server clock: the hour in progress is never read from rollups.
 */
export function* rollupRows(d: Dialect, query: StatsQuery, metrics: readonly StatsMetric[], window: StatsWindow, now: Date): Steps<{ buckets: Set<number>; rows: StatsRow[] }> {
  const none = { buckets: new Set<number>(), rows: [] };
  if (!rollupable(query, metrics)) return none;
  const current = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const count = window.plan.edges.length - 1;
  const candidates: number[] = [];
  for (let i = 0; i < count; i++) {
    const [lo, hi] = bucketMs(window, i);
    if (lo % HOUR_MS === 0 && hi % HOUR_MS === 0 && hi <= current && lo < hi) candidates.push(i);
  }
  if (candidates.length === 0) return none;
  const first = bucketMs(window, candidates[0]!)[0];
  const last = bucketMs(window, candidates.at(-1)!)[1];
  const marks = yield* all<{ hour: string }>('SELECT hour FROM feedback_rollup_marks WHERE project_id = ? AND hour >= ? AND hour < ?',
    [query.project_id, hourKey(first), hourKey(last)]);
  const stale = new Set(marks.map((m) => Date.parse(`${m.hour}:00:00.000Z`)));
  const buckets = new Set(candidates.filter((i) => {
    const [lo, hi] = bucketMs(window, i);
    for (let h = lo; h < hi; h += HOUR_MS) if (stale.has(h)) return false;
    return true;
  }));
  if (buckets.size === 0) return none;
  const paths = ['[]', ...metrics.map((m) => JSON.stringify(m.steps))];
  const params: unknown[] = [query.project_id, hourKey(first), hourKey(last), d.list([...new Set(paths)])];
  // the stored numbers are read only for percentiles
  const vals = metrics.some((m) => m.percentiles.length > 0) ? 'vals' : 'NULL AS vals';
  let sql = `SELECT hour, path, present, count, total, lo, hi, ${vals}, t, f FROM feedback_rollups
    WHERE project_id = ? AND hour >= ? AND hour < ? AND ${d.inList('path')}`;
  if (query.feedback_type != null) {
    sql += ' AND feedback_type = ?';
    params.push(query.feedback_type);
  }
  const cells = yield* all<Cell>(sql, params);
  const gathered = new Map<number, Gather>();
  const edges = window.plan.edges;
  for (const cell of cells) {
    const ms = Date.parse(`${cell.hour}:00:00.000Z`);
    const b = bucketOf(edges, ms);
    if (!buckets.has(b)) continue;
    let g = gathered.get(b);
    if (!g) gathered.set(b, (g = { n: 0, c: metrics.map(() => 0), s: metrics.map(() => []), lo: metrics.map(() => null), hi: metrics.map(() => null), v: metrics.map(() => []) }));
    if (cell.path === '[]') g.n += Number(cell.present);
    metrics.forEach((m, j) => {
      if (paths[j + 1] !== cell.path) return;
      if (!gatherCell(g, j, m, cell)) buckets.delete(b);
    });
  }
  const rows: StatsRow[] = [];
  for (const [b, g] of gathered) {
    if (!buckets.has(b) || g.n === 0) continue;
    const row: StatsRow = { b, n: g.n };
    metrics.forEach((_, j) => {
      const some = g.c[j]! > 0;
      Object.assign(row, { [`c${j}`]: g.c[j]!, [`s${j}`]: some ? exactValue(g.s[j]!) : null, [`lo${j}`]: some ? g.lo[j]! : null, [`hi${j}`]: some ? g.hi[j]! : null });
      if (metrics[j]!.percentiles.length > 0) row[`l${j}`] = concat(g.v[j]!);
    });
    rows.push(row);
  }
  return { buckets, rows };
}

/** The bucket holding instant `ms` (edges ascending; `ms` within them). */
function bucketOf(edges: readonly number[], ms: number): number {
  let lo = 0;
  let hi = edges.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (edges[mid]! <= ms) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Adds one rollup cell into metric `j` of a bucket, as stats-sql.ts `valueSql` reads values: numbers (numeric), true
 * 1 and false 0 (boolean), any non-null value as 0 (categorical).
 * @returns false when the cell's exact sum overflowed (the bucket is read from rows).
 */
function gatherCell(g: Gather, j: number, m: StatsMetric, cell: Cell): boolean {
  const add = (count: number, partials: readonly number[], lo: number, hi: number): void => {
    if (count === 0) return;
    g.c[j]! += count;
    for (const p of partials) addExact(g.s[j]!, p);
    if (g.lo[j] === null || lo < g.lo[j]!) g.lo[j] = lo;
    if (g.hi[j] === null || hi > g.hi[j]!) g.hi[j] = hi;
  };
  if (m.valueType === 'numeric') {
    if (cell.total === null) return false;
    add(Number(cell.count), JSON.parse(cell.total) as number[], Number(cell.lo), Number(cell.hi));
    if (m.percentiles.length > 0 && cell.vals !== null) g.v[j]!.push(decodeValues(cell.vals));
  } else if (m.valueType === 'boolean') {
    const [t, f] = [Number(cell.t), Number(cell.f)];
    add(t + f, [t], f > 0 ? 0 : 1, t > 0 ? 1 : 0);
  } else add(Number(cell.present), [], 0, 0);
  return true;
}

/** The lists one after another. */
function concat(lists: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(lists.reduce((n, l) => n + l.length, 0));
  lists.reduce((at, l) => (out.set(l, at), at + l.length), 0);
  return out;
}
