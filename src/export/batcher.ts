/**
 * The export batcher: buffers call events, cuts batches by count or time, and sends them through a p-queue.
 * @module
 */
import PQueue from 'p-queue';
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import type { UpsertBatchItem } from '../schema/calls.js';
import type { ExportReport } from '../instrument/runtime.js';
import type { BatcherOptions } from './batcher-options.js';

/**
 * Sends one batch. Resolves with the number of its events that were refused as invalid (and so not
 * stored); rejects when the batch was not delivered at all. `signal` aborts the request.
 */
export type SendBatch = (items: UpsertBatchItem[], signal: AbortSignal) => Promise<number>;

/** What `flush()` and `shutdown()` report, in events (the same shape as `ExportReport`). */
export type FlushReport = ExportReport;

/** Buffers events and sends them in batches in the background. Never throws into its callers. */
export class Batcher {
  private buffer: UpsertBatchItem[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly queue: PQueue;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private pending = 0;
  private sent = 0;
  private dropped = 0;
  private closed = false;
  private lastWarnAt = 0;

  constructor(private readonly send: SendBatch, private readonly options: BatcherOptions) {
    this.queue = new PQueue({ concurrency: options.maxConcurrentRequests });
  }

  /** Events buffered or in flight. */
  get pendingCount(): number {
    return this.pending;
  }

  /** Queues one event; drops it (counted, with a warning) when shut down or over `maxQueueItems`. */
  enqueue(item: UpsertBatchItem): void {
    if (this.closed || this.pending >= this.options.maxQueueItems) {
      this.drop(1, this.closed ? 'weft was shut down' : `the queue is full (${this.options.maxQueueItems} events)`);
      return;
    }
    this.buffer.push(item);
    this.pending++;
    if (this.buffer.length >= this.options.maxBatchItems) this.cut();
    else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.cut(), this.options.flushIntervalMs);
      this.timer.unref();
    }
  }

  /**
   * Sends everything buffered and resolves once every event queued before the call is acknowledged
   * or given up on (events queued meanwhile are not waited for), or after `timeoutMs` (then
   * `pending` in the report is non-zero).
   */
  async flush(timeoutMs?: number): Promise<FlushReport> {
    this.cut();
    const waiting = Promise.all([...this.inFlight]).then(() => undefined);
    if (timeoutMs === undefined) await waiting;
    else await raceTimeout(waiting, timeoutMs);
    return this.report();
  }

  /** Flushes, then refuses new events. */
  async shutdown(timeoutMs?: number): Promise<FlushReport> {
    const report = await this.flush(timeoutMs);
    this.closed = true;
    return report;
  }

  /** Aborts the requests in flight and gives up on every pending event (counted as dropped). */
  abandon(): void {
    this.cut();
    this.abort.abort();
  }

  /** Counters so far. */
  report(): FlushReport {
    return { sent: this.sent, dropped: this.dropped, pending: this.pending };
  }

  private cut(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    const delivery = this.queue.add(() => this.deliver(batch));
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
  }

  private async deliver(batch: UpsertBatchItem[]): Promise<void> {
    try {
      if (this.abort.signal.aborted) throw new Error('abandoned');
      const refused = await this.send(batch, this.abort.signal);
      this.sent += batch.length - refused;
      if (refused > 0) this.drop(refused, 'the events were invalid');
    } catch (err) {
      this.drop(batch.length, `sending failed: ${safeMessage(err)}`);
    } finally {
      this.pending -= batch.length;
    }
  }

  /** Counts dropped events; warns at most once per 10 s so a full queue cannot flood the log. */
  private drop(count: number, why: string): void {
    this.dropped += count;
    const now = Date.now();
    if (now - this.lastWarnAt < 10_000) return;
    this.lastWarnAt = now;
    diag.warn(`dropped ${count} call event(s): ${why} (${this.dropped} dropped so far)`);
  }
}

function raceTimeout(p: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref();
    void p.then(() => {
      clearTimeout(t);
      resolve();
    });
  });
}
