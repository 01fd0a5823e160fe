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
  flush(timeoutMs?: number): Promise<{ pending: number; spooled: number }>;
  abandon(reason?: string): void;
  /** Resolves once every send so far was refused its connection and the service never answered (nothing listens at the URL). */
  whenRefused?(): Promise<Refusal>;
  /**
   * The spool's exit line (where the unsent events are, how to send them), the service's marker, and the spool
   * courier, which sends what was spooled until `deadlineAt` (epoch ms): its pid, or `undefined`.
   */
  readonly exitNotes?: { readonly spoolHint: string | undefined; forgetServer(): void; handOff(deadlineAt: number, apiKey: string | undefined): number | undefined };
  /** The API key the courier sends with (`init()` sets it). */
  readonly connection?: { readonly apiKey: string | undefined } | undefined;
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
 * Flushes `t` within the deadline (a server that answered before and refuses now may be restarting); then
 * aborts what is left and waits briefly for it to be spooled. When the service never answered (every
 * connection refused, here and, by the spool's marker, in earlier processes), gives up at once instead and
 * hands the spool to the spool courier, which keeps sending it until the same deadline (`courier-launch.ts`).
 * One line says how many events were not sent, why, where they are and how to send them now (or, with the
 * spool off, the drop warning says why). Keeps the process alive meanwhile (the exporter's own retry waits
 * do not). Never rejects.
 */
async function drain(t: Flushable, when: string): Promise<void> {
  const exitAt = Date.now();
  const keepAlive = setTimeout(() => undefined, deadlineMs + AFTER_ABANDON_MS);
  try {
    const refused = t.whenRefused?.() ?? new Promise<never>(() => undefined);
    const first = await Promise.race([t.flush(deadlineMs), refused]);
    let why: string | undefined;
    if ('url' in first) why = `every connection to ${first.url} was refused ${when} (${first.cause}), so weft did not wait exitTimeoutMs`;
    else if (first.pending > 0 || t.pendingCount > 0) {
      why = `the server did not take them ${when} within ${deadlineMs} ms (exitTimeoutMs)`;
      t.exitNotes?.forgetServer();
    }
    let spooled = 'url' in first ? 0 : first.spooled;
    if (why !== undefined) {
      t.abandon(why);
      spooled = (await t.flush(AFTER_ABANDON_MS)).spooled;
    }
    const hint = t.exitNotes?.spoolHint;
    if (!hint || spooled === 0) return;
    // gave up at once: a server starting now is still sent everything, by a courier, within exitTimeoutMs
    const courier = 'url' in first ? t.exitNotes?.handOff(exitAt + deadlineMs, t.connection?.apiKey) : undefined;
    const meanwhile = courier === undefined ? '' : `; meanwhile a background process (weft's spool courier, pid ${courier}) tries to send them for up to ${deadlineMs} ms (exitTimeoutMs)`;
    diag.warn(`${spooled} event(s) not sent: ${why ?? 'they were spooled while the server was away, and not replayed yet'}; they are ${hint}${meanwhile}`);
  } catch (err) {
    diag.warn(`flush ${when} failed: ${safeMessage(err)}`);
  } finally {
    clearTimeout(keepAlive);
  }
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
