/**
 * The overview of a store: where each hour of the window is read from (overview-plan.ts: stored hour rollups, or the
 * live statements of overview-sql.ts), then the answer folded from the pieces both give (overview-pieces.ts): counts
 * added, latency histograms merged (p50 / p95 read from them, latency-histogram.ts), each model's token sums added and
 * priced per bucket as `include_costs` prices a call's. The answer is the same whichever hours came from rollups.
 * @module
 */
import type { OverviewBucket, OverviewFigures, OverviewGroup } from 'weft-trace/wire';
import type { Dialect } from '../../db/dialect.js';
import type { Out, SqlRunner, Wait } from '../../db/sql-runner.js';
import { all, type Steps } from '../../db/sql-steps.js';
import { andThen, type MaybePromise } from '../../db/store-api.js';
import { addHistogramText, histogramPercentiles, LatencyHistogram } from '../../stats/latency-histogram.js';
import { addSums, type Piece, pieceOfRollup, piecesOf, type RollupRowRead, type UsageSums } from './overview-pieces.js';
import { HOUR_MS, planOverview } from './overview-plan.js';
import { LIVE_ROOTS, liveCut, staleRuns } from './overview-live-bound.js';
import { MAX_GROUPS, NONE, OTHER, type OverviewQuery, type OverviewUsageRow, type RootFiguresRow, rootFigures, rootUsage, type RootsQuery } from './overview-sql.js';
import { costsOf } from '../prices/prices.js';
import type { PriceTable } from '../prices/price-table.js';
import { hourAt } from '../write/rollup-marks.js';

/** The figures of {@link CallsOverviewRes} (schema/calls-overview.ts) besides the window. */
export interface OverviewResult {
  totals: OverviewFigures;
  buckets: OverviewBucket[];
  groups?: OverviewGroup[];
}

const ALL = '\u0000all';

/** What one series knows of one bucket (or of the window). */
class Acc {
  calls = 0;
  errors = 0;
  descendantErrors = 0;
  readonly histogram = new LatencyHistogram();
  /** Token sums by model. */
  readonly usage = new Map<string, UsageSums>();

  addUsage(model: string, sums: UsageSums): void {
    let into = this.usage.get(model);
    if (!into) this.usage.set(model, (into = {}));
    addSums(into, sums);
  }

  merge(from: Acc): void {
    this.calls += from.calls;
    this.errors += from.errors;
    this.descendantErrors += from.descendantErrors;
    this.histogram.merge(from.histogram);
    for (const [model, sums] of from.usage) this.addUsage(model, sums);
  }
}

/** What an overview read, besides its stored rollups. */
interface StoredPart {
  /** The window's marked and claimed hours. */
  stale: Set<string>;
  rollups: RollupRowRead[];
  /** Stale hours before this instant (epoch ms) are left out (overview-live-bound.ts); -Infinity: none. */
  pendingBefore: number;
}

/** The stored rollups of the window, its stale hours and where their live count stops: the plan's inputs. */
function* storedPart(d: Dialect, q: OverviewQuery, liveRoots: number | null | undefined): Steps<StoredPart> {
  const first = hourAt(Math.floor(q.startMs / HOUR_MS) * HOUR_MS);
  const last = hourAt(Math.floor((q.endMs - 1) / HOUR_MS) * HOUR_MS);
  const marks = yield* all<{ hour: string }>(`SELECT hour FROM call_rollup_marks WHERE project_id = ? AND hour >= ? AND hour <= ?
    UNION SELECT hour FROM call_rollup_claims WHERE project_id = ? AND hour >= ? AND hour <= ?`, [q.projectId, first, last, q.projectId, first, last]);
  // model rows' histograms only for the split by model; their usage always
  const histogram = q.groupBy === 'model' ? 'histogram' : 'CASE WHEN model IS NULL THEN histogram END AS histogram';
  const rollups = yield* all<RollupRowRead>(`SELECT hour, op_name, model, calls, errors, descendant_errors, ${histogram}, usage
    FROM call_rollups WHERE project_id = ? AND hour >= ? AND hour <= ?`, [q.projectId, first, last]);
  const stale = new Set(marks.map((m) => m.hour));
  const cut = stale.size === 0 || liveRoots === null ? null : yield* liveCut(d, q.projectId, staleRuns(q.startMs, q.endMs, stale), liveRoots ?? LIVE_ROOTS[d.engine]);
  return { stale, rollups, pendingBefore: cut ?? -Infinity };
}

/** Where an overview's answer came from. */
export interface OverviewSource {
  /** Hours read from stored rollups. */
  rollupHours: number;
  /** Time ranges counted live (window edges, stale hours, hours cut by a bucket edge). */
  liveRanges: number;
  /** Stale hours left out: their roots are in no figure (the rollup job has not reached them; overview-live-bound.ts). */
  pendingHours: number;
}

