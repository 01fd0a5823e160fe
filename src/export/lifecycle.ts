/**
 * Process lifecycle: flush pending events when the event loop empties (`beforeExit`), so short scripts lose nothing.
 * @module
 */
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';

/** Something that can be flushed and knows whether it holds events. */
export interface Flushable {
  readonly pendingCount: number;
  flush(timeoutMs?: number): Promise<unknown>;
}

let installed = false;
let current: Flushable | undefined;

/**
 * Makes `target` the exporter flushed at `beforeExit`. The listener is added once per process;
 * it flushes only while events are pending, so it ends when the work is done.
 */
export function flushOnExit(target: Flushable | undefined): void {
  current = target;
  if (installed) return;
  installed = true;
  process.on('beforeExit', () => {
    const t = current;
    if (!t || t.pendingCount === 0) return;
    t.flush().catch((err: unknown) => diag.warn(`flush at exit failed: ${safeMessage(err)}`));
  });
}
