/**
 * The one delivery object of an export queue: sends batches in request slots, spills what the server never took to the disk spool (or drops it), and replays the spool.
 * @module
 */
import PQueue from 'p-queue';
import type { Client } from '../api/client.js';
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import type { BatchDelivery, Tally } from './batcher.js';
import type { Entry } from './entry.js';
import { BatchSender, CALLS_ENDPOINT, dropUndelivered, type BatchEndpoint, type PostOutcome } from './batch-sender.js';
import type { ExportOptions } from './export-options.js';
import { countDrop, stats } from './export-stats.js';
import type { Reachability } from './reachability.js';
import { Spool, SPOOL_AVAILABLE } from './spool.js';
import { SpoolReplayer } from './spool-replay.js';
import { unrefDelay } from '../internal/timers.js';

/**
 * Longest wait of a batch for the media files handed over before it was cut, ms: the files go first, so a stored
 * call's reference finds its file; a file slower than this (a retried or large upload) arrives after its call.
 */
export const FILES_AHEAD_WAIT_MS = 2_000;

/** Files sent ahead of the batches (the media file uploader, `file-uploader.ts`). */
export interface FilesAhead {
  /** Whether files are waiting or being sent. */
  readonly busy: boolean;
  /** Resolves once the files taken so far are sent or given up on; never rejects. */
  idle(): Promise<void>;
}

/** What a {@link Delivery} is made of. */
export interface DeliveryOptions {
  /** The client whose raw batch method posts the bodies. */
  client: Client;
  /** Retries, request slots (`maxConcurrentRequests`), the spool's directory (`spoolDir`) and cap. */
  options: ExportOptions;
  /** The batch endpoint. @defaultValue `CALLS_ENDPOINT` (`POST /call/upsert_batch`) */
  endpoint?: BatchEndpoint;
  /** Told of every attempt's outcome (the first-failure warning, refusals at exit). */
  reach?: Reachability;
  /** Whether events the server never took go to the disk spool at `options.spoolDir` (calls); else they are dropped. @defaultValue false */
  spill?: boolean;
  /** Files a batch waits for (up to {@link FILES_AHEAD_WAIT_MS}) before it is posted: those its events refer to. @defaultValue none */
  files?: FilesAhead | undefined;
}

/**
 * Downstream of a {@link Batcher}: nothing here calls back into the batcher. The batcher hands over
 * batches ({@link send}), ends that must follow an undelivered start ({@link follow}) and, after a
 * batch settled, how much memory still holds ({@link settled}); the exporter hands over events memory
 * could not take ({@link spoolEntry}). Replays share the request slots, so `maxConcurrentRequests` bounds both.
 */
export class Delivery implements BatchDelivery {
  readonly tally: Tally = { sent: 0, dropped: 0 };
  /** New events go to the spool (set when memory overflowed or the server was unreachable; cleared once it is replayed). */
  spooling = false;
  private readonly slots: PQueue;
  private readonly abort = new AbortController();
  private readonly sender: BatchSender;
  private readonly options: ExportOptions;
  private readonly what: string;
  private readonly spool: Spool | undefined;
  private readonly replayer: SpoolReplayer | undefined;
  private readonly files: FilesAhead | undefined;

  constructor({ client, options, endpoint = CALLS_ENDPOINT, reach, spill = false, files }: DeliveryOptions) {
    this.options = options;
    this.files = files;
    this.what = endpoint === CALLS_ENDPOINT ? '' : `${endpoint.items}: `;
    this.slots = new PQueue({ concurrency: options.maxConcurrentRequests });
    this.sender = new BatchSender(client, options, endpoint, reach);
    this.spool = spill && options.spoolDir ? openSpool(options.spoolDir, options.spoolMaxBytes) : undefined;
    if (this.spool) {
      const onDrained = () => {
        this.spooling = false;
      };
      const { slots, sender, tally } = this;
      this.replayer = new SpoolReplayer({ spool: this.spool, sender, slots, signal: this.abort.signal, tally, limits: options, onDrained });
      if (this.spool.bytes > 0) void this.replayer.kick(); // events left by an earlier process
    }
  }

  /** Whether there is a disk spool. */
  get hasSpool(): boolean {
    return this.spool !== undefined;
  }

