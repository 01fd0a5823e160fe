/**
 * Which spans become calls: the span filter type, and the default (Next.js framework spans only with GenAI or weft descendants; the descendant bookkeeping: internal/wanted-ancestors.ts).
 * @module
 */
import type { SpanRecord } from './span-record.js';

/**
 * A filter's answer for one span: `true` keep, `false` drop, `'if-descendants'` keep only when a GenAI span
 * or a weft call is among its descendants.
 */
export type SpanFilterDecision = boolean | 'if-descendants';

/** Decides per span; called at the span's start (its start attributes) and again at its end. Must not throw. */
export type SpanFilter = (span: SpanRecord) => SpanFilterDecision;

/** Attribute prefixes that mark a span as GenAI (any convention of the precedence table). */
const GENAI_PREFIXES = ['gen_ai.', 'llm.', 'ai.', 'traceloop.', 'openinference.'];

/** True when the span carries attributes of a GenAI convention. */
export function isGenAiSpan(span: SpanRecord): boolean {
  for (const key in span.attributes) {
    for (const p of GENAI_PREFIXES) if (key.startsWith(p)) return true;
  }
  return false;
}

/**
 * The default filter: Next.js framework spans (those with a `next.span_name` attribute, which Next.js puts on
 * every span it makes) are kept only when they have a GenAI or weft descendant; every other span is kept.
 */
export const defaultSpanFilter: SpanFilter = (span) => (span.attributes['next.span_name'] === undefined ? true : 'if-descendants');
