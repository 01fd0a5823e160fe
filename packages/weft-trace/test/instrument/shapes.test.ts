// @weft-test: runtime
// op() on every function shape: generators, async generators, web ReadableStreams and async iterables are traced lazily.
import { describe, expect, it } from 'vitest';
import { Client, flush, init, op } from '../../src/index.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const tick = () => new Promise((r) => setTimeout(r, 1));

describe('sync generators', () => {
  it('starts the call when called, runs nothing until next(), and nests child ops under it', async () => {
    let ran = 0;
    const child = op(function child(i: number) { return i * 10; });
    const gen = op(function* counter(n: number) {
      for (let i = 0; i < n; i++) {
        ran++;
        yield child(i);
      }
    });
    const calls = await traced(server(), 'gen', () => {
      const it = gen(3);
      expect(ran).toBe(0);
      expect([...it]).toEqual([0, 10, 20]);
    });
    const g = one(calls, 'counter');
    expect(g.inputs).toEqual({ n: 3 });
    expect(g.output).toEqual([0, 10, 20]);
    expect(g.summary?.status).toBe('success');
    const kids = calls.filter((c) => c.op_name === 'child');
    expect(kids.map((k) => k.parent_id)).toEqual([g.id, g.id, g.id]);
    expect(g.summary?.status_counts).toEqual({ success: 4, error: 0 });
  });

  it('records a consumer that breaks early as cancelled, and runs the generator\'s finally in its context', async () => {
    const cleanup = op(function cleanup() { return 'cleaned'; });
    const gen = op(function* letters() {
      try {
        yield 'a';
        yield 'b';
        yield 'c';
      } finally {
        cleanup();
      }
    });
    const reader = op(function reader() {
      for (const x of gen()) if (x === 'b') break;
    });
    const calls = await traced(server(), 'gen-break', () => reader());
    const g = one(calls, 'letters');
    expect(g.output).toEqual(['a', 'b']);
    expect(g.exception ?? null).toBeNull();
    expect(g.summary?.status_counts).toMatchObject({ cancelled: 1, error: 0 });
    expect(g.summary?.status).toBe('cancelled');
    expect(one(calls, 'cleanup').parent_id).toBe(g.id);
    // the parent that broke off is not itself cancelled (it only counts the cancelled child)
    expect(one(calls, 'reader').summary).toMatchObject({ status: 'success', status_counts: { cancelled: 1 } });
    // the same rule in SQL: a query on the derived status finds only the cancelled call
    const project = calls[0]!.project_id;
    const client = new Client({ baseUrl: server().url });
    const found = await client.calls
      .streamQuery({ project_id: project, query: { $expr: { $eq: [{ $getField: 'summary.status' }, { $literal: 'cancelled' }] } } })
      .toArray();
    await client.close();
    expect(found.map((c) => c.op_name)).toEqual(['letters']);
  });

  it('records a generator that throws as an exception and rethrows the same error', async () => {
    const boom = new Error('gen boom');
    const gen = op(function* failing() {
      yield 1;
      throw boom;
    });
    const calls = await traced(server(), 'gen-throw', () => {
      const it = gen();
      expect(it.next()).toEqual({ value: 1, done: false });
      expect(() => it.next()).toThrow(boom);
    });
    const g = one(calls, 'failing');
    expect(g.exception).toMatchObject({ type: 'Error', message: 'gen boom' });
    expect(g.summary?.status).toBe('error');
  });
});

