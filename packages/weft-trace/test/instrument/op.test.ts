// @weft-test: runtime
// op(): the call tree (parent_id / trace_id) through await, Promise.all, timers and emitters; sync stays sync.
import { execFile } from 'node:child_process';
import { AsyncResource } from 'node:async_hooks';
import { EventEmitter } from 'node:events';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { flush, init, op } from '../../src/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { expectUuidv7 } from 'weft-test-kit/shapes.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { bundled } from 'weft-test-kit/ts-bundle.js';

const server = useTestServer();
const run = promisify(execFile);
let project: string;

async function traced(label: string, run: () => Promise<unknown> | unknown): Promise<CallRecord[]> {
  project = uniqueProject(label);
  init({ project, baseUrl: server().url, flushIntervalMs: 50 });
  await run();
  const report = await flush();
  expect(report.dropped).toBe(0);
  return readCalls(server().url, project);
}

const byName = (calls: CallRecord[], name: string) => calls.filter((c) => c.op_name === name);
const one = (calls: CallRecord[], name: string) => {
  const found = byName(calls, name);
  expect(found, `exactly one call of ${name}`).toHaveLength(1);
  return found[0] as CallRecord;
};

describe('call tree', () => {
  it('nests children under their parent through await and shares the trace id', async () => {
    const leaf = op(async function leaf(x: number) {
      await new Promise((r) => setTimeout(r, 1));
      return x * 2;
    });
    const mid = op(async function mid(x: number) {
      return (await leaf(x)) + (await leaf(x + 1));
    });
    const root = op(async function root() {
      return mid(1);
    });
    const calls = await traced('nested', async () => expect(await root()).toBe(6));
    expect(calls).toHaveLength(4);
    const r = one(calls, 'root');
    const m = one(calls, 'mid');
    const leaves = byName(calls, 'leaf');
    expect(r.parent_id ?? null).toBeNull();
    expect(r.trace_id).toBe(r.id);
    expect(m.parent_id).toBe(r.id);
    expect(leaves.map((l) => l.parent_id)).toEqual([m.id, m.id]);
    for (const c of calls) expect(c.trace_id).toBe(r.id);
    expect(leaves.map((l) => l.inputs)).toEqual([{ x: 1 }, { x: 2 }]);
    expect(leaves.map((l) => l.output)).toEqual([2, 4]);
    expect(r.summary?.status_counts).toEqual({ success: 4, error: 0 });
  });

  it('keeps parallel branches of Promise.all apart, each under its own parent', async () => {
    const child = op(async function child(tag: string) {
      await new Promise((r) => setTimeout(r, Math.random() * 5));
      return tag;
    });
    const branch = op(async function branch(tag: string) {
      return Promise.all([child(`${tag}.1`), child(`${tag}.2`)]);
    });
    const root = op(async function fanOut() {
      return Promise.all(['a', 'b', 'c'].map((t) => branch(t)));
    });
    const calls = await traced('parallel', root);
    const r = one(calls, 'fanOut');
    const branches = byName(calls, 'branch');
    expect(branches).toHaveLength(3);
    for (const b of branches) {
      expect(b.parent_id).toBe(r.id);
      const kids = calls.filter((c) => c.parent_id === b.id);
      const tag = (b.inputs as { tag: string }).tag;
      expect(kids.map((k) => k.output).sort()).toEqual([`${tag}.1`, `${tag}.2`]);
    }
    expect(new Set(calls.map((c) => c.trace_id))).toEqual(new Set([r.id]));
  });

  it('carries the parent through setTimeout and event-emitter callbacks', async () => {
    const emitter = new EventEmitter();
    const onTimer = op(function onTimer() { return 'timer'; });
    const onEvent = op(function onEvent(payload: string) { return payload; });
    const root = op(async function subscribe() {
      await new Promise<void>((resolve) => setTimeout(() => { onTimer(); resolve(); }, 5));
      await new Promise<void>((resolve) => {
        emitter.once('ping', (p: string) => { onEvent(p); resolve(); });
        setImmediate(() => emitter.emit('ping', 'pong'));
      });
    });
    const calls = await traced('callbacks', root);
    const r = one(calls, 'subscribe');
    expect(one(calls, 'onTimer').parent_id).toBe(r.id);
    expect(one(calls, 'onEvent').parent_id).toBe(r.id);
    expect(one(calls, 'onEvent').output).toBe('pong');
  });

  it('runs a listener in the emitter\'s context, or in the subscriber\'s when bound with AsyncResource.bind', async () => {
    const bus = new EventEmitter();
    const plain = op(function plainListener() { return 1; });
    const bound = op(function boundListener() { return 2; });
    const subscriber = op(function subscriber() {
      bus.on('msg', () => plain());
      bus.on('msg', AsyncResource.bind(() => bound()));
    });
    const publisher = op(function publisher() { bus.emit('msg'); });
    const calls = await traced('emitter-contexts', () => {
      subscriber();
      publisher();
    });
    expect(one(calls, 'plainListener').parent_id).toBe(one(calls, 'publisher').id);
    expect(one(calls, 'boundListener').parent_id).toBe(one(calls, 'subscriber').id);
  });

  it('starts separate traces for separate root calls', async () => {
    const f = op(async function rootCall(i: number) { return i; });
    const calls = await traced('roots', () => Promise.all([f(1), f(2), f(3)]));
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.trace_id)).size).toBe(3);
    for (const c of calls) expect(c.trace_id).toBe(c.id);
  });
});

