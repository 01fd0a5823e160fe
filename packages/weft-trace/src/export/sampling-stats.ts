/**
 * The sampling counters of this process (`getExportStats().sampling`), shared by every copy of weft.
 * @module
 */

/** What `init({ sampling })` decided since the process started, in traces unless named otherwise. */
export interface SamplingStats {
  /** Traces sent (by the rate or a tail rule). */
  keptTraces: number;
  /** Traces left out: none of their calls was sent. */
  sampledOutTraces: number;
  /** Calls of the traces left out. */
  sampledOutCalls: number;
  /** Traces sent before their decision because the calls held went over `maxHeldCalls`. */
  overBoundTraces: number;
}

const KEY = Symbol.for('weft.samplingStats');
const g = globalThis as Record<symbol, SamplingStats | undefined>;

/** The live counters (TraceSampler updates them). */
export const samplingStats: SamplingStats = (g[KEY] ??= { keptTraces: 0, sampledOutTraces: 0, sampledOutCalls: 0, overBoundTraces: 0 });
