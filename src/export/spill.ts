/**
 * Where call events that memory cannot send go: the disk spool (and from then on every new event, until it is replayed), or, without a spool, dropped and counted.
 * @module
 */
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import type { Batcher, Delivery, Entry } from './batcher.js';
import { dropUndelivered, type BatchSender, type PostOutcome } from './batch-sender.js';
import type { ExportOptions } from './export-options.js';
import { stats, type DropReason } from './export-stats.js';
import { Spool, SPOOL_AVAILABLE } from './spool.js';
import { SpoolReplayer } from './spool-replay.js';

/** Counts `count` events as dropped for `reason` (the exporter's counter). */
type Drop = (reason: DropReason, count: number, why: string) => DropReason;

/** The exporter's spool, its replayer, and whether new events go to it. */
export class Spill {
  /** New events go to the spool (set when memory overflowed or the server was unreachable; cleared once it is replayed). */
  spooling = false;
  readonly spool: Spool | undefined;
  readonly replayer: SpoolReplayer | undefined;

  constructor(sender: BatchSender, private readonly batcher: Batcher, private readonly options: ExportOptions, private readonly drop: Drop) {
    this.spool = options.spoolDir ? openSpool(options.spoolDir, options.spoolMaxBytes) : undefined;
    if (this.spool) {
      this.replayer = new SpoolReplayer(this.spool, sender, batcher, options, () => {
        this.spooling = false;
      });
      void this.replayer.kick(); // events left by an earlier process
    }
  }

  /** Appends entries to the spool; those over its cap are counted as dropped when `dropRest`. Returns how many were spooled. */
  append(entries: Entry[], dropRest = true): number {
    const spool = this.spool as Spool;
    let kept = 0;
    for (const e of entries) if (spool.append(e.json)) kept++;
    stats.spooled += kept;
    if (dropRest) this.drop('spool_full', entries.length - kept, `the spool is full (spoolMaxBytes ${this.options.spoolMaxBytes})`);
    return kept;
  }

  /** What the server never took of a batch is spooled (then new events are too), or dropped; returns the batch's delivery. */
  undelivered(out: PostOutcome, signal: AbortSignal): Delivery {
    const lost = out.undelivered;
    if (lost.length === 0) {
      if (this.spooling && this.batcher.pendingCount <= this.options.maxQueueItems / 2) void this.replayer?.kick();
      return { sent: out.sent, dropped: out.dropped };
    }
    if (!this.spool) return dropUndelivered(out, signal);
    this.spillOver(lost); // counts what does not fit as dropped
    return { sent: out.sent, dropped: out.dropped };
  }

  /** Ends whose start the server never took (no longer pending in memory): they follow it into the spool, or are dropped with it. */
  follow(ends: Entry[]): void {
    if (this.spool) this.spillOver(ends);
    else this.drop('unreachable', ends.length, 'the start of their call was not delivered');
  }

  private spillOver(entries: Entry[]): void {
    this.spooling = true;
    this.append(entries);
    void this.replayer?.kick();
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
