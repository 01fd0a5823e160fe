/**
 * Replays the disk spool: claims segments oldest first and posts their events in batches until the spool is empty or the server stops answering.
 * @module
 */
import type PQueue from 'p-queue';
import type { Tally } from './batcher.js';
import type { Entry } from './entry.js';
import { BODY_OVERHEAD_BYTES } from './batcher.js';
import type { BatchSender } from './batch-sender.js';
import { callOf } from './call-entry.js';
import type { ExportOptions } from './export-options.js';
import { baseName, type ClaimedSegment, type Spool } from './spool.js';
import { countDrop, stats } from './export-stats.js';
import { unrefTimeout } from '../internal/timers.js';

type Limits = Pick<ExportOptions, 'maxBatchItems' | 'maxBatchBytes' | 'retryMaxDelayMs'>;

/** What a {@link SpoolReplayer} works with: all of it owned by the delivery that made it (`delivery.ts`). */
export interface SpoolReplayerOptions {
  spool: Spool;
  /** Posts the replayed batches. */
  sender: BatchSender;
  /** The delivery's request slots: a replayed batch counts against `maxConcurrentRequests` like any other. */
  slots: PQueue;
  /** Aborts the replayed requests (the exit deadline). */
  signal: AbortSignal;
  /** The delivery's counters: replayed events count as sent, unreadable lines as dropped. */
  tally: Tally;
  /** Batch size limits, and the wait before a new pass after a failed one (`retryMaxDelayMs`). */
  limits: Limits;
  /** Runs when a pass found the spool empty, in the same tick as that last claim. */
  onDrained: () => void;
}

/**
 * One replay loop per spool. A pass ends when the spool is empty (then `onDrained` runs, in the
 * same tick as the last empty claim, so no event can slip in between) or when a batch stays
 * undelivered (the segment is given back and a new pass starts `retryMaxDelayMs` later).
 */
export class SpoolReplayer {
  private running: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  /**
   * Entries of a released segment the server already took, by segment name: a later pass (in this
   * process) goes on after them, so they are neither sent nor counted twice. Another process starts
   * the segment over, which the server's idempotent writes make harmless.
   */
  private readonly progress = new Map<string, number>();

  private readonly spool: Spool;
  private readonly limits: Limits;

  constructor(private readonly o: SpoolReplayerOptions) {
    this.spool = o.spool;
    this.limits = o.limits;
  }

  /** Whether a pass failed recently and the next one waits for its timer. */
  get backingOff(): boolean {
    return this.retryTimer !== undefined;
  }

  /** The pass in progress, if any. */
  get current(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** Starts a pass unless one is running, one is scheduled, or the replayer is stopped. */
  kick(): Promise<void> {
    if (this.running || this.retryTimer || this.stopped) return this.current;
    this.running = this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Stops: no new pass starts (the one running finishes its batch). */
  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private async pass(): Promise<void> {
    while (!this.stopped) {
      const seg = this.spool.claim();
      if (!seg) {
        this.o.onDrained();
        return;
      }
      if (await this.replay(seg)) this.spool.finish(seg);
      else {
        this.spool.release(seg);
        this.retryLater();
        return;
      }
    }
  }

  /** Posts the segment's events in batches; `false` at the first batch the server did not take. */
  private async replay(seg: ClaimedSegment): Promise<boolean> {
    const name = baseName(seg.file);
    const done = this.progress.get(name);
    const { entries, unreadable } = entriesOf(seg, done === undefined);
    const { tally, slots, sender, signal } = this.o;
    if (done === undefined) tally.dropped += unreadable;
    let taken = done ?? 0;
    for (const batch of batches(entries.slice(taken), this.limits)) {
      const out = await slots.add(() => sender.post(batch, signal));
      stats.replayed += out.sent;
      tally.sent += out.sent;
      tally.dropped += out.dropped;
      if (out.undelivered.length > 0) {
        this.progress.set(name, taken); // this batch is sent again whole (never skipped in part)
        return false;
      }
      taken += batch.length;
    }
    this.progress.delete(name);
    return true;
  }

  private retryLater(): void {
    if (this.stopped) return;
    this.retryTimer = unrefTimeout(() => {
      this.retryTimer = undefined;
      void this.kick();
    }, this.limits.retryMaxDelayMs);
  }
}

/** The segment's lines that parse as JSON, as entries; unreadable ones are dropped (counted when `count`). */
function entriesOf(seg: ClaimedSegment, count: boolean): { entries: Entry[]; unreadable: number } {
  const out: Entry[] = [];
  let bad = 0;
  for (const json of seg.lines) {
    try {
      out.push({ json, bytes: Buffer.byteLength(json), call: callOf(JSON.parse(json)) });
    } catch {
      bad++;
    }
  }
  if (count) countDrop('abandoned', bad, `unreadable line(s) in spool file ${seg.file}`);
  return { entries: out, unreadable: bad };
}

/** Cuts entries into batches of at most `maxBatchItems` events and `maxBatchBytes` bytes of body. */
function* batches(entries: Entry[], limits: Limits): Generator<Entry[]> {
  let batch: Entry[] = [];
  let bytes = BODY_OVERHEAD_BYTES;
  for (const e of entries) {
    if (batch.length > 0 && (batch.length >= limits.maxBatchItems || bytes + e.bytes + 1 > limits.maxBatchBytes)) {
      yield batch;
      batch = [];
      bytes = BODY_OVERHEAD_BYTES;
    }
    batch.push(e);
    bytes += e.bytes + 1;
  }
  if (batch.length > 0) yield batch;
}
