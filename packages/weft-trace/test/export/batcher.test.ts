// The batcher sends on its own: when a batch fills up (size trigger) and when the interval passes (time trigger).
import { expect, it } from 'vitest';
import { flush, init, op } from '../../src/index.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { readCalls, uniqueProject, waitForEnded } from 'weft-test-kit/calls.js';

const server = useTestServer();


it('sends a full batch at once, without flush() and long before the interval', async () => {
  const project = uniqueProject('size');
  init({ project, baseUrl: server().url, maxBatchItems: 10, flushIntervalMs: 600_000 });
  const f = op(function f(i: number) { return i; });
  for (let i = 0; i < 5; i++) f(i); // 5 starts + 5 ends = one full batch of 10
  expect(await waitForEnded(server().url, project, 5, 5_000)).toBe(5);
  f(99); // 2 events: stay buffered until the interval or a flush
  await new Promise((r) => setTimeout(r, 200));
  expect((await readCalls(server().url, project)).length).toBe(5);
  const report = await flush();
  expect(report).toMatchObject({ dropped: 0, spooled: 0, pending: 0 });
  expect((await readCalls(server().url, project)).length).toBe(6);
});

it('sends buffered events when the interval passes, without flush()', async () => {
  const project = uniqueProject('time');
  init({ project, baseUrl: server().url, maxBatchItems: 10_000, flushIntervalMs: 100 });
  const g = op(async function g() { return 'ok'; });
  await g();
  expect(await waitForEnded(server().url, project, 1, 5_000)).toBe(1);
});

it('reports what it sent and counts events it could not deliver as dropped', async () => {
  const project = uniqueProject('report');
  init({ project, baseUrl: server().url, flushIntervalMs: 600_000 });
  const h = op(function h() { return 1; });
  for (let i = 0; i < 3; i++) h();
  const first = await flush();
  expect(first).toEqual({ sent: 6, dropped: 0, spooled: 0, pending: 0 });
  init({ project, baseUrl: 'http://127.0.0.1:9', maxRetries: 0, flushIntervalMs: 600_000, spoolDir: false }); // nothing listens on port 9
  h();
  const report = await flush();
  expect(report).toEqual({ sent: 0, dropped: 2, spooled: 0, pending: 0 });
});
