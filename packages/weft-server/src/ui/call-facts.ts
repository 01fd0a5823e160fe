/**
 * What a call cost, in the few words a tree row or a list row shows: whether it is a model call, its model(s),
 * tokens and cost, and a one-line preview of its inputs or output. Pure.
 * @module
 */

/** The fields read. */
export interface BriefCall {
  summary: Record<string, unknown> & { usage?: Record<string, unknown>; costs?: Record<string, unknown> };
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A model call: one the wrappers or the OTel mapping gave response facts (`gen_ai.response.model`), or a leaf with a
 * time to first token or usage of its own. A model run whose requests are calls below it (an AI SDK `generateText` /
 * `streamText` over its steps) has usage and may have a time to first token, merged or measured over them, but is not
 * one: its steps are, so a run of two requests shows two model calls.
 */
export function isLlmCall(call: BriefCall, childCount: number): boolean {
  if (call.summary['gen_ai.response.model'] !== undefined) return true;
  if (childCount > 0) return false;
  return call.summary['time_to_first_token_ms'] !== undefined || (isObj(call.summary.usage) && Object.keys(call.summary.usage).length > 0);
}

/** The models of `summary.usage`, joined; '' when none. */
export function modelsOf(call: BriefCall): string {
  return isObj(call.summary.usage) ? Object.keys(call.summary.usage).join(', ') : '';
}

/** Tokens as `1.2k`, `3.4M`. */
export function shortCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** The first line of the first text in `value` (depth first: a string, a message's content, any string field), cut at `max` chars. */
export function preview(value: unknown, max = 80): string {
  const text = firstText(value, 0);
  const line = (text ?? (value === null || value === undefined ? '' : JSON.stringify(value) ?? '')).trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function firstText(v: unknown, depth: number): string | undefined {
  if (typeof v === 'string') return v.trim() === '' ? undefined : v;
  if (depth > 6 || v === null || typeof v !== 'object') return undefined;
  if (Array.isArray(v)) {
    // the last message of a conversation is the one that asks
    for (let i = v.length - 1; i >= 0; i -= 1) {
      const t = firstText(v[i], depth + 1);
      if (t !== undefined) return t;
    }
    return undefined;
  }
  const o = v as Record<string, unknown>;
  for (const k of ['content', 'text', 'question', 'query', 'prompt', 'input', 'messages', 'output', 'answer']) {
    if (k in o) {
      const t = firstText(o[k], depth + 1);
      if (t !== undefined) return t;
    }
  }
  for (const [k, x] of Object.entries(o)) {
    if (k === 'model' || k === 'role' || k === 'id' || k === 'type') continue;
    const t = firstText(x, depth + 1);
    if (t !== undefined) return t;
  }
  return undefined;
}
