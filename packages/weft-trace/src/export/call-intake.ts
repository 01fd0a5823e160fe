/**
 * Takes one call event into the export queue: serialized once, then into memory, the disk spool, or counted as dropped (and so is the end of a call whose start was dropped).
 * @module
 */
import type { EndedCallSchemaForInsert, StartedCallSchemaForInsert } from '../schema/calls.js';
import type { Batcher } from './batcher.js';
import type { Entry } from './entry.js';
import { callEventEntry } from './call-entry.js';
import type { Delivery } from './delivery.js';
import type { ExportOptions } from './export-options.js';
import { countDrop, stats, type DropReason } from './export-stats.js';

/**
 * The exporter's admission rules, in front of its {@link Batcher} and {@link Delivery}: memory while
 * it has room and nothing is spooled; the spool once memory is full or the server was away (an end
 * whose start is in memory follows it through memory); dropped and counted otherwise.
 */
export class CallIntake {
  /** Set by the exporter's shutdown(): new calls are refused, ends of started ones still sent. */
  closed = false;
  /** Calls whose start was dropped, so their end is dropped too, for the same reason. */
  private readonly droppedStarts = new Map<string, DropReason>();

  constructor(private readonly batcher: Batcher, private readonly delivery: Delivery, private readonly options: ExportOptions) {}

  /** Takes a start; `true` when it was kept (in memory or the spool). */
  start(start: StartedCallSchemaForInsert): boolean {
    const dropped = this.accept('start', start, false);
    if (dropped && start.id) this.droppedStarts.set(start.id, dropped);
    return dropped === undefined;
  }

  /** Takes an end; dropped at once, for the same reason, when its start was. */
  end(end: EndedCallSchemaForInsert): void {
    const startDropped = this.droppedStarts.get(end.id);
    if (!startDropped) {
      this.accept('end', end, true);
      return;
    }
    this.droppedStarts.delete(end.id);
    stats.queued++;
    this.drop(startDropped, 1, 'the start of the call was dropped');
  }

  /** Counts `count` events as dropped for `reason`, globally and in the exporter's report. */
  drop(reason: DropReason, count: number, why: string): DropReason {
    countDrop(reason, count, why);
    this.delivery.count(count);
    return reason;
  }

  /** Serializes and queues one event; returns why it was dropped, or `undefined` when kept. */
  private accept(mode: 'start' | 'end', event: StartedCallSchemaForInsert | EndedCallSchemaForInsert, reserved: boolean): DropReason | undefined {
    stats.queued++;
    if (this.closed) return this.afterShutdown(mode, event, reserved);
    const spool = this.delivery.hasSpool;
    if (!spool && this.batcher.isFull(reserved)) return this.queueFull();
    const entry = this.entryOf(mode, event);
    if (!entry) return this.drop('oversize', 1, `an event could not be serialized under maxBatchBytes (${this.options.maxBatchBytes})`);
    // an end whose start is still in memory goes through memory too, where it is kept behind its start
    const viaMemory = !this.delivery.spooling || (entry.call?.end === true && this.batcher.holdsStart(entry.call.id));
    if (viaMemory && this.batcher.offer(entry, reserved)) return undefined;
    if (!spool) return this.queueFull();
    if (this.delivery.spoolEntry(entry) || this.batcher.offer(entry, reserved)) return undefined; // a full spool falls back to memory
    return this.drop('spool_full', 1, `the spool is full (spoolMaxBytes ${this.options.spoolMaxBytes}) and so is the memory queue`);
  }

  /**
   * After `shutdown()`, new calls are not recorded, but the end of a call already started is still
   * sent (at once, in memory only), so it does not stay `running` on the server for good.
   */
  private afterShutdown(mode: 'start' | 'end', event: StartedCallSchemaForInsert | EndedCallSchemaForInsert, reserved: boolean): DropReason | undefined {
    if (!reserved) return this.drop('shutdown', 1, 'weft was shut down');
    const entry = this.entryOf(mode, event);
    if (!entry || !this.batcher.offer(entry, true)) return this.drop('shutdown', 1, 'weft was shut down and the memory queue is full');
    this.batcher.sendNow();
    return undefined;
  }

  /** The event written once as its batch item's JSON (see `call-entry.ts`). */
  private entryOf(mode: 'start' | 'end', event: StartedCallSchemaForInsert | EndedCallSchemaForInsert): Entry | undefined {
    const max = this.options.maxBatchBytes;
    return mode === 'start' ? callEventEntry('start', event as StartedCallSchemaForInsert, max) : callEventEntry('end', event as EndedCallSchemaForInsert, max);
  }

  private queueFull(): DropReason {
    return this.drop('queue_full', 1, `the memory queue is full (maxQueueItems ${this.options.maxQueueItems}, maxQueueBytes ${this.options.maxQueueBytes})`);
  }
}
