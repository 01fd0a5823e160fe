/**
 * Sends a disk spool now, outside the process that wrote it: the one core of `weft spool flush` and of the spool courier (`spool-courier.ts`), over the SDK's own `SpoolReplayer` and `BatchSender`.
 * @module
 */
import PQueue from 'p-queue';
import { Client } from '../api/client.js';
import { APIError } from '../api/core/api-errors.js';
import { unrefDelay } from '../internal/timers.js';
import type { Tally } from './batcher.js';
import type { Entry } from './entry.js';
import { BatchSender, type PostOutcome } from './batch-sender.js';
import { DEFAULT_EXPORT_OPTIONS, type ExportOptions } from './export-options.js';
import { Spool } from './spool.js';
import { SpoolReplayer } from './spool-replay.js';

/** What {@link flushSpoolDir} sends, where, and for how long. */
export interface SpoolFlushOptions {
  /** The spool directory. */
  dir: string;
  baseUrl: string;
  apiKey?: string | undefined;
  /**
   * Keeps trying (a new pass `retryMaxDelayMs` after a failed one) until the spool is empty or this time
   * (epoch ms) has come; then what is in flight is aborted and stays in the spool.
   * @defaultValue none: one pass, ending at the first batch the server did not take
   */
  deadlineAt?: number;
  /** Retry policy of each request. @defaultValue the exporter's (`maxRetries`, `retry*Ms` of the option table) */
  retries?: Partial<Pick<ExportOptions, 'maxRetries' | 'retryInitialDelayMs' | 'retryMaxDelayMs' | 'retryBudgetMs'>>;
}

/** What {@link flushSpoolDir} did. */
export interface SpoolFlushResult {
  /** Events the server took (`sent`) and refused as invalid (`dropped`). */
  tally: Tally;
  /** Whether the spool was found empty at the end. */
  drained: boolean;
  /** Why the last undelivered batch was not taken, if one was not. */
  error: unknown;
  /** Whether the server gave any HTTP answer (it exists at `baseUrl`). */
  answered: boolean;
}

/** A sender that remembers whether the server ever answered and why the last batch was not delivered. */
class WatchingSender extends BatchSender {
  lastError: unknown;
  answered = false;

  override async post(batch: Entry[], signal: AbortSignal): Promise<PostOutcome> {
    const out = await super.post(batch, signal);
    if (out.sent > 0 || out.dropped > 0 || (out.error instanceof APIError && out.error.status !== undefined)) this.answered = true;
    if (out.undelivered.length > 0) this.lastError = out.error;
    return out;
  }
}

/**
 * Replays the spool `dir` to `baseUrl`: one pass, or passes until it is empty or `deadlineAt`. Segments are
 * claimed by rename (`spool.ts`), so a process replaying the same spool meanwhile never sends the same file.
 * Never rejects for a server that is down; the result says what was sent.
 */
export async function flushSpoolDir({ dir, baseUrl, apiKey, deadlineAt, retries }: SpoolFlushOptions): Promise<SpoolFlushResult> {
  const options: ExportOptions = { ...DEFAULT_EXPORT_OPTIONS, ...retries };
  const client = new Client({ baseUrl, apiKey });
  const sender = new WatchingSender(client, options);
  const abort = new AbortController();
  const tally: Tally = { sent: 0, dropped: 0 };
  let drained = false;
  let onDrained = (): void => undefined;
  const empty = new Promise<void>((resolve) => (onDrained = resolve));
  const replayer = new SpoolReplayer({
    spool: new Spool(dir, Number.MAX_SAFE_INTEGER),
    sender,
    slots: new PQueue({ concurrency: options.maxConcurrentRequests }),
    signal: abort.signal,
    tally,
    limits: options,
    onDrained: () => {
      drained = true;
      onDrained();
    },
  });
  const keepAlive = setInterval(() => undefined, 60_000); // the sender's and the replayer's waits do not hold the process
  try {
    const pass = replayer.kick();
    await (deadlineAt === undefined ? pass : Promise.race([empty, unrefDelay(Math.max(0, deadlineAt - Date.now()))]));
  } finally {
    clearInterval(keepAlive);
    replayer.stop();
    abort.abort('the deadline passed');
    await replayer.current.catch(() => undefined); // an aborted batch's segment is given back to the spool
    await client.close();
  }
  return { tally, drained, error: sender.lastError, answered: sender.answered };
}
