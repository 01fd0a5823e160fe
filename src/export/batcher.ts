/**
 * The export batcher: holds serialized events in memory within caps, cuts batches by count, bytes or time, and sends them through a p-queue.
 * @module
 */
import PQueue from 'p-queue';
import { safeMessage } from '../internal/safe-message.js';
import type { BatcherOptions } from './export-options.js';
import { countDrop, stats } from './export-stats.js';
import { unrefTimeout, unrefDelay } from '../internal/timers.js';

/** One event, serialized once: `json` is sent (or spooled) as is; `bytes` is its UTF-8 length. */
export interface Entry {
  readonly json: string;
  readonly bytes: number;
  /** For a call event with an id: which call, and whether it is the end (kept behind its start). */
  readonly call?: { readonly id: string; readonly end: boolean };
}

/** What became of a batch's events (those neither sent nor dropped were spooled by the sender). */
export interface Delivery {
  sent: number;
  dropped: number;
  /** The delivery of events the sender gave back with {@link Batcher.requeue} and that are sent now: waited for by flush(). */
  next?: Promise<void>;
}

/**
 * Decides which buffered events a batch being cut may hold (see `call-order.ts`): the others are
 * given back later with {@link Batcher.requeue}, or handed to `divert` as `behind` (not sent from memory).
 */
export interface BatchGate {
  offered(entry: Entry): void;
  cut(buffer: Entry[]): { batch: Entry[]; behind: Entry[] };
  /** Takes events that must not be sent from memory (still counted as pending: call {@link Batcher.forget}). */
  divert(entries: Entry[]): void;
}

/**
 * Sends one batch and says what became of its events. Should not reject; a rejection counts the
 * batch as dropped (`abandoned`). `signal` aborts the request (exit deadline).
 */
export type SendBatch = (batch: Entry[], signal: AbortSignal) => Promise<Delivery>;

/** What the batcher reports, in events: sent and dropped so far, pending now. */
export interface BatcherReport extends Delivery {
  pending: number;
}

/** Bytes a request body adds around its events (`{"batch":[` ... `]}`); each event adds a comma. */
export const BODY_OVERHEAD_BYTES = 16;

/** Share of the memory caps kept for events admitted with `reserved` (end events of started calls). */
const RESERVED_SHARE = 0.1;

/**
 * Holds events in memory and sends them in batches in the background. Generic over what an event
 * is: the sender decides the endpoint and the body around the serialized events.
 */
export class Batcher {
  private buffer: Entry[] = [];
  private bufferBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly queue: PQueue;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private pending = 0;
  private pendingBytes = 0;
  private readonly tally: Delivery = { sent: 0, dropped: 0 };
  /** flush() calls waiting: events given back meanwhile are sent at once. */
  private flushing = 0;

  constructor(private readonly send: SendBatch, private readonly options: BatcherOptions, private readonly gate?: BatchGate) {
    this.queue = new PQueue({ concurrency: options.maxConcurrentRequests });
  }

  /** Events buffered or in flight. */
  get pendingCount(): number {
    return this.pending;
  }

  /**
   * Takes one event into memory unless that would pass `maxQueueItems` or `maxQueueBytes`; events
   * not `reserved` may use only the first 90% of each cap. Never throws.
   * @returns `false` when the event was not taken (the caller spools or drops it).
   */
  offer(entry: Entry, reserved: boolean): boolean {
    if (this.isFull(reserved)) return false;
    const share = reserved ? 1 : 1 - RESERVED_SHARE;
    if (this.pendingBytes + entry.bytes > this.options.maxQueueBytes * share) return false;
    const framed = entry.bytes + 1;
    if (this.buffer.length > 0 && this.bufferBytes + framed > this.options.maxBatchBytes - BODY_OVERHEAD_BYTES) this.sendNow();
    this.buffer.push(entry);
    this.bufferBytes += framed;
    this.gate?.offered(entry);
    this.pending++;
    this.pendingBytes += entry.bytes;
    stats.queueItems++;
    stats.queueBytes += entry.bytes;
    this.cutWhenDue();
    return true;
  }

