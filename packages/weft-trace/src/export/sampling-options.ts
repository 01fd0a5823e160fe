/**
 * The `sampling` option of `init()`: a head rate decided per trace id, and the tail rules that keep a whole trace.
 * @module
 */

/** `init({ sampling })`: which traces are sent. A trace is sent whole or not at all. */
export interface SamplingOptions {
  /**
   * Fraction of traces sent, 0 to 1, decided from the trace id (so every process of a trace agrees; see
   * `keptByRate`). A trace the tail rules keep is sent whatever this says. @defaultValue 1
   */
  rate?: number;
  /** Keep every trace in which a call failed (recorded an exception). @defaultValue true */
  keepErrors?: boolean;
  /** Keep every trace in which a call took longer than this many milliseconds (minimum 0). @defaultValue none */
  keepSlowerThanMs?: number;
  /** Keep every trace in which a call carries one of these attribute keys (at its top level). @defaultValue none */
  keepAttributes?: string[];
  /**
   * Calls held in memory while their traces wait for a decision (all traces together; minimum 1). The trace whose
   * call goes over it is sent at once, whole so far, and counted in `getExportStats().sampling.overBoundTraces`.
   * @defaultValue 10000
   */
  maxHeldCalls?: number;
}

/** The resolved sampling settings. */
export interface SamplingConfig {
  readonly rate: number;
  readonly keepErrors: boolean;
  readonly keepSlowerThanMs: number | undefined;
  readonly keepAttributes: readonly string[];
  readonly maxHeldCalls: number;
}

/** The settings `options` resolve to (their defaults filled in). */
export function samplingConfig(options: SamplingOptions): SamplingConfig {
  return {
    rate: options.rate ?? 1,
    keepErrors: options.keepErrors ?? true,
    keepSlowerThanMs: options.keepSlowerThanMs,
    keepAttributes: options.keepAttributes ?? [],
    maxHeldCalls: options.maxHeldCalls ?? 10_000,
  };
}

/** True when a rule may keep a trace the rate leaves out (so its calls are held until it ends). */
export function hasTailRules(c: SamplingConfig): boolean {
  return c.keepErrors || c.keepSlowerThanMs !== undefined || c.keepAttributes.length > 0;
}
