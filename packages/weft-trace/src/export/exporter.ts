/**
 * The call exporter: the CallSink that serializes start/end events, holds them in memory or in the disk spool, and sends them in batches.
 * @module
 */
import { runSoon, unrefDelay } from '../internal/timers.js';
import type { Client } from '../api/client.js';
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import type { EndedCallSchemaForInsert, StartedCallSchemaForInsert } from '../schema/calls.js';
import type { FeedbackCreateReq } from '../schema/feedback.js';
import type { CallSink, ExportReport } from '../instrument/sink.js';
import { Batcher } from './batcher.js';
import { CallIntake } from './call-intake.js';
import { Delivery } from './delivery.js';
import { DEFAULT_EXPORT_OPTIONS, type ExportOptions } from './export-options.js';
import { FeedbackQueue } from './feedback-queue.js';
import type { Reachability, Refusal } from './reachability.js';
import { stats, warnUnreportedDrops } from './export-stats.js';
import { ServiceNotes } from './service-notes.js';
import { FileUploader } from './file-uploader.js';
import type { MediaOptions } from '../init-media-option.js';
import { afterBlobReads, blobReadsDone } from '../instrument/media-value.js';

/**
 * Heap bytes one staged event (handed over, not yet serialized) is taken to hold, for the bound on the staged events:
 * a start of `op((x) => x)` is about 300 bytes with its ids, time and inputs, an end about 250.
 */
const STAGED_EVENT_BYTES = 512;

/** Events a drain forced by the staging bound ({@link CallExporter.stageMax}) takes, oldest first: one such pause stays short (a few ms). */
const STAGE_SLICE = 16_384;

/**
 * Time the background drain serializes and queues staged events in one turn of the event loop, ms: then
 * the loop gets a turn, so a burst of calls never holds it for long (issue 31 point 5: the loop's p99 delay
 * at most 1 ms over tracing off; half is left to the traced calls' own cost in the producer's turn). A
 * count-bounded slice took 1-2 ms or far more with the machine's load and the events' size. flush() drains all.
 */
const DRAIN_SLICE_MS = 0.5;

/** Events already taken from the front of the staged list past which it is copied without them (see `drain`). */
const STAGED_COMPACT_AT = 4096;

/** Events serialized between two looks at the clock while draining. */
const DRAIN_CLOCK_EVERY = 32;

/** What a {@link CallExporter} is made of. */
export interface CallExporterOptions {
  /** Its own client (closed once the exporter is replaced and idle). */
  client: Client;
  /** The project every event belongs to, `<entity>/<project>`. */
  projectId: string;
  /** `svc_user_id` of the calls, if any. */
  userId?: string | undefined;
  /** Caps, batching, retries and spool (`init()`'s options). @defaultValue the option table's defaults */
  options?: Partial<ExportOptions>;
  /** The exporter this one replaces (a later `init()`), flushed with it until idle. */
  predecessor?: CallExporter | undefined;
  /** Limits of the media files sent ahead of the calls; `undefined`: no media files (`init({ media: false })`). */
  media?: MediaOptions | undefined;
}

/**
 * Sends call events to `POST /call/upsert_batch` through its own `client`. Events go to memory; with
 * a `spoolDir`, those memory cannot hold and batches undelivered after the retry budget go to the
 * disk spool, and from then on every new event too, until the spool is replayed. An exporter
 * replaced by a later `init()` (its `predecessor`) keeps accepting the end events of calls it
 * started, and is flushed with its successor until none of its calls are open and nothing of it is pending.
 */
