/**
 * The calls made from each prompt version summed up for the versions table: how many, their median and mean
 * latency, their cost, and their feedback (thumbs up and down, each named score's mean). Pure.
 * @module
 */
import type { CallRecord } from '../api';
import { type FeedbackRecord, thumbOf } from '../feedback/feedback-items';
import { cost } from '../format';

/** The figures of one version's calls. */
export interface VersionStats {
  calls: number;
  /** Median latency, ms; null without an ended call. */
  p50Ms: number | null;
  meanMs: number | null;
  /** USD over the calls whose cost is known; null when none is. */
  costUsd: number | null;
  up: number;
  down: number;
  /** Mean of each numeric score (`score` feedback `{<name>: number}`, a scorer's `{output: number}`), by name. */
  scores: Record<string, number>;
}

/** The numeric scores a feedback record carries, by name (thumbs and notes carry none). */
export function scoresOf(f: FeedbackRecord): Record<string, number> {
  if (thumbOf(f) !== undefined || f.feedback_type === 'note') return {};
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(f.payload)) {
    const name = k === 'output' ? f.feedback_type.replace(/^wandb\.runnable\./, '') : k;
    if (typeof v === 'number') out[name] = v;
    else if (typeof v === 'boolean') out[name] = v ? 1 : 0;
  }
  return out;
}

function median(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The figures of `calls` (one version's). */
export function versionStats(calls: readonly CallRecord[]): VersionStats {
  const latencies = calls.map((c) => c.summary.latency_ms).filter((ms): ms is number => typeof ms === 'number').sort((a, b) => a - b);
  let costUsd: number | null = null;
  let up = 0;
  let down = 0;
  const sums: Record<string, { sum: number; n: number }> = {};
  for (const c of calls) {
    const usd = cost(c);
    if (usd !== null) costUsd = (costUsd ?? 0) + usd;
    for (const f of (c.summary.feedback ?? []) as FeedbackRecord[]) {
      const t = thumbOf(f);
      if (t === true) up += 1;
      else if (t === false) down += 1;
      for (const [name, v] of Object.entries(scoresOf(f))) {
        const s = (sums[name] ??= { sum: 0, n: 0 });
        s.sum += v;
        s.n += 1;
      }
    }
  }
  const scores = Object.fromEntries(Object.entries(sums).map(([k, s]) => [k, s.sum / s.n]));
  const meanMs = latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : null;
  return { calls: calls.length, p50Ms: median(latencies), meanMs, costUsd, up, down, scores };
}
