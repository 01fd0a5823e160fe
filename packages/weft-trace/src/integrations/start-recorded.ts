/**
 * Starting a wrapper's call as `op()` would: sampling, the parent context (a framework run's too), and the model-request rule.
 * @module
 */
import { startCall, type ActiveCall } from '../instrument/active-call.js';
import type { TraceContext } from '../instrument/context.js';
import { parentContext } from '../instrument/framework-context.js';
import type { OpDefinition } from '../instrument/op-definition.js';
import { getSink } from '../instrument/sink.js';
import { sampled } from '../instrument/trace-call.js';
import { getTraceSettings } from '../instrument/trace-settings.js';
import { noteProviderRequest } from './model-request-once.js';

/**
 * Starts a call of `op` under `parent` (sampling as `op()` does), or returns `undefined` when nothing is recorded
 * (before `init()`, tracing disabled, an unsampled trace, or a root left out by sampling). `startedAtMs` dates its
 * start (a framework span that began before weft was told of it), else now.
 */
export function startUnder(op: OpDefinition, args: unknown[], parent: TraceContext | undefined, startedAtMs?: number): ActiveCall | undefined {
  const sink = getSink();
  if (sink == null) return undefined;
  if (parent?.unsampled) return undefined;
  const settings = getTraceSettings();
  if (parent?.call === undefined && !sampled(settings.sampleRate)) return undefined;
  return startCall(op, args, sink, settings, parent, undefined, startedAtMs);
}

/**
 * Starts a provider wrapper's model request in the running context (or the framework run it runs inside), telling
 * a framework model run it is under that the request is recorded here (`model-request-once.ts`).
 */
export function startRecorded(op: OpDefinition, args: unknown[]): ActiveCall | undefined {
  const parent = parentContext(args);
  const active = startUnder(op, args, parent);
  if (active !== undefined) noteProviderRequest(parent?.call);
  return active;
}
