// @weft-test: runtime
// op() on functions returning thenables: lazy ones do not run early, subclasses and extra properties survive, nothing throws into user code.
import { describe, expect, it } from 'vitest';
import { flush, init, op } from '../../src/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';

const server = useTestServer();

async function traced(label: string, run: () => Promise<unknown> | unknown): Promise<CallRecord[]> {
  const project = uniqueProject(label);
  init({ project, baseUrl: server().url, flushIntervalMs: 50 });
  await run();
  await flush();
  return readCalls(server().url, project);
}

/** A lazy query-builder-like thenable: its work runs only when `then` is called. */
class LazyQuery {
  runs = 0;
  where(): this {
    return this;
  }
  then<T>(ok: (v: string) => T, fail?: (e: unknown) => T): Promise<T> {
    this.runs++;
    return Promise.resolve('rows').then(ok, fail);
  }
}

class OddPromise<T> extends Promise<T> {
  constructor(executor: (resolve: (v: T) => void, reject: (e: unknown) => void) => void, readonly tag = 'odd') {
    super(executor);
  }
}

describe('thenables', () => {
  it('does not run a lazy thenable early, runs it once, and records its value when consumed', async () => {
    const q = new LazyQuery();
    const query = op(function query() { return q; });
    const calls = await traced('lazy', async () => {
      const result = query();
      expect(q.runs).toBe(0);
      expect(typeof (result as LazyQuery).where).toBe('function');
      expect(await result).toBe('rows');
      expect(q.runs).toBe(1);
    });
    expect(calls.find((c) => c.op_name === 'query')?.output).toBe('rows');
  });

  it('keeps a Promise subclass usable and its extra properties visible', async () => {
    const sub = op(function sub() {
      return new OddPromise<number>((resolve) => resolve(7));
    });
    const withChild = op(function withChild() {
      return Object.assign(Promise.resolve('done'), { child: { pid: 42 } });
    });
    const calls = await traced('subclass', async () => {
      const p = sub();
      expect((p as OddPromise<number>).tag).toBe('odd');
      expect(await p).toBe(7);
      const q = withChild();
      expect(q.child.pid).toBe(42);
      expect(await q).toBe('done');
      await expect(sub().then((v) => v + 1)).resolves.toBe(8);
    });
    expect(calls.filter((c) => c.op_name === 'sub').map((c) => c.output)).toEqual([7, 7]);
    expect(calls.find((c) => c.op_name === 'withChild')?.output).toBe('done');
  });

  it('keeps withResponse()-style methods working and ends the call when their result settles', async () => {
    class APIPromise<T> extends Promise<T> {
      withResponse(): Promise<{ data: T; status: number }> {
        return this.then((data) => ({ data, status: 200 }));
      }
    }
    const create = op(function create() {
      return new APIPromise<string>((resolve) => setTimeout(() => resolve('completion'), 5));
    });
    const q = new LazyQuery();
    const query = op(function chained() { return q; });
    const calls = await traced('with-response', async () => {
      await expect(create().withResponse()).resolves.toEqual({ data: 'completion', status: 200 });
      expect(await query().where().where()).toBe('rows');
      expect(q.runs).toBe(1);
      // settling the same thenable again, another way, gives each way its own value (never the first one's)
      const p = create();
      await expect(p.withResponse()).resolves.toEqual({ data: 'completion', status: 200 });
      await expect(p).resolves.toBe('completion');
      await expect(p.withResponse()).resolves.toEqual({ data: 'completion', status: 200 });
    });
    const created = calls.filter((c) => c.op_name === 'create');
    expect(created).toHaveLength(2);
    for (const c of created) expect(c).toMatchObject({ output: { data: 'completion', status: 200 }, summary: { status: 'success' } });
    expect(calls.find((c) => c.op_name === 'chained')).toMatchObject({ output: 'rows', summary: { status: 'success' } });
  });

  it('gives each branch of a builder its own value, after the first one ended the call', async () => {
    class Builder {
      constructor(readonly text = 'base') {}
      where(suffix: string): Builder {
        return new Builder(this.text + suffix);
      }
      then<T>(ok: (v: string) => T, fail?: (e: unknown) => T): Promise<T> {
        return Promise.resolve(this.text).then(ok, fail);
      }
    }
    const build = op(function build() { return new Builder(); });
    const calls = await traced('builder-branches', async () => {
      const b = build();
      expect(await b.where('-a')).toBe('base-a');
      expect(await b.where('-b')).toBe('base-b');
      expect(await b).toBe('base');
    });
    expect(calls.map((c) => c.output)).toEqual(['base-a']); // the first settlement is what is recorded
  });

  it('records a rejection seen through catch() of a returned thenable', async () => {
    const failing = op(function failing() {
      return Object.assign(Promise.reject(new Error('later')), { extra: 1 });
    });
    const calls = await traced('thenable-reject', async () => {
      await expect(failing().catch((e: Error) => e.message)).resolves.toBe('later');
    });
    expect(calls[0]?.exception).toMatchObject({ message: 'later' });
  });

  it('never throws into user code when reading `then` throws', async () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('no such property'); } });
    const strict = op(function strict() { return hostile; });
    await traced('hostile', () => {
      expect(strict()).toBe(hostile);
    });
  });
});

describe('hostile values and hooks', () => {
  it('keeps recording when hooks return nothing, throw unreadable errors, or errors have odd stacks', async () => {
    const unreadable = { get message(): string { throw new Error('getter boom'); } };
    const forgot = op((x: number) => x, { name: 'forgot', postprocessInputs: (() => undefined) as never });
    const hostileHook = op((x: number) => x, { name: 'hostileHook', postprocessInputs: () => { throw unreadable; } });
    const oddStack = op(function oddStack() {
      const e = new Error('odd');
      (e as { stack: unknown }).stack = { not: 'a string' };
      throw e;
    });
    const calls = await traced('hostile-hooks', () => {
      expect(forgot(1)).toBe(1);
      expect(hostileHook(2)).toBe(2);
      expect(() => oddStack()).toThrowError('odd');
    });
    const by = (n: string) => calls.find((c) => c.op_name === n);
    expect(by('forgot')?.inputs).toEqual({ value: null });
    expect(by('hostileHook')?.inputs).toEqual({ '[postprocessInputs threw]': true });
    expect(by('oddStack')?.exception).toMatchObject({ type: 'Error', message: 'odd' });
  });
});
