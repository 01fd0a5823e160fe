/**
 * Process lifecycle: at `beforeExit` and, opt-in, on SIGTERM/SIGINT, end the calls still running as interrupted and flush pending events within a deadline.
 * @module
 */
import { interruptOpenCalls } from '../instrument/open-calls.js';
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import { INIT_OPTIONS } from '../init-option-table.js';
import type { Refusal } from './reachability.js';

/** Something that can be flushed, knows whether it holds events, and can give up on them. */
export interface Flushable {
  readonly pendingCount: number;
  /** The disk spool's directory, when there is one. */
  readonly spoolDir?: string;
  flush(timeoutMs?: number): Promise<{ pending: number; spooled: number }>;
  abandon(reason?: string): void;
  /** Resolves once every send so far was refused its connection (nothing listens at the URL). */
  whenRefused?(): Promise<Refusal>;
}

/** Time given to aborted requests to hand their events to the spool after the deadline, in ms. */
const AFTER_ABANDON_MS = 1_000;
const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

let installed = false;
let current: Flushable | undefined;
let deadlineMs: number = INIT_OPTIONS.exitTimeoutMs.default;
let signalsWanted = false;

/**
 * Makes `target` the exporter flushed at `beforeExit` (and on SIGTERM/SIGINT when `handleSignals`),
 * for at most `timeoutMs`, after the calls still running are ended as interrupted (`WeftInterrupted`;
 * on a signal only when no listener of the program's own will handle it); what is still not sent then is given up on (in-flight requests are
 * aborted; their events go to the spool when there is one) so the process can exit. The
 * `beforeExit` listener is added once per process and flushes only while events are pending.
 */
export function flushOnExit(target: Flushable | undefined, timeoutMs = deadlineMs, handleSignals = false): void {
  current = target;
  deadlineMs = timeoutMs;
  setSignalHandlers(target !== undefined && handleSignals);
  // no process to exit (Cloudflare Workers without nodejs_compat, Vercel Edge): the platform's waitUntil(flush()) sends
  if (installed || typeof (globalThis as { process?: { on?: unknown } }).process?.on !== 'function') return;
  installed = true;
  process.on('beforeExit', () => {
    const t = current;
    if (!t) return;
    interruptOpenCalls('beforeExit');
    if (t.pendingCount === 0) return;
    void drain(t, 'at exit');
  });
}

/**
 * Flushes `t` within the deadline; then aborts what is left and waits briefly for it to be spooled.
 * When every connection was refused (nothing listens at the URL), gives up at once instead of waiting
 * for the deadline, saying how many events were not sent and where they went. Keeps the process alive
 * meanwhile (the exporter's own retry waits do not). Never rejects.
 */
async function drain(t: Flushable, when: string): Promise<void> {
  const keepAlive = setTimeout(() => undefined, deadlineMs + AFTER_ABANDON_MS);
  try {
    const refused = t.whenRefused?.() ?? new Promise<never>(() => undefined);
    const first = await Promise.race([t.flush(deadlineMs), refused]);
    if ('url' in first) return await giveUpRefused(t, when, first);
    if (first.pending === 0 && t.pendingCount === 0) return;
    diag.warn(`gave up on ${t.pendingCount} unsent event(s) ${when} after ${deadlineMs} ms (exitTimeoutMs)`);
    t.abandon();
    await t.flush(AFTER_ABANDON_MS);
  } catch (err) {
    diag.warn(`flush ${when} failed: ${safeMessage(err)}`);
  } finally {
    clearTimeout(keepAlive);
  }
}

/**
 * Gives up on what `t` holds without waiting for the exit deadline: nothing listens at the URL, so no
 * retry can succeed. Events go to the spool (then one line says so) or are dropped (the drop warning
 * says so, with this reason).
 */
async function giveUpRefused(t: Flushable, when: string, refusal: Refusal): Promise<void> {
  const unsent = t.pendingCount;
  if (unsent === 0) return;
  const why = `every connection to ${refusal.url} was refused ${when} (${refusal.cause}), so weft did not wait exitTimeoutMs`;
  t.abandon(why);
  const report = await t.flush(AFTER_ABANDON_MS);
  if (t.spoolDir && report.spooled > 0) diag.warn(`${unsent} event(s) not sent: ${why}; they are in the spool ${t.spoolDir}, sent by the next process with the same spoolDir`);
}

/**
 * On SIGTERM or SIGINT: removes weft's handlers, flushes (within `exitTimeoutMs`), then, unless the
 * program has listeners of its own for that signal (they decide what happens, as without weft),
 * raises the signal again so its default action (terminating the process) takes place.
 */
function onSignal(signal: NodeJS.Signals): void {
  setSignalHandlers(false);
  const t = current;
  const reraise = () => {
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  if (!t) return reraise();
  // Only when the process is about to die of it: a program with its own listener decides that itself.
  if (process.listenerCount(signal) === 0) interruptOpenCalls(signal);
  void drain(t, `on ${signal}`).finally(reraise);
}

function setSignalHandlers(on: boolean): void {
  if (on === signalsWanted || typeof (globalThis as { process?: { on?: unknown } }).process?.on !== 'function') return;
  signalsWanted = on;
  for (const s of SIGNALS) {
    if (on) process.on(s, onSignal);
    else process.removeListener(s, onSignal);
  }
}
