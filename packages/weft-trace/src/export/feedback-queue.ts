/**
 * Feedback items queued by `addFeedback()`: serialized once and sent in batches to `POST /feedback/batch/create`.
 * @module
 */
import { utf8Length } from '../internal/runtime.js';
import type { Client } from '../api/client.js';
import { safeMessage } from '../internal/safe-message.js';
import type { FeedbackCreateReq } from '../schema/feedback.js';
import { Batcher, BODY_OVERHEAD_BYTES, type BatcherReport } from './batcher.js';
import type { Entry } from './entry.js';
import { FEEDBACK_ENDPOINT } from './batch-sender.js';
import { Delivery } from './delivery.js';
import type { ExportOptions } from './export-options.js';
import type { Reachability } from './reachability.js';
import { countDrop, stats } from './export-stats.js';

/**
 * The feedback side of the exporter: the same {@link Batcher} and {@link Delivery} (count, bytes and time triggers, caps,
 * `maxConcurrentRequests`) and the same retry policy as call events, on its own queue so a slow
 * feedback request never holds up calls. Feedback is kept in memory only (not spooled): what the
 * server never took after the retry budget is dropped and counted (`unreachable`).
 */
export class FeedbackQueue {
  private readonly batcher: Batcher;
  private readonly delivery: Delivery;

  constructor(client: Client, private readonly options: ExportOptions, reach?: Reachability) {
    this.delivery = new Delivery({ client, options, endpoint: FEEDBACK_ENDPOINT, reach });
    this.batcher = new Batcher(this.delivery, options);
  }

  /** Items buffered or in flight. */
  get pendingCount(): number {
    return this.batcher.pendingCount;
  }

  /** Serializes and queues one item; counts it as dropped when it cannot be (never throws). */
  add(item: FeedbackCreateReq): void {
    stats.queued++;
    let json: string;
    try {
      json = JSON.stringify(item);
    } catch (err) {
      return this.drop('invalid', `it could not be serialized: ${safeMessage(err)}`);
    }
    const entry: Entry = { json, bytes: utf8Length(json) };
    if (entry.bytes > this.options.maxBatchBytes - BODY_OVERHEAD_BYTES - 1) return this.drop('oversize', `it is larger than maxBatchBytes (${this.options.maxBatchBytes})`);
    if (!this.batcher.offer(entry, false)) this.drop('queue_full', `the memory queue is full (maxQueueItems ${this.options.maxQueueItems})`);
  }

  /** Sends what is buffered; resolves once it is delivered or given up on, or after `timeoutMs`. */
  flush(timeoutMs?: number): Promise<BatcherReport> {
    return this.batcher.flush(timeoutMs);
  }

  /** Aborts requests in flight; their items are dropped (`abandoned`, for `reason`). */
  abandon(reason?: string): void {
    this.batcher.abandon(reason);
  }

  private drop(reason: 'invalid' | 'oversize' | 'queue_full', why: string): void {
    countDrop(reason, 1, `a feedback item was dropped: ${why}`);
    this.delivery.count(1);
  }
}