  /**
   * Takes back events held out of a batch by the gate (still counted as pending): they join the
   * buffer, and are sent at once while a flush() waits.
   * @returns the delivery of the batch sent now, if one was.
   */
  requeue(entries: readonly Entry[]): Promise<void> | undefined {
    if (entries.length === 0) return undefined;
    for (const e of entries) {
      this.buffer.push(e);
      this.bufferBytes += e.bytes + 1;
    }
    return this.flushing > 0 ? this.sendNow() : this.cutWhenDue();
  }

  /** Stops counting events as pending: a batch settled, or events held out of one that the sender spooled or dropped. */
  forget(entries: readonly Entry[]): void {
    const bytes = entries.reduce((n, e) => n + e.bytes, 0);
    this.pending -= entries.length;
    this.pendingBytes -= bytes;
    stats.queueItems -= entries.length;
    stats.queueBytes -= bytes;
  }

  private cutWhenDue(): Promise<void> | undefined {
    if (this.buffer.length >= this.options.maxBatchItems || this.bufferBytes > this.options.maxBatchBytes - BODY_OVERHEAD_BYTES) return this.sendNow();
    if (this.timer === undefined) {
      this.timer = unrefTimeout(() => this.sendNow(), this.options.flushIntervalMs);
    }
    return undefined;
  }

  /** Whether an event would be refused for the item cap alone (checked before serializing it). */
  isFull(reserved: boolean): boolean {
    return this.pending + 1 > this.options.maxQueueItems * (reserved ? 1 : 1 - RESERVED_SHARE);
  }

  /** Adds outcomes decided outside a delivery (e.g. events dropped instead of queued, or replayed) to the report. */
  count(outcome: Partial<Delivery>): void {
    this.tally.sent += outcome.sent ?? 0;
    this.tally.dropped += outcome.dropped ?? 0;
  }

  /** Runs `task` in the request queue, so it counts against `maxConcurrentRequests`. */
  run<T>(task: () => Promise<T>): Promise<T> {
    return this.queue.add(task);
  }

  /**
   * Sends everything buffered and resolves once every event queued before the call is delivered,
   * spooled or given up on (events queued meanwhile are not waited for), or after `timeoutMs`
   * (then `pending` in the report is non-zero); the timer does not keep the process alive. Never rejects.
   */
  async flush(timeoutMs?: number): Promise<BatcherReport> {
    this.flushing++;
    try {
      this.sendNow();
      const delivered = Promise.all(this.inFlight).catch(() => undefined);
      await (timeoutMs === undefined ? delivered : Promise.race([delivered, unrefDelay(timeoutMs)]));
    } finally {
      this.flushing--;
    }
    return this.report();
  }

  /**
   * Aborts the requests in flight and gives up on every pending event (the sender spools or drops them).
   * @param reason - why, for the drop warning; the signal's `reason`. @defaultValue the exit deadline passed
   */
  abandon(reason?: string): void {
    this.sendNow();
    this.abort.abort(reason);
  }

  /** Aborted by {@link abandon}. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Counters so far. */
  report(): BatcherReport {
    return { ...this.tally, pending: this.pending };
  }

  /**
   * Cuts the buffer into a batch and queues it for sending now.
   * @returns its delivery, which also waits for the events the sender gave back and sent meanwhile.
   */
  sendNow(): Promise<void> | undefined {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.buffer.length === 0) return undefined;
    const buffered = this.buffer;
    this.buffer = [];
    this.bufferBytes = 0;
    let batch = buffered;
    if (this.gate) {
      const cut = this.gate.cut(buffered);
      batch = cut.batch;
      if (cut.behind.length > 0) this.gate.divert(cut.behind);
    }
    if (batch.length === 0) return undefined;
    // the follow-up is awaited outside the queue task, so it never waits for a slot its own batch holds
    const delivery = this.queue.add(() => this.deliver(batch)).then((out) => out?.next);
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
    return delivery;
  }

  private async deliver(batch: Entry[]): Promise<{ next?: Promise<void> } | undefined> {
    try {
      const delivery = await this.send(batch, this.abort.signal);
      this.count(delivery);
      return delivery.next && { next: delivery.next };
    } catch (err) {
      this.count({ dropped: batch.length });
      countDrop('abandoned', batch.length, `sending failed: ${safeMessage(err)}`);
      return undefined;
    } finally {
      this.forget(batch);
    }
  }
}