export class CallExporter implements CallSink {
  readonly projectId: string;
  readonly userId: string | undefined;
  private readonly client: Client;
  private readonly options: ExportOptions;
  /** Memory: caps, batch cuts, and each call's end kept behind its start. */
  private readonly batcher: Batcher;
  /** Sends batches, spools (when `spoolDir` is set) what memory cannot hold or the server never took, replays. */
  private readonly delivery: Delivery;
  private readonly feedbackQueue: FeedbackQueue;
  /** Where each event goes: memory, the spool, or dropped. */
  private readonly intake: CallIntake;
  /** Sends the media files of the calls, ahead of their batches; `undefined` with media off. */
  readonly files: FileUploader | undefined;
  private predecessor: CallExporter | undefined;
  /** What the senders saw of the service: the first-failure warning, refusals. */
  private readonly reach: Reachability;
  /** The service's marker in the spool directory, and what the exit says about the spool (`lifecycle.ts`). */
  readonly exitNotes: ServiceNotes;
  private closed = false;
  private openCalls = 0;
  /** Root calls that started here and have not ended (tracked only for `flushMode`/`waitUntil`). */
  private readonly roots = new Set<string>();
  /** Events handed over, in order (see {@link CallExporter.stage}); those from {@link CallExporter.stagedAt} on are not yet serialized. */
  private staged: (StartedCallSchemaForInsert | EndedCallSchemaForInsert | undefined)[] = [];
  /** Where the events not yet serialized start in {@link CallExporter.staged}. */
  private stagedAt = 0;
  /**
   * Events staged past which the oldest are serialized and queued on the caller's stack, {@link STAGE_SLICE} at a
   * time, instead of on a later turn of the event loop: a bound on the memory a loop that never yields holds
   * unserialized, taken from the memory budget (`maxQueueBytes` / {@link STAGED_EVENT_BYTES}: 524,288 events at 256
   * MiB), so a burst of up to half as many calls pays no JSON in its own turn. Issue 47: at 16,384 a burst of 200,000
   * calls cost 3.7x its p50 per call on average, the caller serializing every event; done after the burst, in the
   * drain's slices, the same work costs about 8% more CPU.
   */
  private readonly stageMax: number;
  private drainScheduled = false;
  /** A drain is taking staged events (see `drain`). */
  private draining = false;
  private readonly drainStaged = (): void => {
    if (afterBlobReads(this.drainStaged)) return; // a Blob in a call is read before the call is serialized
    try {
      this.drain(DRAIN_SLICE_MS);
    } catch (err) {
      diag.warn(`could not queue call events: ${safeMessage(err)}`); // never an uncaught error in the user's process
    }
  };

  /** See {@link CallSink.connection}; set by `init()`. */
  connection: { baseUrl: string; apiKey: string | undefined } | undefined;

  constructor({ client, projectId, userId, options = {}, predecessor, media }: CallExporterOptions) {
    this.client = client;
    this.projectId = projectId;
    this.userId = userId;
    this.predecessor = predecessor;
    this.options = { ...DEFAULT_EXPORT_OPTIONS, ...options };
    this.stageMax = Math.max(STAGE_SLICE, Math.floor(this.options.maxQueueBytes / STAGED_EVENT_BYTES));
    this.exitNotes = new ServiceNotes(client.baseUrl, projectId, this.options.spoolDir || undefined, this.options.spoolCourier);
    this.reach = this.exitNotes.reach;
    this.files = media ? new FileUploader(client, projectId, media, this.options) : undefined;
    this.delivery = new Delivery({ client, options: this.options, reach: this.reach, spill: true, files: this.files });
    this.batcher = new Batcher(this.delivery, this.options, { keepCallOrder: true });
    this.feedbackQueue = new FeedbackQueue(client, this.options, this.reach);
    this.intake = new CallIntake(this.batcher, this.delivery, this.options);
  }

  /** Events staged, buffered or in flight, here and in predecessors. */
  get pendingCount(): number {
    return this.staged.length - this.stagedAt + this.batcher.pendingCount + this.feedbackQueue.pendingCount + (this.predecessor?.pendingCount ?? 0);
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
    this.intake.drop('shutdown', 1, 'weft was shut down');
  }

