/**
 * The call exporter: the CallSink that serializes start/end events, holds them in memory or in the disk spool, and sends them in batches.
 * @module
 */
import { setTimeout as timeUp } from 'node:timers/promises';
import type { Client } from '../api/client.js';
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import type { EndedCallSchemaForInsert, StartedCallSchemaForInsert } from '../schema/calls.js';
import type { FeedbackCreateReq } from '../schema/feedback.js';
import type { CallSink, ExportReport } from '../instrument/sink.js';
import { Batcher, type Delivery, type Entry } from './batcher.js';
import { callEventEntry } from './call-entry.js';
import { CallOrder } from './call-order.js';
import { BatchSender } from './batch-sender.js';
import { DEFAULT_EXPORT_OPTIONS, type ExportOptions } from './export-options.js';
import { FeedbackQueue } from './feedback-queue.js';
import { Reachability, type Refusal } from './reachability.js';
import { Spill } from './spill.js';
import { countDrop, stats, warnUnreportedDrops, type DropReason } from './export-stats.js';

/**
 * Events staged (handed over, not yet serialized) at which they are serialized and queued on the
 * caller's stack instead of on the next turn of the event loop: a bound on the memory a loop that never
 * yields can hold unserialized (the memory caps apply once events are serialized).
 */
const STAGE_MAX = 16_384;

/**
 * Time the background drain serializes and queues staged events in one turn of the event loop, ms:
 * then the loop gets a turn before the next slice, so a burst of calls never holds it for long at once
 * (issue 16 item 4: the loop's p99 delay while exporting). A slice bounded by a count instead took
 * 1-2 ms or far more depending on the machine's load and the events' size. flush() drains all.
 */
const DRAIN_SLICE_MS = 1;

/** Events serialized between two looks at the clock while draining. */
const DRAIN_CLOCK_EVERY = 32;

/**
 * Sends call events to `POST /call/upsert_batch` through its own `client`. Events go to memory; with
 * a `spoolDir`, those memory cannot hold and batches undelivered after the retry budget go to the
 * disk spool, and from then on every new event too, until the spool is replayed. An exporter
 * replaced by a later `init()` (its `predecessor`) keeps accepting the end events of calls it
 * started, and is flushed with its successor until none of its calls are open and nothing of it is pending.
 */
export class CallExporter implements CallSink {
  private readonly options: ExportOptions;
  private readonly batcher: Batcher;
  /** Keeps each call's end behind its start across batches in flight side by side. */
  private readonly order = new CallOrder();
  private readonly sender: BatchSender;
  private readonly feedbackQueue: FeedbackQueue;
  /** The spool (when `spoolDir` is set), its replayer, and whether new events go to it. */
  private readonly spill: Spill;
  /** What the senders saw of the service: the first-failure warning, refusals. */
  private readonly reach: Reachability;
  private closed = false;
  private openCalls = 0;
  /** Root calls that started here and have not ended (tracked only for `flushMode`/`waitUntil`). */
  private readonly roots = new Set<string>();
  /** Calls whose start was dropped, so their end is dropped too, for the same reason. */
  private readonly droppedStarts = new Map<string, DropReason>();
  /** Events handed over and not yet serialized, in order (see {@link CallExporter.stage}). */
  private staged: (StartedCallSchemaForInsert | EndedCallSchemaForInsert)[] = [];
  private drainScheduled = false;
  private readonly drainStaged = (): void => {
    try {
      this.drain(DRAIN_SLICE_MS);
    } catch (err) {
      diag.warn(`could not queue call events: ${safeMessage(err)}`); // never an uncaught error in the user's process
    }
  };

  constructor(
    private readonly client: Client,
    readonly projectId: string,
    readonly userId: string | undefined,
    options: Partial<ExportOptions> = {},
    private predecessor: CallExporter | undefined = undefined,
  ) {
    this.options = { ...DEFAULT_EXPORT_OPTIONS, ...options };
    const order = this.order;
    const gate = { offered: (e: Entry) => order.offered(e), cut: (b: Entry[]) => order.cut(b), divert: (ends: Entry[]) => this.follow(ends) };
    this.batcher = new Batcher((batch, signal) => this.deliver(batch, signal), this.options, gate);
    const spoolDir = this.options.spoolDir;
    this.reach = new Reachability(client.baseUrl, spoolDir ? `written to the spool in ${spoolDir}, which a later process with the same spoolDir sends` : 'dropped (set spoolDir or WEFT_SPOOL_DIR to keep them on disk)');
    this.sender = new BatchSender(client, this.options, undefined, this.reach);
    this.feedbackQueue = new FeedbackQueue(client, this.options, this.reach);
    this.spill = new Spill(this.sender, this.batcher, this.options, (reason, count, why) => this.drop(reason, count, why));
  }

