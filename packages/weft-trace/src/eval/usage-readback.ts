/**
 * Tokens and cost of a finished evaluation, read back from the server: the root call's summary usage (added up from every call beneath it) and `include_costs` prices.
 * @module
 */
import type { Client } from '../api/client.js';
import { getSink } from '../instrument/sink.js';
import { diag } from '../internal/diag.js';
import type { EvaluationSummary } from './summary.js';

/** Tokens added up over a summary's `usage` (per model) and USD over its `costs`; `null`s when the summary holds none. */
export function usageOf(summary: unknown): Pick<EvaluationSummary, 'tokens' | 'costUsd'> {
  const s = (summary ?? {}) as { usage?: Record<string, Record<string, unknown>>; costs?: Record<string, Record<string, unknown>> };
  const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  let tokens: EvaluationSummary['tokens'] = null;
  for (const u of Object.values(s.usage ?? {})) {
    tokens ??= { prompt: 0, completion: 0, total: 0 };
    const prompt = num(u['prompt_tokens']) || num(u['input_tokens']);
    const completion = num(u['completion_tokens']) || num(u['output_tokens']);
    tokens.prompt += prompt;
    tokens.completion += completion;
    tokens.total += num(u['total_tokens']) || prompt + completion;
  }
  const costs = Object.values(s.costs ?? {});
  return { tokens, costUsd: costs.length ? costs.reduce((sum, c) => sum + num(c['total_cost']), 0) : null };
}

/**
 * Flushes the run's calls, then reads its root call's usage and cost (one stream query). Never throws: on failure
 * (server unreachable) both stay `null`, with a debug line; so they do when the flush outlasts `flushTimeoutMs`.
 */
export async function readUsage(client: Client, project: string, rootId: string, flushTimeoutMs?: number): Promise<Pick<EvaluationSummary, 'tokens' | 'costUsd'>> {
  try {
    const flushed = await getSink()?.flush(flushTimeoutMs);
    if (flushed && flushed.pending > 0) return { tokens: null, costUsd: null };
    for await (const rec of client.calls.streamQuery({ project_id: project, filter: { call_ids: [rootId] }, include_costs: true, limit: 1 })) {
      return usageOf(rec.summary);
    }
  } catch (e) {
    diag.debug(`evaluate: tokens and cost not read back (${e instanceof Error ? e.message : String(e)})`);
  }
  return { tokens: null, costUsd: null };
}
