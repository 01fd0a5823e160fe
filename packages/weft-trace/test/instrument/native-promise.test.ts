// @weft-test: runtime
// A returned native promise comes back as a native promise (not a Proxy), and its call ends even when nobody awaits it (and, ending after its parent, still counts in the parent's summary).
import { types } from 'node:util';
import { expect, it } from 'vitest';
import { op } from '../../src/index.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { expectIsoUtc } from 'weft-test-kit/shapes.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();

it('hands back a native promise of the same value, not a Proxy, though async_hooks put symbols on every promise', async () => {
  const add = op(async function add(a: number, b: number) { return a + b; });
  const calls = await traced(server(), 'native-promise', async () => {
    const p = add(1, 2);
    expect(types.isProxy(p)).toBe(false);
    expect(Object.getPrototypeOf(p)).toBe(Promise.prototype);
    expect(await p).toBe(3);
  });
  expect(one(calls, 'add')).toMatchObject({ inputs: { a: 1, b: 2 }, output: 3, summary: { status_counts: { success: 1, error: 0 } } });
});

it('ends a call whose promise nobody awaits (fire and forget)', async () => {
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const notify = op(async function notify(to: string) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    done();
    return `sent to ${to}`;
  });
  const calls = await traced(server(), 'fire-and-forget', async () => {
    void notify('ops');
    await finished;
    await new Promise((resolve) => setImmediate(resolve));
  });
  expect(one(calls, 'notify')).toMatchObject({ inputs: { to: 'ops' }, output: 'sent to ops' });
  expectIsoUtc(one(calls, 'notify').ended_at);
});

it('counts a child that ends after its parent (fire and forget) in the parent\'s stored summary: the server adds it', async () => {
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const usage = { 'gpt-4o-mini': { prompt_tokens: 13, completion_tokens: 12, requests: 1 } };
  const later = op(async function later() {
    await new Promise((resolve) => setTimeout(resolve, 5));
    done();
    return 'late';
  }, { summarize: () => ({ usage }) });
  const handler = op(async function handler() {
    void later();
    return 'answered';
  });
  const calls = await traced(server(), 'outlives-parent', async () => {
    await handler();
    await finished;
    await new Promise((resolve) => setImmediate(resolve));
  });
  expect(Date.parse(one(calls, 'later').ended_at!)).toBeGreaterThanOrEqual(Date.parse(one(calls, 'handler').ended_at!));
  expect(one(calls, 'handler').summary).toMatchObject({ status_counts: { success: 2, error: 0 }, usage });
});

it('keeps a promise that carries its own properties (it comes back as a Proxy with them)', async () => {
  const start = op(function start() { return Object.assign(Promise.resolve('ok'), { cancel: () => 'cancelled' }); });
  const calls = await traced(server(), 'promise-props', async () => {
    const p = start();
    expect(p.cancel()).toBe('cancelled');
    expect(await p).toBe('ok');
  });
  expect(one(calls, 'start').output).toBe('ok');
});
