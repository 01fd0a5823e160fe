/**
 * Ends a call: records its output (with summary fields) or exception, counts its outcome, and queues the end event.
 * @module
 */
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import type { Call, CallOutcome } from './call.js';
import { captureOutput, captureSummary, describeError } from './capture.js';
import type { OpDefinition } from './op-definition.js';
import type { CallSink } from './sink.js';
import { applySummaryExtra } from './summary.js';
import type { TraceSettings } from './trace-settings.js';

/**
 * Ends `call` once with `value` (success, cancelled) or `err` (error); never throws. `omittedChunks`
 * (streams over `maxStreamChunks`) adds a `"[truncated N chunks]"` marker to a recorded array output,
 * after `postprocessOutput` and `summarize` saw the kept chunks alone.
 */
export function endCall(
  sink: CallSink,
  meta: OpDefinition,
  call: Call,
  settings: TraceSettings,
  outcome: CallOutcome,
  value: unknown,
  err: unknown,
  omittedChunks = 0,
): void {
  if (call.ended) return;
  try {
    let output: unknown;
    let exception: ReturnType<typeof describeError> | undefined;
    if (outcome === 'error') {
      exception = describeError(err, settings);
    } else {
      output = captureOutput(meta, value, settings);
      if (omittedChunks > 0 && Array.isArray(output)) output = [...output, `[truncated ${omittedChunks} chunks]`];
      const extra = captureSummary(meta, value, settings);
      if (extra) applySummaryExtra(call.summary, extra);
    }
    const end = call.end(output, exception, outcome);
    if (end) sink.end(end);
  } catch (e) {
    diag.warn(`could not end a call of op "${meta.name}": ${safeMessage(e)}`);
  }
}
