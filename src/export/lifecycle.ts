/**
 * Process lifecycle: flush pending events when the event loop empties (`beforeExit`), within a deadline.
 * @module
 */
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';

/** Something that can be flushed, knows whether it holds events, and can give up on them. */
export interface Flushable {
  readonly pendingCount: number;
  flush(timeoutMs?: number): Promise<{ pending: number }>;
  abandon(): void;
}

let installed = false;
let current: Flushable | undefined;
let deadlineMs = 10_000;

/**
 * Makes `target` the exporter flushed at `beforeExit`, for at most `timeoutMs`; what is still not
 * sent then is given up on (in-flight requests are aborted) so the process can exit. The listener
 * is added once per process and flushes only while events are pending, so it ends when the work is done.
 */
export function flushOnExit(target: Flushable | undefined, timeoutMs = deadlineMs): void {
  current = target;
  deadlineMs = timeoutMs;
  if (installed) return;
  installed = true;
  process.on('beforeExit', () => {
    const t = current;
    if (!t || t.pendingCount === 0) return;
    t.flush(deadlineMs).then(
      (report) => {
        if (report.pending === 0 && t.pendingCount === 0) return;
        diag.warn(`gave up on ${t.pendingCount} unsent call event(s) at exit after ${deadlineMs} ms (exitTimeoutMs)`);
        t.abandon();
      },
      (err: unknown) => diag.warn(`flush at exit failed: ${safeMessage(err)}`),
    );
  });
}
