/**
 * The sampling counters of this process (`getExportStats().sampling`), shared by every copy of weft.
 * @module
 */
import { exportStatsSlot } from './stats-slot.js';

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

/** The live counters (TraceSampler updates them): the `sampling` field of the registry's export counters. */
export const samplingStats = (exportStatsSlot()['sampling'] ??= { keptTraces: 0, sampledOutTraces: 0, sampledOutCalls: 0, overBoundTraces: 0 } satisfies SamplingStats) as SamplingStats;
