/**
 * Ends a wrapAISDK stream operation's call when the AI SDK calls none of its callbacks: every consumer stopped reading early, or the stream failed.
 * @module
 */
import type { ActiveCall } from '../instrument/active-call.js';
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import { readThrough } from './read-through.js';

type Obj = Record<string, unknown>;

/**
 * Folds the operation's `onChunk` parts into what a call cancelled early records: the text (and reasoning) seen so
 * far, as `outputOf` reads a finished result. Used as the op's `streamReducer`, fed by `ActiveCall.chunk`.
 */
export function seenSoFar(accumulated: unknown, chunk: unknown): unknown {
  const seen = { ...((accumulated ?? {}) as Obj) };
  const c = (chunk ?? {}) as Obj;
  const delta = typeof c['text'] === 'string' ? c['text'] : typeof c['delta'] === 'string' ? c['delta'] : undefined;
  if (delta === undefined) return seen;
  const key = c['type'] === 'text-delta' ? 'text' : c['type'] === 'reasoning-delta' ? 'reasoningText' : undefined;
  if (key) seen[key] = `${typeof seen[key] === 'string' ? seen[key] : ''}${delta}`;
  return seen;
}

/**
 * Watches the streams a `streamText` / `streamObject` result hands out (each projection and response helper of `ai` 6
 * and 7 takes its own branch through the result's `teeStream()`), because the SDK then calls none of `onFinish`,
 * `onError` or `onAbort` when the stream fails mid-way (a cut connection) or every consumer stops reading early
 * (`break` out of `textStream`): the call fails with the stream's error, or, once every branch handed out was
 * cancelled, ends as cancelled with what it had seen. The result is returned as it is (the same object, its
 * `teeStream` shadowed on the instance); a result without `teeStream` is left alone. Never throws.
 */
export function watchStreamResult<R>(result: R, active: ActiveCall): R {
  try {
    const r = result as Obj | null;
    const tee = r?.['teeStream'];
    if (r === null || typeof r !== 'object' || typeof tee !== 'function') return result;
    let open = 0;
    const cancelled = (): void => {
      open -= 1;
      if (open === 0) active.cancel();
    };
    Object.defineProperty(r, 'teeStream', {
      configurable: true,
      writable: true,
      value: function teeStream(this: unknown, ...args: unknown[]): unknown {
        const branch = (tee as (...a: unknown[]) => unknown).apply(this, args);
        if (!(branch instanceof ReadableStream)) return branch;
        open += 1;
        // highWaterMark 0: read only as the consumer reads, so a consumer that stops stops it
        return readThrough(branch, { failed: (err) => active.fail(err), cancelled }, 0);
      },
    });
  } catch (err) {
    diag.warn(`wrapAISDK: could not watch a stream result: ${safeMessage(err)}`);
  }
  return result;
}
