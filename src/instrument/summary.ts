/**
 * Call summaries: status counts and per-model usage, merged up from children by adding numbers.
 * @module
 */

/** Mutable summary of a call while it runs: `status_counts` plus optional `usage` by model. */
export interface SummaryData {
  status_counts: { success: number; error: number };
  usage?: Record<string, Record<string, number>>;
  [key: string]: unknown;
}

/** A fresh summary. */
export function emptySummary(): SummaryData {
  return { status_counts: { success: 0, error: 0 } };
}

/** Adds `from`'s status counts and usage into `into` (numbers are summed, per model and field). */
export function mergeSummary(into: SummaryData, from: SummaryData): void {
  into.status_counts.success += from.status_counts.success;
  into.status_counts.error += from.status_counts.error;
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
