/**
 * Settings of the instrumentation set by init(): sampling, serialization limits, redaction, mask, stream chunks.
 * @module
 */
import { getGlobal } from '../internal/global.js';
import { DEFAULT_SERIALIZE_CONFIG, type SerializeConfig } from './serialize.js';

/** What op() reads on every call, resolved once by `init()`. */
export interface TraceSettings {
  /** Fraction of traces recorded, 0..1, decided at each root call. */
  readonly sampleRate: number;
  /** Serialization limits and the redacted keys. */
  readonly serialize: SerializeConfig;
  /** Runs on recorded inputs and outputs; its result is recorded instead. */
  readonly mask: ((value: unknown) => unknown) | undefined;
  /** Chunks of a stream kept as its output. */
  readonly maxStreamChunks: number;
}

/** Stream chunks kept as a call's output when neither `init()` nor the op says otherwise. */
export const DEFAULT_MAX_STREAM_CHUNKS = 1000;

/** Settings in effect before `init()`. */
export const DEFAULT_TRACE_SETTINGS: TraceSettings = {
  sampleRate: 1,
  serialize: DEFAULT_SERIALIZE_CONFIG,
  mask: undefined,
  maxStreamChunks: DEFAULT_MAX_STREAM_CHUNKS,
};

/** The registry's settings slot, which this module owns (typed here: the registry sits below it). */
const g = getGlobal() as { settings: TraceSettings | undefined };

/** The settings in effect (shared by every copy of weft in the process). */
export function getTraceSettings(): TraceSettings {
  return g.settings ?? DEFAULT_TRACE_SETTINGS;
}

/** Installs the settings `init()` resolved. */
export function setTraceSettings(settings: TraceSettings): void {
  g.settings = settings;
}