describe('async generators and async iterables', () => {
  it('traces an async generator lazily; children created in each next() nest under it', async () => {
    let started = false;
    const fetchPage = op(async function fetchPage(page: number) { await tick(); return [page, page + 1]; });
    const pages = op(async function* pages(count: number) {
      started = true;
      for (let p = 0; p < count; p++) yield await fetchPage(p);
    });
    const calls = await traced(server(), 'agen', async () => {
      const it = pages(2);
      await tick();
      expect(started).toBe(false);
      const seen: number[][] = [];
      for await (const page of it) seen.push(page);
      expect(seen).toEqual([[0, 1], [1, 2]]);
    });
    const p = one(calls, 'pages');
    expect(p.output).toEqual([[0, 1], [1, 2]]);
    expect(calls.filter((c) => c.op_name === 'fetchPage').map((c) => c.parent_id)).toEqual([p.id, p.id]);
    expect(Date.parse(p.ended_at as string)).toBeGreaterThanOrEqual(Date.parse(p.started_at));
  });

  it('ends the call only when the consumer finishes, not when the function returns', async () => {
    const project = uniqueProject('agen-open');
    init({ project, baseUrl: server().url, flushIntervalMs: 50 });
    const gen = op(async function* slow() { yield 1; yield 2; });
    const it = gen();
    await it.next();
    await flush();
    const [open] = await readCalls(server().url, project);
    expect(open?.summary?.status).toBe('running');
    expect(open?.ended_at ?? null).toBeNull();
    await it.next();
    await it.next();
    await flush();
    const [done] = await readCalls(server().url, project);
    expect(done?.output).toEqual([1, 2]);
    expect(done?.summary?.status).toBe('success');
  });

  it('passes chunks through unchanged, including thenable chunks, and records an error thrown mid-stream', async () => {
    const promiseChunk = Promise.resolve('inner');
    const source = {
      [Symbol.asyncIterator]() {
        let i = 0;
        return {
          next: async () => {
            i++;
            if (i === 1) return { value: promiseChunk, done: false };
            throw new RangeError('stream broke');
          },
        };
      },
      extra: 'kept',
    };
    const open = op(function openStream() { return source; });
    const calls = await traced(server(), 'iter-error', async () => {
      const s = open();
      expect(s.extra).toBe('kept');
      const got: unknown[] = [];
      await expect((async () => { for await (const c of s as AsyncIterable<unknown>) got.push(c); })()).rejects.toThrow('stream broke');
      expect(got[0]).toBe(promiseChunk);
    });
    const c = one(calls, 'openStream');
    expect(c.exception).toMatchObject({ type: 'RangeError', message: 'stream broke' });
  });

  it('traces a stream returned by an async function (an SDK-style `await create({stream: true})`)', async () => {
    const create = op(async function create(prompt: string) {
      await tick();
      return (async function* () { for (const w of prompt.split(' ')) yield w; })();
    });
    const calls = await traced(server(), 'async-stream', async () => {
      const words: string[] = [];
      for await (const w of await create('one two three')) words.push(w);
      expect(words).toEqual(['one', 'two', 'three']);
    });
    expect(one(calls, 'create').output).toEqual(['one', 'two', 'three']);
  });
});

describe('web ReadableStream', () => {
  /** A stream of `n` numbered chunks that counts how many were pulled from its source. */
  function counted(n: number, failAt?: number) {
    const state = { pulled: 0, cancelled: false };
    const stream = new ReadableStream<string>({
      pull(controller) {
        state.pulled++;
        if (state.pulled === failAt) controller.error(new Error('source failed'));
        else if (state.pulled > n) controller.close();
        else controller.enqueue(`chunk-${state.pulled}`);
      },
      cancel() { state.cancelled = true; },
    }, { highWaterMark: 0 });
    return { stream, state };
  }

  it('ends when the consumer has read everything; chunks unchanged', async () => {
    const { stream } = counted(3);
    const read = op(function readStream() { return stream; });
    const calls = await traced(server(), 'rs', async () => {
      const out: string[] = [];
      for await (const c of read() as unknown as AsyncIterable<string>) out.push(c);
      expect(out).toEqual(['chunk-1', 'chunk-2', 'chunk-3']);
    });
    expect(one(calls, 'readStream').output).toEqual(['chunk-1', 'chunk-2', 'chunk-3']);
  });

  it('never reads ahead of the consumer, and a cancel is recorded as cancelled and reaches the source', async () => {
    const { stream, state } = counted(100);
    const read = op(function readSome() { return stream; });
    const calls = await traced(server(), 'rs-cancel', async () => {
      const s = read();
      await tick();
      expect(state.pulled).toBe(0);
      const reader = s.getReader();
      expect((await reader.read()).value).toBe('chunk-1');
      await tick();
      expect(state.pulled).toBe(1);
      await reader.cancel('enough');
      expect(state.cancelled).toBe(true);
    });
    const c = one(calls, 'readSome');
    expect(c.output).toEqual(['chunk-1']);
    expect(c.summary?.status_counts).toMatchObject({ cancelled: 1 });
    expect(c.summary?.status).toBe('cancelled');
  });

  it('nests ops called while producing chunks (pull, or an SDK stream\'s iterator) under the call', async () => {
    const fetchChunk = op(async function fetchChunk(i: number) { await tick(); return `c${i}`; });
    const readable = op(function readable() {
      let i = 0;
      return new ReadableStream<string>({
        async pull(controller) {
          if (i >= 2) return controller.close();
          controller.enqueue(await fetchChunk(i++));
        },
      }, { highWaterMark: 0 });
    });
    const sdkStream = op(function sdkStream() {
      return { async *[Symbol.asyncIterator]() { yield await fetchChunk(9); }, controller: 'kept' };
    });
    const calls = await traced(server(), 'rs-nest', async () => {
      for await (const _ of readable() as unknown as AsyncIterable<string>) void _;
      for await (const _ of sdkStream()) void _;
    });
    const r = one(calls, 'readable');
    const s = one(calls, 'sdkStream');
    expect(r.output).toEqual(['c0', 'c1']);
    expect(calls.filter((c) => c.op_name === 'fetchChunk').map((c) => c.parent_id)).toEqual([r.id, r.id, s.id]);
  });

  it('records a stream error as the exception and hands the consumer the same error', async () => {
    const { stream } = counted(5, 2);
    const read = op(function readBroken() { return stream; });
    const calls = await traced(server(), 'rs-error', async () => {
      const reader = read().getReader();
      await reader.read();
      await expect(reader.read()).rejects.toThrow('source failed');
    });
    expect(one(calls, 'readBroken').exception).toMatchObject({ message: 'source failed' });
  });
});

