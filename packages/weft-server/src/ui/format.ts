/**
 * Display helpers: status icon and word, durations, token and cost totals of a call's summary (times: time.ts).
 * @module
 */
import type { CallRecord, Summary } from './api';

const STATUS: Record<Summary['status'], { icon: string; word: string }> = {
  success: { icon: '✓', word: 'success' },
  error: { icon: '✗', word: 'error' },
  descendant_error: { icon: '⚠', word: 'descendant error' },
  running: { icon: '◌', word: 'running' },
  cancelled: { icon: '⊘', word: 'cancelled' },
};

export function statusOf(s: Summary['status']): { icon: string; word: string } {
  return STATUS[s] ?? { icon: '?', word: s };
}

export function duration(ms: number | null): string {
  if (ms === null) return '…';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Total tokens over the models of `summary.usage`, or null when there is none. */
export function tokens(call: CallRecord): number | null {
  const usage = call.summary.usage;
  if (!usage) return null;
  let n = 0;
  for (const u of Object.values(usage)) n += u.total_tokens ?? (u.prompt_tokens ?? 0) + (u.completion_tokens ?? 0);
  return n;
}

/** Total cost in USD over `summary.costs`, or null when unknown. */
export function cost(call: CallRecord): number | null {
  const costs = call.summary.costs;
  if (!costs || Object.keys(costs).length === 0) return null;
  return Object.values(costs).reduce((sum, c) => sum + (c.total_cost ?? 0), 0);
}

export function usd(n: number): string {
  return n < 0.01 ? `$${n.toFixed(6)}` : `$${n.toFixed(4)}`;
}

export function callName(call: CallRecord): string {
  return call.display_name ?? shortOp(call.op_name);
}

/** `svc:///e/p/op/name:digest` → `name`; plain names as they are. */
export function shortOp(op: string): string {
  const m = /\/op\/([^:]+)(:.*)?$/.exec(op);
  return m?.[1] ?? op;
}

/** A score for people: up to 3 decimals. */
export const fmt = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : String(Math.round(v * 1000) / 1000));

/** A size in bytes as people read it: `512 B`, `3.4 KB`, `1.2 MB`. */
export function bytesText(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
