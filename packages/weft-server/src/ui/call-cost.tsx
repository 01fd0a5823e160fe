/**
 * What a call cost, drawn: in a tree row, a model call's badge, model, tokens and cost; a root's totals (its
 * rolled-up usage); the trace's totals in its header.
 * @module
 */
import type { CallRecord } from './api';
import { isLlmCall, modelsOf, shortCount } from './call-facts';
import { cost, tokens, usd } from './format';

/**
 * The meta of one tree row: `LLM gpt-4o · 1.3k tok · $0.0004` for a model call, `Σ · 2.6k tok · $0.0009` for a root.
 * Each piece is a span of its own: the styles keep the tag, tokens and cost whole and let only the model's name
 * ellipsize (after the call's name has, styles.css).
 */
export function CallCost({ call, childCount, root }: { call: CallRecord; childCount: number; root: boolean }) {
  const llm = isLlmCall(call, childCount);
  if (!llm && !root) return null;
  const tok = tokens(call);
  const c = cost(call);
  if (!llm && tok === null && c === null) return null;
  const model = llm ? modelsOf(call) : '';
  const pieces = [model ? ` ${model}` : '', tok !== null ? ` · ${shortCount(tok)} tok` : '', c !== null ? ` · ${usd(c)}` : ''];
  return (
    <span class="cmeta" data-llm={llm ? 'true' : undefined} title={`${llm ? 'model call' : "the trace's totals"}:${pieces.join('')}`}>
      {llm ? <span class="llm-badge">LLM</span> : <span>Σ</span>}
      {pieces[0] ? <span class="cmodel">{pieces[0]}</span> : null}
      {pieces[1] ? <span>{pieces[1]}</span> : null}
      {pieces[2] ? <span>{pieces[2]}</span> : null}
    </span>
  );
}

/** Tokens and cost of the roots, summed, for the trace header. */
export function TraceTotals({ roots }: { roots: readonly CallRecord[] }) {
  let tok: number | null = null;
  let usdTotal: number | null = null;
  for (const r of roots) {
    const t = tokens(r);
    const c = cost(r);
    if (t !== null) tok = (tok ?? 0) + t;
    if (c !== null) usdTotal = (usdTotal ?? 0) + c;
  }
  if (tok === null && usdTotal === null) return null;
  return <span class="trace-totals">{tok !== null ? `${shortCount(tok)} tokens` : ''}{usdTotal !== null ? ` · ${usd(usdTotal)}` : ''}</span>;
}