describe('chunk limits and reducers', () => {
  it('keeps at most maxStreamChunks chunks (op option over init option) and counts the rest', async () => {
    const tenA = op(function* tenA() { for (let i = 0; i < 10; i++) yield i; });
    const tenB = op(function* tenB() { for (let i = 0; i < 10; i++) yield i; }, { maxStreamChunks: 2 });
    const calls = await traced(server(), 'chunks', () => {
      expect([...tenA()]).toHaveLength(10);
      expect([...tenB()]).toHaveLength(10);
    }, { maxStreamChunks: 4 });
    expect(one(calls, 'tenA').output).toEqual([0, 1, 2, 3, '[truncated 6 chunks]']);
    expect(one(calls, 'tenB').output).toEqual([0, 1, '[truncated 8 chunks]']);
  });

  it('hands postprocessOutput and summarize the kept chunks alone; the marker is added to the recorded output after them', async () => {
    const seen: unknown[] = [];
    const tokens = op(function* tokens() { for (let i = 1; i <= 5; i++) yield i; }, {
      maxStreamChunks: 3,
      postprocessOutput: (chunks) => { seen.push(chunks); return (chunks as number[]).map((n) => n * 10); },
      summarize: (chunks) => { seen.push(chunks); return { usage: { m: { total_tokens: (chunks as number[]).reduce((a, b) => a + b, 0) } } }; },
    });
    const calls = await traced(server(), 'chunk-hooks', () => {
      expect([...tokens()]).toEqual([1, 2, 3, 4, 5]);
    });
    expect(seen).toEqual([[1, 2, 3], [1, 2, 3]]);
    const c = one(calls, 'tokens');
    expect(c.output).toEqual([10, 20, 30, '[truncated 2 chunks]']);
    expect(c.summary?.usage).toEqual({ m: { total_tokens: 6 } });
  });

  it('folds chunks with streamReducer, and summarize reads the reduced value', async () => {
    const chat = op(async function* chat() {
      yield { delta: 'Hel', usage: undefined };
      yield { delta: 'lo', usage: { prompt_tokens: 3, completion_tokens: 2 } };
    }, {
      streamReducer: (acc, chunk) => {
        const a = (acc ?? { text: '', usage: undefined }) as { text: string; usage: unknown };
        return { text: a.text + chunk.delta, usage: chunk.usage ?? a.usage };
      },
      summarize: (out) => ({ usage: { 'test-model': { ...((out as unknown as { usage: Record<string, number> }).usage), requests: 1 } } }),
    });
    const calls = await traced(server(), 'reducer', async () => {
      for await (const _ of chat()) void _;
    });
    const c = one(calls, 'chat');
    expect(c.output).toEqual({ text: 'Hello', usage: { prompt_tokens: 3, completion_tokens: 2 } });
    expect(c.summary?.usage).toEqual({ 'test-model': { prompt_tokens: 3, completion_tokens: 2, requests: 1 } });
  });

  it('records a marker when the reducer throws, and the consumer still gets every chunk', async () => {
    const gen = op(function* nums() { yield 1; yield 2; }, { streamReducer: () => { throw new Error('bad reducer'); } });
    const calls = await traced(server(), 'reducer-throws', () => {
      expect([...gen()]).toEqual([1, 2]);
    });
    expect(one(calls, 'nums').output).toBe('[streamReducer threw]');
  });
});
