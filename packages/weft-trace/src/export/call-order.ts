/**
 * Per-call order for the exporter: a call's end is sent in the batch of its start, or after the batch holding its start was settled.
 * @module
 */
import type { Entry } from './entry.js';

/** Marks a start still in the batcher's buffer (not yet cut into a batch). */
const BUFFERED = null;
/** Marks a start the server never took (spooled or dropped): its end follows it, never from memory. */
const LOST = 'lost';

type Home = Entry[] | typeof BUFFERED | typeof LOST;

/** A batch cut from the buffer, and the ends that must follow their undelivered start instead. */
export interface Cut {
  batch: Entry[];
  behind: Entry[];
}

/** What became of the ends held back behind a batch once that batch settled. */
export interface Released {
  /** Ends whose start the server took (or refused for good): they may be sent now. */
  send: Entry[];
  /** Ends whose start was not delivered: they follow it (into the spool, or dropped with it), never ahead of it. */
  behind: Entry[];
}

/**
 * Keeps each call's end behind its start when batches are in flight side by side and retried. A batch
 * being cut keeps the ends whose start is in the same batch, already settled, or unknown; an end whose
 * start is in an earlier batch not yet settled is held back (it does not occupy a request slot) and
 * released when that batch settles: to be sent if its start was taken, to follow it if not (an end
 * cut later than that follows it too). Only starts in the buffer, in unsettled batches, or lost with
 * their call still open are remembered, so memory is bounded by what is pending or open.
 */
export class CallOrder {
  /** Call id → the batch holding its start, {@link BUFFERED}, or {@link LOST} (until its end is cut). */
  private readonly startIn = new Map<string, Home>();
  /** Ends held back, by the batch holding their start. */
  private readonly held = new Map<Entry[], Entry[]>();

  /** Ends held back now. */
  get heldCount(): number {
    let n = 0;
    for (const ends of this.held.values()) n += ends.length;
    return n;
  }

  /** Notes an entry taken into the buffer. */
  offered(entry: Entry): void {
    const call = entry.call;
    if (call && !call.end) this.startIn.set(call.id, BUFFERED);
  }

  /**
   * Whether the call's start is in memory and not settled (buffered or in flight), or was lost and its
   * end not seen yet: its end must then go through memory too, where it is ordered behind the start.
   */
  holdsStart(callId: string): boolean {
    return this.startIn.has(callId);
  }

  /**
   * Cuts the buffer into a batch: the entries to send now (the buffer itself when nothing is held
   * back, so the common case allocates nothing); holds back ends whose start is in flight, and
   * returns as `behind` those whose start was lost.
   */
  cut(buffer: Entry[]): Cut {
    let out: Set<Entry> | undefined;
    const behind: Entry[] = [];
    for (const e of buffer) {
      const call = e.call;
      if (!call?.end) continue;
      const home = this.startIn.get(call.id);
      if (home === BUFFERED || home === undefined || home === LOST) {
        this.startIn.delete(call.id); // start in this batch, settled, or never seen: the end goes with it
        if (home !== LOST) continue;
        behind.push(e);
      } else {
        const ends = this.held.get(home);
        if (ends) ends.push(e);
        else this.held.set(home, [e]);
      }
      (out ??= new Set()).add(e);
    }
    const batch = out ? buffer.filter((e) => !out.has(e)) : buffer;
    for (const e of batch) {
      const call = e.call;
      if (call && !call.end && this.startIn.get(call.id) === BUFFERED) this.startIn.set(call.id, batch);
    }
    return { batch, behind };
  }

  /**
   * Settles a batch returned by {@link cut}: forgets its starts and releases the ends held behind it.
   * @param lost - the batch's entries the server never took (spooled or dropped by the caller).
   */
  settle(batch: Entry[], lost: readonly Entry[]): Released {
    const lostStarts = new Set<string>();
    for (const e of lost) {
      const call = e.call;
      if (!call) continue;
      if (!call.end) lostStarts.add(call.id);
      else lostStarts.delete(call.id); // its end was in the same batch: nothing left to follow it
    }
    for (const e of batch) {
      const call = e.call;
      if (call && !call.end && this.startIn.get(call.id) === batch) {
        if (lostStarts.has(call.id)) this.startIn.set(call.id, LOST);
        else this.startIn.delete(call.id);
      }
    }
    const ends = this.held.get(batch);
    if (!ends) return { send: [], behind: [] };
    this.held.delete(batch);
    if (lostStarts.size === 0) return { send: ends, behind: [] };
    const out: Released = { send: [], behind: [] };
    for (const e of ends) {
      const id = e.call!.id;
      if (!lostStarts.has(id)) out.send.push(e);
      else {
        out.behind.push(e);
        this.startIn.delete(id);
      }
    }
    return out;
  }
}