  /** Events staged, buffered or in flight, here and in predecessors. */
  get pendingCount(): number {
    return this.staged.length + this.batcher.pendingCount + this.feedbackQueue.pendingCount + (this.predecessor?.pendingCount ?? 0);
  }

  /** Told of each call start before it is queued (the first-trace viewer link, `viewer-link-notice.ts`). */
  onStart: ((start: StartedCallSchemaForInsert) => void) | undefined;

  start(start: StartedCallSchemaForInsert): void {
    this.onStart?.(start);
    this.stage(start);
  }

  end(end: EndedCallSchemaForInsert): void {
    this.stage(end);
  }

  /** Queues a feedback item for `POST /feedback/batch/create` (see `addFeedback()`); dropped after shutdown. */
  feedback(item: FeedbackCreateReq): void {
    if (!this.closed) return this.feedbackQueue.add(item);
    stats.queued++;
    this.drop('shutdown', 1, 'weft was shut down');
  }

  /**
   * Keeps an event to serialize and queue after the caller's code has run: on the next turn of the
   * event loop, at the next flush, or at once when {@link STAGE_MAX} are waiting or the staged and
   * queued events reach `maxQueueItems` (the item cap holds for both), so op() does not pay
   * for JSON on the caller's stack. Safe because op() never changes an event after handing it over
   * (the CallSink contract). With `flushMode: 'immediate'` or `waitUntil`, events are queued at once,
   * so a root call's end triggers its flush before the caller goes on.
   */
  private stage(event: StartedCallSchemaForInsert | EndedCallSchemaForInsert): void {
    if (this.tracksRoots) return this.take(event);
    const staged = this.staged;
    staged.push(event); // unwrapped: fewer objects held until the drain
    stats.queueItems++;
    if (staged.length >= STAGE_MAX || staged.length + this.batcher.pendingCount >= this.options.maxQueueItems) this.drain();
    else if (!this.drainScheduled) {
      this.drainScheduled = true;
      setImmediate(this.drainStaged);
    }
  }

  /**
   * Serializes and queues the staged events, in order: all of them, or those it gets to within
   * `budgetMs` (then the rest on a later turn of the event loop).
   */
  private drain(budgetMs = Infinity): void {
    this.drainScheduled = false;
    const items = this.staged;
    if (items.length === 0) return;
    this.staged = []; // events staged meanwhile (by a toJSON making a traced call) go after these
    const until = budgetMs === Infinity ? Infinity : performance.now() + budgetMs;
    let i = 0;
    while (i < items.length) {
      const end = Math.min(items.length, i + DRAIN_CLOCK_EVERY);
      stats.queueItems -= end - i;
      for (; i < end; i++) this.take(items[i]!);
      if (i < items.length && performance.now() >= until) break;
    }
    if (i === items.length) return;
    this.staged = this.staged.length === 0 ? items.slice(i) : [...items.slice(i), ...this.staged];
    if (!this.drainScheduled) {
      this.drainScheduled = true;
      setImmediate(this.drainStaged);
    }
  }

  /** Queues one event (an end event is told apart by its required `ended_at`). */
  private take(event: StartedCallSchemaForInsert | EndedCallSchemaForInsert): void {
    if ('ended_at' in event) this.takeEnd(event);
    else this.takeStart(event);
  }

  private takeStart(start: StartedCallSchemaForInsert): void {
    this.openCalls++;
    const dropped = this.accept('start', start, false);
    if (dropped && start.id) this.droppedStarts.set(start.id, dropped);
    else if (this.tracksRoots && start.id && (start.parent_id === undefined || start.parent_id === null)) this.roots.add(start.id);
  }

  private takeEnd(end: EndedCallSchemaForInsert): void {
    this.openCalls--;
    const startDropped = this.droppedStarts.get(end.id);
    if (startDropped) {
      this.droppedStarts.delete(end.id);
      stats.queued++;
      this.drop(startDropped, 1, 'the start of the call was dropped');
      return;
    }
    this.accept('end', end, true);
    if (this.roots.delete(end.id)) this.rootEnded();
  }

