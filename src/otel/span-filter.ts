/**
 * Which spans become calls: the span filter type, the default (Next.js framework spans only with GenAI or weft descendants) and the descendant bookkeeping.
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

/**
 * Span ids known to have a wanted descendant (a GenAI span or a weft call), waiting for those spans to end.
 * Children end before their parents, so a span that ends wanted (GenAI itself, or holding a wanted descendant)
 * marks its parent, and the mark climbs one level per ended span. At most `max` ids are held (the oldest go
 * first), so spans never ended cannot grow it without bound.
 */
export class WantedAncestors {
  private readonly ids = new Set<string>();

  constructor(private readonly max = 100_000) {}

  /** Notes that the span `spanId` has a wanted descendant; no-op for `undefined` (a root's parent). */
  mark(spanId: string | undefined): void {
    if (spanId === undefined || this.ids.has(spanId)) return;
    if (this.ids.size >= this.max) this.ids.delete(this.ids.values().next().value as string);
    this.ids.add(spanId);
  }

  /** True when `spanId` was marked; forgets it. */
  take(spanId: string): boolean {
    return this.ids.delete(spanId);
  }
}

const TRACKERS = Symbol.for('weft.otel.wantedAncestors');
type WithTrackers = typeof globalThis & { [TRACKERS]?: Set<WantedAncestors> };

/** The trackers of every live processor and exporter, shared by the ESM and CJS copies of weft. */
export function wantedTrackers(): Set<WantedAncestors> {
  const g = globalThis as WithTrackers;
  return (g[TRACKERS] ??= new Set());
}

/** Tells every processor that a weft call started inside the span `spanId` (so a filtered ancestor is kept). */
export function markWeftChild(spanId: string): void {
  for (const t of wantedTrackers()) t.mark(spanId);
}
