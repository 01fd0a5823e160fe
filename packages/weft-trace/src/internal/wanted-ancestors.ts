/**
 * Span ids with a wanted descendant (a GenAI span or a weft call), shared by the OTel span processors (`otel/`) and the context hook that marks weft calls (`instrument/otel-hook.ts`).
 * @module
 */

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