  /**
   * Keeps an event to serialize and queue after the caller's code has run: on the next turn of the
   * event loop, at the next flush, or at once (the oldest {@link STAGE_SLICE}) when {@link CallExporter.stageMax} are waiting, or all when the staged and
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
    const waiting = staged.length - this.stagedAt;
    if (waiting + this.batcher.pendingCount >= this.options.maxQueueItems) this.drain();
    else if (waiting >= this.stageMax) this.drain(Infinity, STAGE_SLICE);
    else if (!this.drainScheduled) {
      this.drainScheduled = true;
      runSoon(this.drainStaged);
    }
  }

  /**
   * Serializes and queues the staged events, in order: all of them, the first `maxEvents`, or those it gets to
   * within `budgetMs` (then the rest on a later turn). The list is read from a cursor ({@link CallExporter.stagedAt}):
   * copying what was left after each slice copied the whole backlog per slice (issue 31). Each event taken is cleared.
   */
  private drain(budgetMs = Infinity, maxEvents = Infinity): void {
    if (this.draining) return; // a toJSON making traced calls while it runs: they are taken after it
    this.drainScheduled = false;
    const items = this.staged;
    const n = Math.min(items.length, this.stagedAt + maxEvents); // events staged meanwhile (by a toJSON making a traced call) wait for a later drain
    let i = this.stagedAt;
    if (i === n) return;
    this.draining = true;
    try {
      i = this.takeStaged(items, i, n, budgetMs);
    } finally {
      this.draining = false;
    }
    if (i === items.length) {
      this.staged = [];
      this.stagedAt = 0;
      return;
    }
    if (i >= STAGED_COMPACT_AT && i * 2 >= items.length) {
      this.staged = items.slice(i); // amortized: at most once per as many events taken as are left
      this.stagedAt = 0;
    } else this.stagedAt = i;
    if (!this.drainScheduled) {
      this.drainScheduled = true;
      runSoon(this.drainStaged);
    }
  }

  /** Takes `items[i..n)` in order, or those it gets to within `budgetMs`; returns where it stopped. */
  private takeStaged(items: (StartedCallSchemaForInsert | EndedCallSchemaForInsert | undefined)[], i: number, n: number, budgetMs: number): number {
    const until = budgetMs === Infinity ? Infinity : performance.now() + budgetMs;
    while (i < n) {
      const end = Math.min(n, i + DRAIN_CLOCK_EVERY);
      stats.queueItems -= end - i;
      for (; i < end; i++) {
        const event = items[i];
        items[i] = undefined;
        if (event !== undefined) this.take(event);
      }
      if (i < n && performance.now() >= until) break;
    }
    return i;
  }

  /** Queues one event (an end event is told apart by its required `ended_at`). */
  private take(event: StartedCallSchemaForInsert | EndedCallSchemaForInsert): void {
    if ('ended_at' in event) this.takeEnd(event);
    else this.takeStart(event);
  }

  private takeStart(start: StartedCallSchemaForInsert): void {
    this.openCalls++;
    const kept = this.intake.start(start);
    if (kept && this.tracksRoots && start.id && (start.parent_id === undefined || start.parent_id === null)) this.roots.add(start.id);
  }

  private takeEnd(end: EndedCallSchemaForInsert): void {
    this.openCalls--;
    this.intake.end(end);
    if (this.roots.delete(end.id)) this.rootEnded();
  }

  /**
   * Sends what is buffered here and in predecessors, writes the spool to disk, and replays it when
   * the server answers; resolves with this exporter's counters. Never rejects.
   */
  async flush(timeoutMs?: number): Promise<ExportReport> {
    const deadline = timeoutMs === undefined ? undefined : unrefDelay(timeoutMs);
    const reads = blobReadsDone();
    if (reads) await (deadline ? Promise.race([reads, deadline]) : reads);
    this.drain();
    const files = this.files?.busy ? this.files.idle() : undefined;
    const [, report, feedback] = await Promise.all([
      this.predecessor?.flush(timeoutMs),
      this.batcher.flush(timeoutMs),
      this.feedbackQueue.flush(timeoutMs),
      deadline && files ? Promise.race([files, deadline]) : files,
    ]);
    this.prune();
    warnUnreportedDrops();
    if (!this.closed) await this.delivery.flushSpool(deadline);
    const { sent, dropped } = this.batcher.report();
    return { sent: sent + feedback.sent, dropped: dropped + feedback.dropped, spooled: this.delivery.spooled, pending: report.pending + feedback.pending };
  }

  /** Flushes, then refuses new events and closes the spool's open segment, here and in predecessors. */
  async shutdown(timeoutMs?: number): Promise<ExportReport> {
    const [, report] = await Promise.all([this.predecessor?.shutdown(timeoutMs), this.flush(timeoutMs)]);
    this.closed = true;
    this.intake.closed = true;
    this.delivery.close();
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
    this.files?.abandon(reason);
  }

  /** Resolves once every export request so far was refused its connection (at once if already so); never rejects. */
  whenRefused(): Promise<Refusal> {
    return this.reach.whenRefused();
  }

  private get tracksRoots(): boolean {
    return this.options.flushMode === 'immediate' || this.options.waitUntil !== undefined;
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
