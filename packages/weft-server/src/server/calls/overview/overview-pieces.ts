/**
 * The overview's pieces: what is known of the roots of one bucket and root op (and model of their usage), whether
 * counted now by the live statements (overview-sql.ts) or read back from a stored hour rollup (`call_rollups`, filled
 * by rollup-refresh.ts from the same statements). The answer is folded from pieces alone (overview.ts), so it does not
 * depend on which hours came from rollups.
 * @module
 */
import { addHistogramText, LatencyHistogram } from '../../stats/latency-histogram.js';
import { type OverviewUsageRow, type RootFiguresRow, USAGE_KEYS } from './overview-sql.js';

/** Token sums of one model, by token kind (only kinds with a number). */
export type UsageSums = Record<string, number>;

/** The roots of bucket `b` and root op `op`: all of them (`model` null) or those whose usage names `model`. */
export interface Piece {
  b: number;
  op: string | null;
  model: string | null;
  calls: number;
  errors: number;
  descendantErrors: number;
  /** Their latency histogram, or its stored text (parsed only when a series needs it). */
  histogram: LatencyHistogram | string | null;
  /** The usage of `model` summed over them (model pieces only). */
  usage?: UsageSums;
}

/** A piece's histogram, parsed (and kept parsed) when stored as text. */
export function histogramOf(p: Piece): LatencyHistogram {
  if (p.histogram instanceof LatencyHistogram) return p.histogram;
  const h = new LatencyHistogram();
  addHistogramText(h, p.histogram);
  return (p.histogram = h);
}

/** Adds token sums into `into`. */
export function addSums(into: UsageSums, from: UsageSums): void {
  for (const k in from) into[k] = (into[k] ?? 0) + from[k]!;
}

const keyOf = (b: number, op: string | null, model: string | null): string => JSON.stringify([b, op, model]);

/**
 * The pieces of the live statements' rows: counts and bins per (bucket, op, model), with each model's usage.
 * @param figures - `rootFigures` rows.
 * @param usage - `rootUsage` rows.
 */
export function piecesOf(figures: readonly RootFiguresRow[], usage: readonly OverviewUsageRow[]): Piece[] {
  const pieces = new Map<string, Piece>();
  const pieceAt = (b: number, op: string | null, model: string | null): Piece => {
    const key = keyOf(b, op, model);
    let p = pieces.get(key);
    if (!p) pieces.set(key, (p = { b, op, model, calls: 0, errors: 0, descendantErrors: 0, histogram: new LatencyHistogram() }));
    return p;
  };
  for (const r of figures) {
    const p = pieceAt(r.b, r.op, r.model);
    p.calls += r.n;
    p.errors += r.e;
    p.descendantErrors += r.de;
    if (r.k !== null) (p.histogram as LatencyHistogram).add(r.k, r.n);
  }
  for (const u of usage) {
    const sums: UsageSums = {};
    let any = false;
    for (const k of USAGE_KEYS) {
      const v = u[k];
      if (v !== null && v !== undefined) {
        sums[k] = Number(v);
        any = true;
      }
    }
    if (!any) continue;
    const p = pieceAt(Number(u.b), u.op, u.model);
    addSums((p.usage ??= {}), sums);
  }
  return [...pieces.values()];
}

/**
 * Adds pieces into `into` (by bucket, op and model): counts and usage added, histograms merged. The pieces of an hour
 * counted a slice at a time add up to the pieces of the hour counted at once.
 */
export function mergePieces(into: Map<string, Piece>, pieces: readonly Piece[]): void {
  for (const p of pieces) {
    const key = keyOf(p.b, p.op, p.model);
    const at = into.get(key);
    if (!at) {
      const histogram = new LatencyHistogram();
      histogram.merge(histogramOf(p));
      into.set(key, { ...p, histogram, ...(p.usage ? { usage: { ...p.usage } } : {}) });
      continue;
    }
    at.calls += p.calls;
    at.errors += p.errors;
    at.descendantErrors += p.descendantErrors;
    (at.histogram as LatencyHistogram).merge(histogramOf(p));
    if (p.usage) addSums((at.usage ??= {}), p.usage);
  }
}

/** A stored rollup row (`call_rollups`), as read back. */
export interface RollupRowRead {
  hour: string;
  op_name: string | null;
  model: string | null;
  calls: number | string;
  errors: number | string;
  descendant_errors: number | string;
  histogram: string | null;
  usage: string | null;
}

/** The piece of a stored rollup row, in bucket `b`. */
export function pieceOfRollup(r: RollupRowRead, b: number): Piece {
  const p: Piece = {
    b, op: r.op_name, model: r.model, calls: Number(r.calls), errors: Number(r.errors), descendantErrors: Number(r.descendant_errors), histogram: r.histogram,
  };
  if (r.usage !== null) p.usage = JSON.parse(r.usage) as UsageSums;
  return p;
}
