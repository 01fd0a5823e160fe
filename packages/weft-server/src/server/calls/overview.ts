/**
 * The overview of a store: its SQL run (overview-sql.ts, both stores), then the answer from what it counted: the
 * counts per bucket and series as they are, each model's summed usage priced as `include_costs` prices a call's,
 * then added into the series it belongs to.
 * @module
 */
import type { OverviewBucket, OverviewFigures, OverviewGroup } from 'weft-trace/internal';
import type { Out, SqlRunner, Wait } from '../db/sql-runner.js';
import { andThen, type MaybePromise } from '../db/store-api.js';
import type { OverviewCallsRow, OverviewQuery, OverviewUsageRow } from './overview-sql.js';
import { overviewCalls, overviewUsage, OTHER, USAGE_KEYS } from './overview-sql.js';
import { costsOf, type PriceTable } from './prices.js';

/** The figures of {@link CallsOverviewRes} (schema/calls-overview.ts) besides the window. */
export interface OverviewResult {
  totals: OverviewFigures;
  buckets: OverviewBucket[];
  groups?: OverviewGroup[];
}

const ALL = '\u0000all';
const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const empty = (): OverviewFigures => ({
  calls: 0, errors: 0, descendant_errors: 0, latency_p50_ms: null, latency_p95_ms: null, input_tokens: 0, output_tokens: 0, cost_usd: null,
});

/** One series: its figures per bucket and over the window. */
class Series {
  readonly buckets: OverviewFigures[];
  readonly total = empty();
  constructor(n: number) {
    this.buckets = Array.from({ length: n }, empty);
  }

  at(b: number): OverviewFigures {
    return b < 0 ? this.total : this.buckets[b]!;
  }

  /** Adds one model's usage of bucket `b` (and to the window's total). */
  addUsage(b: number, input: number, output: number, cost: number | undefined): void {
    for (const f of [this.buckets[b]!, this.total]) {
      f.input_tokens += input;
      f.output_tokens += output;
      if (cost !== undefined) f.cost_usd = (f.cost_usd ?? 0) + cost;
    }
  }
}

/** The cost in USD of one usage row, or undefined when its model has no price. */
function costOf(row: OverviewUsageRow, prices: PriceTable): number | undefined {
  const usage: Record<string, number> = {};
  for (const k of USAGE_KEYS) if (row[k] !== null && row[k] !== undefined) usage[k] = Number(row[k]);
  return costsOf({ [row.model]: usage }, prices)[row.model]?.total_cost;
}

/**
 * The overview of a window on a store's runner: its two statements, as long reads (on PostgreSQL both at once, on two
 * connections of the long-read pool, whose `statement_timeout` bounds them as it bounds stream queries and feedback
 * stats), then the answer.
 *
 * @param sql - the store's runner.
 * @param q - the window, its buckets and split.
 * @param prices - the server's override prices (`include_costs`'s).
 * @returns totals and buckets of all roots; with a split, its groups: most roots first, then by key; `(other)` last.
 */
export function overviewOn<W extends Wait>(sql: SqlRunner<W>, q: OverviewQuery, prices: PriceTable): Out<W, OverviewResult> {
  const calls = sql.longRead(overviewCalls, q);
  const usage = sql.longRead(overviewUsage, q);
  const rows = (calls instanceof Promise ? Promise.all([calls, usage]) : [calls, usage]) as MaybePromise<Rows>;
  return andThen(rows, (r) => overviewResult(q, r, prices)) as Out<W, OverviewResult>;
}

type Rows = [OverviewCallsRow[], OverviewUsageRow[]];
function overviewResult(q: OverviewQuery, [calls, usage]: Rows, prices: PriceTable): OverviewResult {
  const n = q.edges.length - 1;
  const series = new Map<string, Series>();
  const seriesOf = (key: string): Series => {
    let s = series.get(key);
    if (!s) series.set(key, (s = new Series(n)));
    return s;
  };
  const all = seriesOf(ALL);
  for (const r of calls) {
    const f = seriesOf(r.g ?? ALL).at(Number(r.b));
    Object.assign(f, { calls: num(r.n), errors: num(r.e), descendant_errors: num(r.de), latency_p50_ms: r.p50 === null ? null : Number(r.p50), latency_p95_ms: r.p95 === null ? null : Number(r.p95) });
  }
  for (const u of usage) {
    const b = Number(u.b);
    const input = num(u.input_tokens ?? u.prompt_tokens);
    const output = num(u.output_tokens ?? u.completion_tokens);
    const cost = costOf(u, prices);
    all.addUsage(b, input, output, cost);
    const key = q.groupBy === 'op_name' ? u.op! : q.groupBy === 'model' ? u.model : undefined;
    if (key !== undefined) (series.get(key) ?? seriesOf(OTHER)).addUsage(b, input, output, cost);
  }
  const bucketsOf = (s: Series): OverviewBucket[] => s.buckets.map((f, i) => ({ timestamp: new Date(q.edges[i]!).toISOString(), ...rounded(f) }));
  const out: OverviewResult = { totals: rounded(all.total), buckets: bucketsOf(all) };
  if (q.groupBy === null) return out;
  const groups = [...series.entries()].filter(([key]) => key !== ALL)
    .sort(([ka, a], [kb, b]) => (ka === OTHER ? 1 : kb === OTHER ? -1 : b.total.calls - a.total.calls || (ka < kb ? -1 : 1)));
  out.groups = groups.map(([key, s]) => ({ key, totals: rounded(s.total), buckets: bucketsOf(s) }));
  return out;
}

/** A cost to 12 significant digits (as `include_costs` rounds each call's). */
function rounded(f: OverviewFigures): OverviewFigures {
  return f.cost_usd === null ? { ...f } : { ...f, cost_usd: Number(f.cost_usd.toPrecision(12)) };
}
