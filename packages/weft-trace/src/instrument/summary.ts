/**
 * Call summaries: how a call's end summary is built (its outcome counted, `summarize` fields, usage added up the tree, the cancelled mark).
 * @module
 */

/** How a call ended: returned, threw, or (a stream) was abandoned by its consumer. */
export type CallOutcome = 'success' | 'error' | 'cancelled';

/** Mutable summary of a call while it runs: `status_counts` plus optional `usage` by model. */
export interface SummaryData {
  /** Calls of this subtree by outcome; `cancelled` appears once a stream was abandoned by its consumer. */
  status_counts: { success: number; error: number; cancelled?: number };
  usage?: Record<string, Record<string, number>>;
  [key: string]: unknown;
}

/** What an op's `summarize` option returns: usage by model (numbers are added up the tree) and other fields. */
export interface SummaryExtra {
  /** Per model, e.g. `{ 'gpt-4o': { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, requests: 1 } }`. */
  usage?: Record<string, Record<string, number>>;
  /** Other fields are stored on this call's summary as given (not merged into the parent's). */
  [key: string]: unknown;
}

/** A fresh summary. */
export function emptySummary(): SummaryData {
  return { status_counts: { success: 0, error: 0 } };
}

/** The summary of a call that ended with nothing in it but itself: shared and frozen (events are never changed). */
const LEAF_SUMMARY: Readonly<Record<CallOutcome, SummaryData>> = {
  success: leafSummary('success'),
  error: leafSummary('error'),
  cancelled: leafSummary('cancelled'),
};

function leafSummary(outcome: CallOutcome): SummaryData {
  const summary = countOutcome(emptySummary(), outcome);
  if (outcome === 'cancelled') summary.cancelled = true;
  Object.freeze(summary.status_counts);
  return Object.freeze(summary);
}

/**
 * The summary a call ends with, built from `own` (what its children merged in while it ran; `undefined`
 * when nothing did) and `extra` (its `summarize` fields, JSON-safe): its own outcome is counted in
 * `status_counts`, and the result is merged into `parent` (the summary of its parent, while that still
 * runs). A cancelled call also gets `cancelled: true`, its own only: the server derives
 * `summary.status: "cancelled"` from it. A call with nothing of its own ends with a shared frozen summary.
 */
export function closeSummary(
  own: SummaryData | undefined,
  outcome: CallOutcome,
  extra: Record<string, unknown> | undefined,
  parent: SummaryData | undefined,
): SummaryData {
  if (extra) applySummaryExtra((own ??= emptySummary()), extra);
  const summary = own === undefined ? LEAF_SUMMARY[outcome] : countOutcome(own, outcome);
  if (parent) mergeSummary(parent, summary);
  // Its own, not merged up (mergeSummary takes status counts and usage only).
  if (own !== undefined && outcome === 'cancelled') own.cancelled = true;
  return summary;
}

/** The summary of an interrupted call without children: nothing counted. */
const INTERRUPTED_LEAF: SummaryData = Object.freeze({ status_counts: Object.freeze({ success: 0, error: 0 }) });

/**
 * The summary a call ends with when the process exits while it runs: what its children merged in (its
 * `status_counts` unchanged: the call itself is not counted), also merged into `parent` while that runs.
 */
export function interruptedSummary(own: SummaryData | undefined, parent: SummaryData | undefined): SummaryData {
  if (own === undefined) return INTERRUPTED_LEAF;
  if (parent) mergeSummary(parent, own);
  return own;
}

/** Adds one call with `outcome` to `summary.status_counts`. */
function countOutcome(summary: SummaryData, outcome: CallOutcome): SummaryData {
  const counts = summary.status_counts;
  counts[outcome] = (counts[outcome] ?? 0) + 1;
  return summary;
}

/** Adds `from`'s status counts and usage into `into` (numbers are summed, per model and field). */
function mergeSummary(into: SummaryData, from: SummaryData): void {
  const counts = into.status_counts;
  counts.success += from.status_counts.success;
  counts.error += from.status_counts.error;
  if (from.status_counts.cancelled) counts.cancelled = (counts.cancelled ?? 0) + from.status_counts.cancelled;
  if (from.usage) addUsage(into, from.usage);
}

/** Adds usage numbers (per model, per field) into a summary. Non-numbers are ignored. */
function addUsage(into: SummaryData, usage: Record<string, Record<string, unknown>>): void {
  const target = (into.usage ??= {});
  for (const [model, fields] of Object.entries(usage)) {
    if (!fields || typeof fields !== 'object') continue;
    const m = (target[model] ??= {});
    for (const [k, v] of Object.entries(fields)) {
      if (typeof v === 'number' && Number.isFinite(v)) m[k] = (m[k] ?? 0) + v;
    }
  }
}

/** Adds `extra.usage` into `into.usage` and copies its other fields (except `status_counts`). */
function applySummaryExtra(into: SummaryData, extra: Record<string, unknown>): void {
  for (const key of Object.keys(extra)) {
    const v = extra[key];
    if (key === 'usage') {
      if (v !== null && typeof v === 'object') addUsage(into, v as Record<string, Record<string, unknown>>);
    } else if (key !== 'status_counts') {
      into[key] = v;
    }
  }
}
