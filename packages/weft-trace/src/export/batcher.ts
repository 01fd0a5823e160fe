/**
 * The export batcher: holds serialized events in memory within caps, cuts batches by count, bytes or time, and sends them through a p-queue.
 * @module
 */
import { CallOrder } from './call-order.js';
import type { Entry } from './entry.js';
import type { BatcherOptions } from './export-options.js';
import { stats } from './export-stats.js';
import { unrefTimeout, unrefDelay } from '../internal/timers.js';

/** Events sent and dropped so far (a delivery's counters). */
export interface Tally {
  sent: number;
  dropped: number;
}

/**
 * Where a batcher hands its batches (see `delivery.ts`): sends them, spills or drops what the server
 * never took, and counts. The batcher only calls it, never the other way round.
 */
export interface BatchDelivery {
  /** Sent and dropped so far, replays and drops outside the batcher included. */
  readonly tally: Readonly<Tally>;
  /** Sends one batch; resolves with its events the server never took (already spooled or dropped). Never rejects. */
  send(batch: Entry[]): Promise<readonly Entry[]>;
  /** A batch settled with every event taken; `pending` events are still in memory (buffered or in flight). */
  settled?(pending: number): void;
  /** Ends that must follow their undelivered start (into the spool, or dropped), never sent from memory. */
  follow?(ends: Entry[]): void;
  /** Aborts the requests in flight (their events are spooled or dropped). */
  abandon(reason?: string): void;
}

/** What the batcher reports, in events: sent and dropped so far, pending now. */
export interface BatcherReport extends Tally {
  pending: number;
}

/** Construction options of a {@link Batcher} beyond its delivery and caps. */
export interface BatcherExtras {
  /** Keep each call's end behind its start across batches in flight side by side (`call-order.ts`). @defaultValue false */
  keepCallOrder?: boolean;
}

/** Bytes a request body adds around its events (`{"batch":[` ... `]}`); each event adds a comma. */
export const BODY_OVERHEAD_BYTES = 16;

/** Share of the memory caps kept for events admitted with `reserved` (end events of started calls). */
const RESERVED_SHARE = 0.1;

/**
 * Holds events in memory and hands them to its {@link BatchDelivery} in batches, in the background.
 * Generic over what an event is: the delivery decides the endpoint and the body around the serialized
 * events. With `keepCallOrder` it owns the order gate: a batch being cut holds back the ends whose start
 * is in a batch still in flight, sends them once that batch settled, or hands them to the delivery to
 * follow a start the server never took.
 */
export class Batcher {
  private buffer: Entry[] = [];
  private bufferBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private pending = 0;
  private pendingBytes = 0;
  /** flush() calls waiting: ends released by a settled batch are sent at once. */
  private flushing = 0;
  /** The order gate, with `keepCallOrder`. */
  private readonly order: CallOrder | undefined;

  constructor(private readonly delivery: BatchDelivery, private readonly options: BatcherOptions, extras: BatcherExtras = {}) {
    this.order = extras.keepCallOrder ? new CallOrder() : undefined;
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
    this.order?.offered(entry);
    this.pending++;
    this.pendingBytes += entry.bytes;
    stats.queueItems++;
    stats.queueBytes += entry.bytes;
    this.cutWhenDue();
    return true;
  }

  /**
   * Whether the call's start is in memory and not settled, or was lost and its end not seen yet: its
   * end must then go through memory too, where it is kept behind the start (`keepCallOrder` only).
   */
  holdsStart(callId: string): boolean {
    return this.order?.holdsStart(callId) ?? false;
  }

  /**
   * Takes back ends the gate released (still counted as pending): they join the buffer, and are
   * sent at once while a flush() waits.
   * @returns the delivery of the batch sent now, if one was.
   */
  private requeue(entries: readonly Entry[]): Promise<void> | undefined {
    if (entries.length === 0) return undefined;
    for (const e of entries) {
      this.buffer.push(e);
      this.bufferBytes += e.bytes + 1;
    }
    return this.flushing > 0 ? this.sendNow() : this.cutWhenDue();
  }

  /** Stops counting events as pending: a batch settled, or ends held out of one that follow their start. */
  private forget(entries: readonly Entry[]): void {
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
   * Sends what is buffered, then aborts the requests in flight: the delivery spools or drops their events.
   * @param reason - why, for the drop warning; the signal's `reason`. @defaultValue the exit deadline passed
   */
  abandon(reason?: string): void {
    this.sendNow();
    this.delivery.abandon(reason);
  }

  /** Counters so far: the delivery's, and what is pending here. */
  report(): BatcherReport {
    const { sent, dropped } = this.delivery.tally;
    return { sent, dropped, pending: this.pending };
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
    if (this.order) {
      const cut = this.order.cut(buffered);
      batch = cut.batch;
      if (cut.behind.length > 0) this.divert(cut.behind);
    }
    if (batch.length === 0) return undefined;
    // the follow-up is sent after the delivery's request slot is free, so it never waits for a slot its own batch holds
    const delivery = this.delivery.send(batch).then(
      (lost) => this.settle(batch, lost),
      () => this.forget(batch), // a delivery never rejects; should one, its events are no longer pending
    );
    this.inFlight.add(delivery);
    void delivery.finally(() => this.inFlight.delete(delivery));
    return delivery;
  }

  /**
   * A batch came back from the delivery: its events are no longer pending; the ends held behind its
   * starts are sent now, or follow a start the server never took.
   * @returns the delivery of the ends sent now, if any (waited for by flush()).
   */
  private settle(batch: Entry[], lost: readonly Entry[]): Promise<void> | undefined {
    if (lost.length === 0) this.delivery.settled?.(this.pending);
    this.forget(batch);
    if (!this.order) return undefined;
    const held = this.order.settle(batch, lost);
    const next = this.requeue(held.send);
    if (held.behind.length > 0) this.divert(held.behind); // after the starts they follow
    return next;
  }

  /** Ends whose start the server never took leave memory and follow it. */
  private divert(ends: Entry[]): void {
    this.forget(ends);
    this.delivery.follow?.(ends);
  }
}