  /** Events written to the spool and not replayed yet. */
  get spooled(): number {
    return this.spool?.backlog ?? 0;
  }

  /** The spool's directory, when there is a spool. */
  get spoolDir(): string | undefined {
    return this.spool?.dir;
  }

  send(batch: Entry[]): Promise<readonly Entry[]> {
    return this.slots.add(() => this.post(batch));
  }

  settled(pending: number): void {
    if (this.spooling && pending <= this.options.maxQueueItems / 2) void this.replayer?.kick();
  }

  /** Ends whose start the server never took: they follow it into the spool, or are dropped with it. */
  follow(ends: Entry[]): void {
    if (this.spool) this.spillOver(ends);
    else this.drop('unreachable', ends.length, 'the start of their call was not delivered');
  }

  /** Aborts the requests in flight and replays (their events are spooled, or dropped without a spool). */
  abandon(reason?: string): void {
    this.abort.abort(reason);
  }

  /** Counts events dropped before they reached memory (the exporter's and the feedback queue's own drops). */
  count(dropped: number): void {
    this.tally.dropped += dropped;
  }

  /**
   * Writes one event memory could not take to the spool; from then on new events go there too.
   * @returns `false` when the spool is full (the event is neither written nor counted).
   */
  spoolEntry(entry: Entry): boolean {
    this.spooling = true;
    if (!this.spool?.append(entry.json)) return false;
    stats.spooled++;
    return true;
  }

  /** Writes the spool's open segment to disk, starts a replay when one is due, and waits for the replay (or `deadline`). */
  async flushSpool(deadline?: Promise<unknown>): Promise<void> {
    const { spool, replayer } = this;
    if (!spool || !replayer) return;
    spool.sync();
    if (this.spooling && !replayer.backingOff) void replayer.kick();
    const replayed = replayer.current.catch(() => undefined);
    await (deadline === undefined ? replayed : Promise.race([replayed, deadline]));
  }

  /** Stops replaying and closes the spool's open segment. */
  close(): void {
    this.replayer?.stop();
    this.spool?.close();
  }

  /** Posts one batch; what the server never took is spooled (then new events are too), or dropped. Never rejects. */
  private async post(batch: Entry[]): Promise<readonly Entry[]> {
    let out: PostOutcome;
    try {
      // the media files of these events were handed over when they were serialized, before the batch was cut
      if (this.files?.busy) await Promise.race([this.files.idle(), unrefDelay(FILES_AHEAD_WAIT_MS)]);
      out = await this.sender.post(batch, this.abort.signal);
    } catch (err) {
      this.drop('abandoned', batch.length, `sending failed: ${safeMessage(err)}`);
      return [];
    }
    this.tally.sent += out.sent;
    this.tally.dropped += out.dropped;
    const lost = out.undelivered;
    if (lost.length === 0) return lost;
    if (this.spool) this.spillOver(lost); // counts what does not fit as dropped
    else this.tally.dropped += dropUndelivered(out, this.abort.signal, this.what);
    return lost;
  }

  private spillOver(entries: Entry[]): void {
    this.spooling = true;
    const spool = this.spool as Spool;
    let kept = 0;
    for (const e of entries) if (spool.append(e.json)) kept++;
    stats.spooled += kept;
    this.drop('spool_full', entries.length - kept, `the spool is full (spoolMaxBytes ${this.options.spoolMaxBytes})`);
    void this.replayer?.kick();
  }

  private drop(reason: 'unreachable' | 'spool_full' | 'abandoned', count: number, why: string): void {
    countDrop(reason, count, why);
    this.tally.dropped += count;
  }
}

function openSpool(dir: string, maxBytes: number): Spool | undefined {
  if (!SPOOL_AVAILABLE) {
    diag.once('spool-off', 'warn', `spoolDir ${dir} is set, but this runtime has no file system (node:fs): the disk spool is off, events that cannot be sent are dropped`);
    return undefined;
  }
  try {
    return new Spool(dir, maxBytes);
  } catch (err) {
    diag.warn(`cannot use spool directory ${dir}: ${safeMessage(err)}; events that cannot be sent will be dropped`);
    return undefined;
  }
}
