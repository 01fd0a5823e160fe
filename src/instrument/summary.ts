/**
 * Call summaries: status counts and per-model usage, merged up from children by adding numbers.
 * @module
 */

/** Mutable summary of a call while it runs: `status_counts` plus optional `usage` by model. */
export interface SummaryData {
  /** Calls of this subtree by outcome; `cancelled` appears once a stream was abandoned by its consumer. */
  status_counts: { success: number; error: number; cancelled?: number };
  usage?: Record<string, Record<string, number>>;
  [key: string]: unknown;
}

/** A fresh summary. */
export function emptySummary(): SummaryData {
  return { status_counts: { success: 0, error: 0 } };
}

/** Adds `from`'s status counts and usage into `into` (numbers are summed, per model and field). */
export function mergeSummary(into: SummaryData, from: SummaryData): void {
  const counts = into.status_counts;
  counts.success += from.status_counts.success;
  counts.error += from.status_counts.error;
  if (from.status_counts.cancelled) counts.cancelled = (counts.cancelled ?? 0) + from.status_counts.cancelled;
  if (from.usage) addUsage(into, from.usage);
}

/** Adds usage numbers (per model, per field) into a summary. Non-numbers are ignored. */
export function addUsage(into: SummaryData, usage: Record<string, Record<string, unknown>>): void {
  const target = (into.usage ??= {});
  for (const [model, fields] of Object.entries(usage)) {
    if (!fields || typeof fields !== 'object') continue;
    const m = (target[model] ??= {});
    for (const [k, v] of Object.entries(fields)) {
      if (typeof v === 'number' && Number.isFinite(v)) m[k] = (m[k] ?? 0) + v;
    }
  }
}

/** What an op's `summarize` option returns: usage by model (numbers are added up the tree) and other fields. */
export interface SummaryExtra {
  /** Per model, e.g. `{ 'gpt-4o': { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, requests: 1 } }`. */
  usage?: Record<string, Record<string, number>>;
  /** Other fields are stored on this call's summary as given (not merged into the parent's). */
  [key: string]: unknown;
}

/** Adds `extra.usage` into `into.usage` and copies its other fields (except `status_counts`). */
export function applySummaryExtra(into: SummaryData, extra: Record<string, unknown>): void {
  for (const key of Object.keys(extra)) {
    const v = extra[key];
    if (key === 'usage') {
      if (v !== null && typeof v === 'object') addUsage(into, v as Record<string, Record<string, unknown>>);
    } else if (key !== 'status_counts') {
      into[key] = v;
    }
  }
}