describe('exceptions and sync functions', () => {
  it('records an async exception and rethrows the very same error', async () => {
    const boom = new RangeError('out of range');
    const fail = op(async function fail() { throw boom; });
    const root = op(async function catcher() {
      await expect(fail()).rejects.toBe(boom);
      return 'recovered';
    });
    const calls = await traced('async-throw', root);
    const f = one(calls, 'fail');
    expect(f.exception).toMatchObject({ type: 'RangeError', message: 'out of range' });
    expect((f.exception as { stack: string }).stack).toContain('out of range');
    expect(f.summary?.status).toBe('error');
    const c = one(calls, 'catcher');
    expect(c.summary?.status).toBe('descendant_error');
    expect(c.summary?.status_counts).toEqual({ success: 1, error: 1 });
  });

  it('keeps sync functions sync, and records a sync throw', async () => {
    const square = op(function square(n: number) { return n * n; });
    const bad = op(function bad(): never { throw new TypeError('nope'); });
    const calls = await traced('sync', () => {
      const result = square(7);
      expect(result).toBe(49);
      expect(typeof (result as unknown as { then?: unknown }).then).toBe('undefined');
      expect(() => bad()).toThrowError(new TypeError('nope'));
    });
    expect(one(calls, 'square')).toMatchObject({ inputs: { n: 7 }, output: 49 });
    expect(one(calls, 'bad').exception).toMatchObject({ type: 'TypeError', message: 'nope' });
  });

  it('returns a promise of the very same value', async () => {
    const value = { a: 1 };
    const same = op(async function same() { return value; });
    await traced('identity', async () => {
      const out = same();
      expect(out).toBeInstanceOf(Promise);
      expect(await out).toBe(value);
    });
  });

  it('leaves an unhandled rejection unhandled (the process still fails as it would untraced)', async () => {
    const project = uniqueProject('unhandled');
    const result = await run(process.execPath, [await bundled('test/fixtures/unhandled-rejection.ts')], {
      env: { ...process.env, WEFT_BASE_URL: server().url, WEFT_PROJECT: project },
      timeout: 30_000,
    }).catch((err: { code: number; stderr: string }) => err);
    expect((result as { code?: number }).code).toBe(1);
    expect((result as { stderr: string }).stderr).toContain('nobody handles me');
  });
});

describe('recorded fields', () => {
  it('records timestamps as ISO 8601 UTC with ms, ended after started', async () => {
    const wait = op(async function wait() { await new Promise((r) => setTimeout(r, 20)); });
    const calls = await traced('times', wait);
    const c = one(calls, 'wait');
    expect(c.started_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(c.ended_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(c.ended_at as string) - Date.parse(c.started_at)).toBeGreaterThanOrEqual(15);
    expectUuidv7(c.id);
  });

  it('names inputs by parameter, falls back to argN, and honours options', async () => {
    const named = op(function named(first: string, second = 2, ...rest: number[]) { return [first, second, rest]; });
    const destructured = op(({ a }: { a: number }, b: number) => a + b, { name: 'destructured' });
    const custom = op((x: number) => x, {
      name: 'custom',
      parameterNames: ['value'],
      callDisplayName: (x) => `custom(${x})`,
      postprocessInputs: (inputs) => ({ ...inputs, extra: true }),
      postprocessOutput: (out) => ({ wrapped: out }),
      attributes: { team: 'core' },
    });
    const calls = await traced('inputs', () => {
      named('x', 5, 7, 8);
      destructured({ a: 1 }, 2);
      expect(custom(3)).toBe(3);
    });
    expect(one(calls, 'named').inputs).toEqual({ first: 'x', second: 5, rest: [7, 8] });
    expect(one(calls, 'destructured').inputs).toEqual({ arg0: { a: 1 }, b: 2 });
    expect(one(calls, 'custom')).toMatchObject({
      display_name: 'custom(3)',
      inputs: { value: 3, extra: true },
      output: { wrapped: 3 },
      attributes: { team: 'core' },
    });
  });
});

describe('misuse', () => {
  it('refuses a non-function or an empty name when wrapping, with a clear message', () => {
    expect(() => op(42 as unknown as () => void)).toThrowError(/op\(\): expected a function, got number/);
    expect(() => op(() => 1, { name: ' ' })).toThrowError(/option name must be a non-empty string/);
  });

  it('never lets a throwing option hook break the traced function', async () => {
    const calls = await traced('hooks', () => {
      const f = op((x: number) => x + 1, {
        name: 'hooked',
        callDisplayName: () => { throw new Error('display boom'); },
      });
      const g = op((x: number) => x * 2, {
        name: 'postOut',
        postprocessOutput: () => { throw new Error('post boom'); },
      });
      expect(f(1)).toBe(2);
      expect(g(2)).toBe(4);
    });
    expect(one(calls, 'hooked').display_name ?? null).toBeNull();
    expect(one(calls, 'postOut').output).toBe('[postprocessOutput threw]');
  });
});
