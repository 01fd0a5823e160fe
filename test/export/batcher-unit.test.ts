// Batcher on its own, with an injected sender: flush() waits only for events queued before it, abandon() gives up.
import { expect, it } from 'vitest';
import { Batcher, type SendBatch } from '../../src/export/batcher.js';
import type { UpsertBatchItem } from '../../src/schema/calls.js';

const item = (i: number): UpsertBatchItem => ({
  mode: 'end',
  req: { end: { project_id: 'a/b', id: `c${i}`, ended_at: new Date().toISOString(), summary: {} } },
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('flush() returns under steady traffic, once the events queued before it are sent', async () => {
  const delivered: string[] = [];
  const slowSend: SendBatch = async (batch) => {
    await sleep(40);
    for (const b of batch) if (b.mode === 'end') delivered.push(b.req.end.id);
    return 0;
  };
  const batcher = new Batcher(slowSend, { maxBatchItems: 5, flushIntervalMs: 10, maxConcurrentRequests: 1, maxQueueItems: 10_000 });
  let i = 0;
  let producing = true;
  const producer = (async () => {
    while (producing) {
      batcher.enqueue(item(i++));
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

it('abandon() aborts requests in flight and counts their events as dropped', async () => {
  const hangingSend: SendBatch = (_batch, signal) =>
    new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
  const batcher = new Batcher(hangingSend, { maxBatchItems: 2, flushIntervalMs: 10, maxConcurrentRequests: 2, maxQueueItems: 100 });
  for (let k = 0; k < 5; k++) batcher.enqueue(item(k));
  expect((await batcher.flush(50)).pending).toBe(5);
  batcher.abandon();
  expect(await batcher.flush()).toEqual({ sent: 0, dropped: 5, pending: 0 });
});

it('counts events over maxQueueItems as dropped', async () => {
  const batcher = new Batcher(async () => 0, { maxBatchItems: 100, flushIntervalMs: 1000, maxConcurrentRequests: 1, maxQueueItems: 3 });
  for (let k = 0; k < 5; k++) batcher.enqueue(item(k));
  expect(await batcher.flush()).toEqual({ sent: 3, dropped: 2, pending: 0 });
});