  /**
   * Sends what is buffered here and in predecessors, writes the spool to disk, and replays it when
   * the server answers; resolves with this exporter's counters. Never rejects.
   */
  async flush(timeoutMs?: number): Promise<ExportReport> {
    const deadline = timeoutMs === undefined ? undefined : timeUp(timeoutMs, undefined, { ref: false });
    this.drain();
    const [, report, feedback] = await Promise.all([
      this.predecessor?.flush(timeoutMs),
      this.batcher.flush(timeoutMs),
      this.feedbackQueue.flush(timeoutMs),
    ]);
    this.prune();
    warnUnreportedDrops();
    const { spool, replayer } = this.spill;
    if (spool && replayer) {
      spool.sync();
      if (this.spill.spooling && !replayer.backingOff && !this.closed) void replayer.kick();
      const replayed = replayer.current.catch(() => undefined);
      await (deadline === undefined ? replayed : Promise.race([replayed, deadline]));
    }
    const { sent, dropped } = this.batcher.report();
    return { sent: sent + feedback.sent, dropped: dropped + feedback.dropped, spooled: this.spill.spool?.backlog ?? 0, pending: report.pending + feedback.pending };
  }

  /** Flushes, then refuses new events and closes the spool's open segment, here and in predecessors. */
  async shutdown(timeoutMs?: number): Promise<ExportReport> {
    const [, report] = await Promise.all([this.predecessor?.shutdown(timeoutMs), this.flush(timeoutMs)]);
    this.closed = true;
    this.spill.replayer?.stop();
    this.spill.spool?.close();
    return report;
  }

  /**
   * Aborts requests in flight (their events are spooled, or dropped without a spool), here and in predecessors.
   * @param reason - why, for the drop warning. @defaultValue the exit deadline passed
   */
  abandon(reason?: string): void {
    this.drain();
    this.predecessor?.abandon(reason);
    this.batcher.abandon(reason);
    this.feedbackQueue.abandon(reason);
  }

  /** Resolves once every export request so far was refused its connection (at once if already so); never rejects. */
  whenRefused(): Promise<Refusal> {
    return this.reach.whenRefused();
  }

  /** The disk spool's directory, when there is one. */
  get spoolDir(): string | undefined {
    return this.spill.spool ? this.options.spoolDir : undefined;
  }

  private get tracksRoots(): boolean {
    return this.options.flushMode === 'immediate' || this.options.waitUntil !== undefined;
  }

  /** Serializes and queues one event; returns why it was dropped, or `undefined` when kept. */
  private accept(mode: 'start' | 'end', event: StartedCallSchemaForInsert | EndedCallSchemaForInsert, reserved: boolean): DropReason | undefined {
    stats.queued++;
    if (this.closed) return this.afterShutdown(mode, event, reserved);
    if (!this.spill.spool && this.batcher.isFull(reserved)) return this.queueFull();
    const entry = this.entryOf(mode, event);
    if (!entry) return this.drop('oversize', 1, `an event could not be serialized under maxBatchBytes (${this.options.maxBatchBytes})`);
    // an end whose start is still in memory goes through memory too, where it is kept behind its start
    const viaMemory = !this.spill.spooling || (entry.call?.end === true && this.order.holdsStart(entry.call.id));
    if (viaMemory && this.batcher.offer(entry, reserved)) return undefined;
    if (!this.spill.spool) return this.queueFull();
    this.spill.spooling = true;
    if (this.spill.append([entry], false) === 1 || this.batcher.offer(entry, reserved)) return undefined; // a full spool falls back to memory
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

  private drop(reason: DropReason, count: number, why: string): DropReason {
    countDrop(reason, count, why);
    this.batcher.count({ dropped: count });
    return reason;
  }

  /**
   * Sends a batch from memory; what the server never took is spooled (then new events are too), or
   * dropped. Ends held back behind the batch's starts are then sent, or follow their undelivered start.
   */
  private async deliver(batch: Entry[], signal: AbortSignal): Promise<Delivery> {
    const out = await this.sender.post(batch, signal);
    const held = this.order.settle(batch, out.undelivered);
    const next = this.batcher.requeue(held.send);
    const result = this.spill.undelivered(out, signal);
    if (held.behind.length > 0) this.follow(held.behind); // after the starts they follow
    return { ...result, next };
  }

  /** Ends whose start the server never took leave memory and follow it (into the spool, or dropped). */
  private follow(ends: Entry[]): void {
    this.batcher.forget(ends);
    this.spill.follow(ends);
  }

  private rootEnded(): void {
    if (this.options.flushMode === 'immediate') this.batcher.sendNow();
    const waitUntil = this.options.waitUntil;
    if (!waitUntil) return;
    try {
      waitUntil(this.flush());
    } catch (err) {
      diag.warn(`waitUntil threw: ${safeMessage(err)}`);
    }
  }

  /** Forgets a predecessor that has no open calls and nothing pending, and closes its connections. */
  private prune(): void {
    const p = this.predecessor;
    if (!p) return;
    p.prune();
    if (p.openCalls > 0 || p.pendingCount > 0) return;
    this.predecessor = p.predecessor;
    void p.client.close().catch(() => undefined);
  }
}
