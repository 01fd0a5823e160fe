// Batcher on its own, with an injected sender: flush() waits only for events queued before it, abandon() gives up, caps and byte cuts hold.
import { expect, it } from 'vitest';
import { Batcher } from '../../src/export/batcher.js';
import type { Entry } from '../../src/export/entry.js';
import { deliveryOf, type SendBatch } from 'weft-test-kit/batch-delivery.js';
import { DEFAULT_BATCHER_OPTIONS } from '../../src/export/export-options.js';

const entry = (i: number, pad = 0): Entry => {
  const json = JSON.stringify({ id: `c${i}`, pad: 'x'.repeat(pad) });
  return { json, bytes: Buffer.byteLength(json) };
};
const idOf = (e: Entry) => (JSON.parse(e.json) as { id: string }).id;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const options = (o: Partial<typeof DEFAULT_BATCHER_OPTIONS>) => ({ ...DEFAULT_BATCHER_OPTIONS, ...o });

it('flush() returns under steady traffic, once the events queued before it are sent', async () => {
  const delivered: string[] = [];
  const slowSend: SendBatch = async (batch) => {
    await sleep(40);
    delivered.push(...batch.map(idOf));
    return { sent: batch.length, dropped: 0 };
  };
  const batcher = new Batcher(deliveryOf(slowSend), options({ maxBatchItems: 5, flushIntervalMs: 10, maxConcurrentRequests: 1 }));
  let i = 0;
  let producing = true;
  const producer = (async () => {
    while (producing) {
      batcher.offer(entry(i++), false);
      await sleep(2);
    }
  })();
  await sleep(100);
  const before = i;
  await batcher.flush(); // would never resolve if it waited for the queue to be idle: the producer only stops after it
  producing = false;
  await producer;
  for (let k = 0; k < before; k++) expect(delivered).toContain(`c${k}`);
  await batcher.flush();
  expect(batcher.report()).toEqual({ sent: i, dropped: 0, pending: 0 });
});

it('abandon() aborts requests in flight and counts their events as the sender says', async () => {
  const hangingSend: SendBatch = (batch, signal) =>
    new Promise((resolve) => {
      const giveUp = () => resolve({ sent: 0, dropped: batch.length });
      if (signal.aborted) giveUp(); // batches started after abandon() see an aborted signal
      else signal.addEventListener('abort', giveUp, { once: true });
    });
  const batcher = new Batcher(deliveryOf(hangingSend), options({ maxBatchItems: 2, flushIntervalMs: 10, maxConcurrentRequests: 2 }));
  for (let k = 0; k < 5; k++) batcher.offer(entry(k), false);
  expect((await batcher.flush(50)).pending).toBe(5);
  batcher.abandon();
  expect(await batcher.flush()).toEqual({ sent: 0, dropped: 5, pending: 0 });
});

it('refuses events over maxQueueItems, keeping the last 10% for reserved ones', async () => {
  const batcher = new Batcher(deliveryOf(async (b) => ({ sent: b.length, dropped: 0 })), options({ maxBatchItems: 100, maxQueueItems: 10 }));
  const taken = Array.from({ length: 12 }, (_, k) => batcher.offer(entry(k), false));
  expect(taken.filter(Boolean)).toHaveLength(9);
  expect(batcher.offer(entry(100), true)).toBe(true); // the reserved tenth
  expect(batcher.offer(entry(101), true)).toBe(false);
  expect(await batcher.flush()).toEqual({ sent: 10, dropped: 0, pending: 0 });
});

it('refuses events over maxQueueBytes', () => {
  const batcher = new Batcher(deliveryOf(async (b) => ({ sent: b.length, dropped: 0 })), options({ maxQueueBytes: 10_000 }));
  const taken = Array.from({ length: 20 }, (_, k) => batcher.offer(entry(k, 1000), false)).filter(Boolean).length;
  expect(taken).toBe(8); // 8 x ~1016 bytes fit under 90% of 10,000
});

it('cuts batches by serialized bytes as well as by count', async () => {
  const sizes: number[] = [];
  const send: SendBatch = async (batch) => {
    sizes.push(Buffer.byteLength(`{"batch":[${batch.map((e) => e.json).join(',')}]}`));
    return { sent: batch.length, dropped: 0 };
  };
  const batcher = new Batcher(deliveryOf(send), options({ maxBatchItems: 1000, maxBatchBytes: 5_000, flushIntervalMs: 1000 }));
  for (let k = 0; k < 30; k++) batcher.offer(entry(k, 1000), false);
  await batcher.flush();
  expect(sizes.length).toBeGreaterThan(5);
  for (const size of sizes) expect(size).toBeLessThanOrEqual(5_000);
  expect(batcher.report().sent).toBe(30);
});