/** An overview and where it came from. */
export interface OverviewAnswer {
  result: OverviewResult;
  source: OverviewSource;
}

/** How an overview reads. */
export interface OverviewOptions {
  /** Read stored rollups (false: count every root live; the same answer, slower). @defaultValue true */
  useRollups?: boolean;
  /**
   * Roots of stale hours counted live at most (the older stale hours are left out); null: no bound (every stale hour is
   * counted, as a server without the rollup job must). @defaultValue the engine's {@link LIVE_ROOTS}
   */
  liveRoots?: number | null;
}

/**
 * The overview of a window on a store's runner, as long reads (on PostgreSQL on the long-read pool, whose
 * `statement_timeout` bounds them as it bounds stream queries and feedback stats): the stale hours and stored rollups
 * of the window and where live counting stops, then the live statements over the rest (on PostgreSQL both at once),
 * then the answer.
 *
 * @param sql - the store's runner.
 * @param q - the window, its buckets and split.
 * @param prices - the server's override prices (`include_costs`'s).
 * @returns totals and buckets of all roots (but those of the stale hours left out, `source.pendingHours`); with a split,
 *   its groups: most roots first, then by key; `(other)` last.
 */
export function overviewOn<W extends Wait>(sql: SqlRunner<W>, q: OverviewQuery, prices: PriceTable, options: OverviewOptions = {}): Out<W, OverviewAnswer> {
  const { useRollups = true, liveRoots } = options;
  const stored = useRollups ? sql.longRead(storedPart, q, liveRoots) : undefined;
  return andThen(stored as MaybePromise<StoredPart | undefined>, (part) => answerOf(sql, q, prices, part)) as Out<W, OverviewAnswer>;
}

/** The answer from a window's stored part: its live ranges counted at once (on PostgreSQL both statements at once). */
function answerOf(sql: SqlRunner, q: OverviewQuery, prices: PriceTable, part: StoredPart | undefined): MaybePromise<OverviewAnswer> {
  const { live, pieces, source } = planned(q, part);
  const figures = sql.longRead(rootFigures, live);
  const usage = sql.longRead(rootUsage, live);
  const rows = (figures instanceof Promise ? Promise.all([figures, usage]) : [figures, usage]) as MaybePromise<[RootFiguresRow[], OverviewUsageRow[]]>;
  return andThen(rows, ([f, u]) => ({ result: overviewResult(q, [...pieces, ...piecesOf(f, u)], prices), source }));
}

/** Runs a synchronous job in a turn of its own (the call store's turn queue: calls/call-turns.ts). */
export type Turn = <T>(job: () => T) => Promise<T>;

/**
 * {@link overviewOn} taking turns with the writes on a synchronous store (SQLite, whose reads hold the event loop): the
 * stored part in one turn, then the live ranges cut at hours, one piece per turn, then the answer folded in one. A
 * write waits behind about an hour of roots of a read instead of all it counts live. On PostgreSQL the same as
 * {@link overviewOn} (its reads yield). The pieces of the turns add up to the answer of one read.
 */
export async function overviewInTurns(sql: SqlRunner, q: OverviewQuery, prices: PriceTable, turn: Turn, options: OverviewOptions = {}): Promise<OverviewAnswer> {
  const { useRollups = true, liveRoots } = options;
  let sync = true;
  const part = useRollups ? await turn(() => {
    const stored = sql.longRead(storedPart, q, liveRoots);
    sync = !(stored instanceof Promise);
    return stored;
  }) : undefined;
  if (!sync) return answerOf(sql, q, prices, part);
  const { live, pieces, source } = planned(q, part);
  for (const range of live.ranges.flatMap(([a, z]) => cutAtHours(a, z))) {
    const one: RootsQuery = { ...live, ranges: [range] };
    pieces.push(...await turn(() => piecesOf(sql.longRead(rootFigures, one) as RootFiguresRow[], sql.longRead(rootUsage, one) as OverviewUsageRow[])));
  }
  return turn(() => ({ result: overviewResult(q, pieces, prices), source }));
}

/** `[a, z)` cut at the hours inside it. */
function cutAtHours(a: number, z: number): [number, number][] {
  const out: [number, number][] = [];
  for (let at = a; at < z;) {
    const next = Math.min(z, (Math.floor(at / HOUR_MS) + 1) * HOUR_MS);
    out.push([at, next]);
    at = next;
  }
  return out;
}

/** A window's plan from its stored part (none: every root counted live): the live ranges, the rollups' pieces, the source. */
function planned(q: OverviewQuery, part: StoredPart | undefined): { live: RootsQuery; pieces: Piece[]; source: OverviewSource } {
  const plan = part
    ? planOverview(q.startMs, q.endMs, q.edges, part.stale, part.pendingBefore)
    : { hours: new Map<string, number>(), ranges: [[q.startMs, q.endMs] as [number, number]], pending: 0 };
  const pieces: Piece[] = [];
  for (const r of part?.rollups ?? []) {
    const b = plan.hours.get(r.hour);
    if (b !== undefined) pieces.push(pieceOfRollup(r, b));
  }
  const live: RootsQuery = { projectId: q.projectId, ranges: plan.ranges, edges: q.edges, withModels: q.groupBy === 'model' };
  return { live, pieces, source: { rollupHours: plan.hours.size, liveRanges: plan.ranges.length, pendingHours: plan.pending } };
}

