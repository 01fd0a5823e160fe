// A BatchDelivery for Batcher unit tests: `send(batch, signal)` says what became of each batch; abandon() aborts `signal`.
import type { BatchDelivery, Tally } from 'weft-trace/src/export/batcher.js';
import type { Entry } from 'weft-trace/src/export/entry.js';

/** Sends one batch and says how many events were sent and dropped (none are given back as undelivered). */
export type SendBatch = (batch: Entry[], signal: AbortSignal) => Promise<Tally>;

export function deliveryOf(send: SendBatch): BatchDelivery {
  const abort = new AbortController();
  const tally: Tally = { sent: 0, dropped: 0 };
  return {
    tally,
    async send(batch) {
      const out = await send(batch, abort.signal);
      tally.sent += out.sent;
      tally.dropped += out.dropped;
      return [];
    },
    abandon: (reason) => abort.abort(reason),
  };
}
