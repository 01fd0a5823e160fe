/**
 * The overview's arithmetic (pure): trace roots, as the stream query reads them with `include_costs`, added into
 * time buckets and, when split, one series per root op or per model. Shared by both stores (the route reads the
 * roots through either store's `queryCalls`).
 * @module
 */
import type { OverviewBucket, OverviewFigures, OverviewGroup } from '../../schema/calls-overview.js';
import { percentileOf } from '../feedback/stats-aggregate.js';

/** The fields of a root record read. */
export interface OverviewRecord {
  op_name: string;
  started_at: string;
  summary: Record<string, unknown>;
}

/** Groups beyond this many (by calls) are merged as `(other)`. */
export const MAX_GROUPS = 12;
const OTHER = '(other)';
const NONE = '(none)';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Running sums of one bucket of one series. */
class Acc {
  calls = 0;
  errors = 0;
  descendantErrors = 0;
  latencies: number[] = [];
  input = 0;
  output = 0;
  cost = 0;
  priced = false;

  addCall(summary: Obj): void {
    this.calls += 1;
    if (summary['status'] === 'error') this.errors += 1;
    else if (summary['status'] === 'descendant_error') this.descendantErrors += 1;
    if (typeof summary['latency_ms'] === 'number') this.latencies.push(summary['latency_ms']);
  }

  addUsage(usage: unknown, cost: unknown): void {
    if (isObj(usage)) {
      this.input += num(usage['input_tokens'] ?? usage['prompt_tokens']);
      this.output += num(usage['output_tokens'] ?? usage['completion_tokens']);
    }
    if (isObj(cost) && typeof cost['total_cost'] === 'number') {
      this.cost += cost['total_cost'];
      this.priced = true;
    }
  }

  merge(o: Acc): void {
    this.calls += o.calls;
    this.errors += o.errors;
    this.descendantErrors += o.descendantErrors;
    for (const l of o.latencies) this.latencies.push(l);
    this.input += o.input;
    this.output += o.output;
    this.cost += o.cost;
    this.priced ||= o.priced;
  }

  figures(): OverviewFigures {
    const values = Float64Array.from(this.latencies);
    return {
      calls: this.calls,
      errors: this.errors,
      descendant_errors: this.descendantErrors,
      latency_p50_ms: values.length > 0 ? percentileOf(values, 50) : null,
      latency_p95_ms: values.length > 0 ? percentileOf(values, 95) : null,
      input_tokens: this.input,
      output_tokens: this.output,
      cost_usd: this.priced ? Number(this.cost.toPrecision(12)) : null,
    };
  }
}

/** A series: one accumulator per bucket, and its total. */
class Series {
  readonly buckets: Acc[];
  constructor(n: number) {
    this.buckets = Array.from({ length: n }, () => new Acc());
  }
  total(): Acc {
    const t = new Acc();
    for (const b of this.buckets) t.merge(b);
    return t;
  }
}

/** Index of the bucket holding `ms` among `edges` (bucket i is `[edges[i], edges[i+1])`), or -1. */
function bucketOf(edges: readonly number[], ms: number): number {
  let lo = 0;
  let hi = edges.length - 2;
  if (hi < 0 || ms < edges[0]! || ms >= edges[edges.length - 1]!) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (edges[mid]! <= ms) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Adds up roots into buckets; `add` one record at a time, then `result()`. */
export class OverviewBuilder {
  private readonly all: Series;
  private readonly groups = new Map<string, Series>();

  /**
   * @param edges - bucket edges in epoch ms (from `planBuckets`).
   * @param groupBy - the split, or null.
   */
  constructor(private readonly edges: readonly number[], private readonly groupBy: 'op_name' | 'model' | null) {
    this.all = new Series(edges.length - 1);
  }

  private series(key: string): Series {
    let s = this.groups.get(key);
    if (!s) this.groups.set(key, (s = new Series(this.edges.length - 1)));
    return s;
  }

  /** Adds one root; roots outside the window are skipped. */
  add(r: OverviewRecord): void {
    const i = bucketOf(this.edges, Date.parse(r.started_at));
    if (i < 0) return;
    const usage = isObj(r.summary['usage']) ? r.summary['usage'] : {};
    const costs = isObj(r.summary['costs']) ? r.summary['costs'] : {};
    const total = this.all.buckets[i]!;
    total.addCall(r.summary);
    for (const model of Object.keys(usage)) total.addUsage(usage[model], costs[model]);
    if (this.groupBy === 'op_name') {
      const b = this.series(r.op_name).buckets[i]!;
      b.addCall(r.summary);
      for (const model of Object.keys(usage)) b.addUsage(usage[model], costs[model]);
    } else if (this.groupBy === 'model') {
      const models = Object.keys(usage);
      if (models.length === 0) this.series(NONE).buckets[i]!.addCall(r.summary);
      for (const model of models) {
        const b = this.series(model).buckets[i]!;
        b.addCall(r.summary);
        b.addUsage(usage[model], costs[model]);
      }
    }
  }

  private bucketsOf(s: Series): OverviewBucket[] {
    return s.buckets.map((b, i) => ({ timestamp: new Date(this.edges[i]!).toISOString(), ...b.figures() }));
  }

  /** The totals, the buckets, and the groups (most calls first, at most {@link MAX_GROUPS}, the rest as `(other)`). */
  result(): { totals: OverviewFigures; buckets: OverviewBucket[]; groups?: OverviewGroup[] } {
    const out: { totals: OverviewFigures; buckets: OverviewBucket[]; groups?: OverviewGroup[] } = { totals: this.all.total().figures(), buckets: this.bucketsOf(this.all) };
    if (this.groupBy === null) return out;
    const ranked = [...this.groups.entries()].map(([key, s]) => ({ key, s, calls: s.total().calls })).sort((a, b) => b.calls - a.calls || (a.key < b.key ? -1 : 1));
    const kept = ranked.slice(0, ranked.length > MAX_GROUPS ? MAX_GROUPS - 1 : MAX_GROUPS);
    const rest = ranked.slice(kept.length);
    if (rest.length > 0) {
      const other = new Series(this.edges.length - 1);
      for (const { s } of rest) s.buckets.forEach((b, i) => other.buckets[i]!.merge(b));
      kept.push({ key: OTHER, s: other, calls: 0 });
    }
    out.groups = kept.map(({ key, s }) => ({ key, totals: s.total().figures(), buckets: this.bucketsOf(s) }));
    return out;
  }
}