/** The answer folded from pieces. */
export function overviewResult(q: OverviewQuery, pieces: readonly Piece[], prices: PriceTable): OverviewResult {
  const n = q.edges.length - 1;
  const series = new Map<string, Acc[]>();
  const seriesOf = (key: string): Acc[] => {
    let s = series.get(key);
    if (!s) series.set(key, (s = Array.from({ length: n }, () => new Acc())));
    return s;
  };
  seriesOf(ALL);
  for (const p of pieces) {
    const opKey = p.op ?? NONE;
    const counted = p.model === null ? [ALL, ...(q.groupBy === 'op_name' ? [opKey] : [])] : q.groupBy === 'model' ? [p.model] : [];
    const histograms: LatencyHistogram[] = [];
    for (const key of counted) {
      const acc = seriesOf(key)[p.b]!;
      acc.calls += p.calls;
      acc.errors += p.errors;
      acc.descendantErrors += p.descendantErrors;
      if (p.histogram instanceof LatencyHistogram) acc.histogram.merge(p.histogram);
      else histograms.push(acc.histogram);
    }
    // a stored histogram is read once, into each series it counts in
    if (typeof p.histogram === 'string' && histograms.length > 0) addHistogramText(histograms, p.histogram);
    if (p.usage === undefined || p.model === null) continue;
    const priced = [ALL, ...(q.groupBy === 'op_name' ? [opKey] : q.groupBy === 'model' ? [p.model] : [])];
    for (const key of priced) seriesOf(key)[p.b]!.addUsage(p.model, p.usage);
  }
  const edgeIso = q.edges.map((ms) => new Date(ms).toISOString());
  const answer = (s: Acc[]): { totals: OverviewFigures; buckets: OverviewBucket[] } => {
    const total = new Acc();
    for (const acc of s) total.merge(acc);
    const buckets = s.map((acc, i) => ({ timestamp: edgeIso[i]!, ...figuresOf(acc, prices) }));
    const totals = figuresOf(total, prices);
    // the window's cost: its buckets' costs added (each bucket's usage priced as a whole, as before rollups)
    const costs = buckets.map((b) => b.cost_usd).filter((c): c is number => c !== null);
    totals.cost_usd = costs.length === 0 ? null : Number(costs.reduce((a, c) => a + c, 0).toPrecision(12));
    return { totals, buckets };
  };
  const out: OverviewResult = answer(series.get(ALL)!);
  if (q.groupBy === null) return out;
  const totalCalls = (s: Acc[]): number => s.reduce((a, acc) => a + acc.calls, 0);
  const ranked = [...series.entries()].filter(([key]) => key !== ALL).map(([key, s]) => ({ key, s, calls: totalCalls(s) }))
    .sort((a, b) => b.calls - a.calls || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const keep = ranked.length > MAX_GROUPS ? MAX_GROUPS - 1 : MAX_GROUPS;
  const groups = ranked.slice(0, keep).map(({ key, s }) => ({ key, s }));
  if (ranked.length > keep) {
    const other = Array.from({ length: n }, () => new Acc());
    for (const { s } of ranked.slice(keep)) s.forEach((acc, i) => other[i]!.merge(acc));
    groups.push({ key: OTHER, s: other });
  }
  out.groups = groups.map(({ key, s }) => ({ key, ...answer(s) }));
  return out;
}

/** The figures of one accumulator: counts, p50 / p95 of its histogram, tokens and cost of its usage. */
function figuresOf(acc: Acc, prices: PriceTable): OverviewFigures {
  const [p50, p95] = histogramPercentiles(acc.histogram, [50, 95]);
  let input = 0;
  let output = 0;
  let cost: number | null = null;
  for (const model of [...acc.usage.keys()].sort()) {
    const u = acc.usage.get(model)!;
    input += u['input_tokens'] ?? u['prompt_tokens'] ?? 0;
    output += u['output_tokens'] ?? u['completion_tokens'] ?? 0;
    const c = costsOf({ [model]: u }, prices)[model]?.total_cost;
    if (c !== undefined) cost = (cost ?? 0) + c;
  }
  return {
    calls: acc.calls, errors: acc.errors, descendant_errors: acc.descendantErrors, latency_p50_ms: p50 ?? null, latency_p95_ms: p95 ?? null,
    input_tokens: input, output_tokens: output, cost_usd: cost === null ? null : Number(cost.toPrecision(12)),
  };
}
