// @weft-test: isolated (it reads the process-wide export counters, getExportStats)
// Serverless and shutdown: flushMode 'immediate' and waitUntil send a trace when its root call ends; after shutdown() nothing is queued.
import { expect, it } from 'vitest';
import { getExportStats, init, op, shutdown } from '../../src/index.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { readCalls, uniqueProject, waitForEnded } from 'weft-test-kit/calls.js';
import { expectIsoUtc, expectUuidv7 } from 'weft-test-kit/shapes.js';

const server = useTestServer();
const NEVER = 600_000; // a flush interval that never passes during a test


const traced = () => {
  const leaf = op(async function leaf(i: number) { return i; });
  return op(async function handler(n: number) {
    await Promise.all(Array.from({ length: n }, (_, i) => leaf(i)));
    return 'done';
  });
};

it("flushMode 'immediate' sends a trace as soon as its root call ends, with no flush() and a long interval", async () => {
  const project = uniqueProject('immediate');
  init({ project, baseUrl: server().url, flushMode: 'immediate', flushIntervalMs: NEVER });
  const handler = traced();
  await handler(3);
  expect(await waitForEnded(server().url, project, 4, 5_000)).toBe(4);
});

it("'batch' mode with the same settings does not send before the interval (the control for the test above)", async () => {
  const project = uniqueProject('batch');
  init({ project, baseUrl: server().url, flushIntervalMs: NEVER });
  await traced()(3);
  expect(await waitForEnded(server().url, project, 4, 300)).toBe(0);
  await shutdown();
});

it('waitUntil receives, when the root call ends, a promise that resolves once its events are stored', async () => {
  const project = uniqueProject('wait-until');
  const handed: Promise<unknown>[] = [];
  init({ project, baseUrl: server().url, flushIntervalMs: NEVER, waitUntil: (p) => handed.push(p) });
  const handler = traced();
  await handler(2);
  expect(handed).toHaveLength(1); // one root call: the children do not trigger it
  await handed[0];
  const records = await readCalls(server().url, project);
  expect(records).toHaveLength(3);
  for (const r of records) {
    expectUuidv7(r.id);
    expectIsoUtc(r.ended_at);
  }
});

it('a throwing waitUntil never reaches user code', async () => {
  init({ project: uniqueProject('wait-until-throws'), baseUrl: server().url, waitUntil: () => { throw new Error('platform bug'); } });
  await expect(traced()(1)).resolves.toBe('done');
  await shutdown();
});

it('after shutdown() new calls are not queued', async () => {
  const project = uniqueProject('after-shutdown');
  init({ project, baseUrl: server().url });
  const handler = traced();
  await handler(1);
  expect(await shutdown()).toEqual({ sent: 4, dropped: 0, spooled: 0, pending: 0 });
  const queued = getExportStats().queued;
  await expect(handler(5)).resolves.toBe('done');
  expect(getExportStats().queued).toBe(queued);
  expect(await readCalls(server().url, project)).toHaveLength(2);
});

it('a call still running at shutdown() has its end sent when it ends, so it does not stay running', async () => {
  const project = uniqueProject('end-after-shutdown');
  init({ project, baseUrl: server().url, flushIntervalMs: NEVER });
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const slow = op(async function slow() {
    await gate;
    return 'late';
  });
  const running = slow();
  await shutdown();
  const quick = op(function quick() { return 1; });
  quick(); // started after shutdown(): not recorded
  release();
  await expect(running).resolves.toBe('late');
  expect(await waitForEnded(server().url, project, 1, 5_000)).toBe(1);
  const calls = await readCalls(server().url, project);
  expect(calls.map((c) => [c.op_name, c.output])).toEqual([['slow', 'late']]);
});
