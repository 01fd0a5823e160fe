// @weft-test: runtime
// Sampling per trace (children follow the root; unsampled traces record nothing at any depth) and the off switches.
import { describe, expect, it } from 'vitest';
import { ConfigError, flush, getCurrentCall, init, op } from '../../src/index.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { resolveSettings } from '../../src/settings.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();

const leaf = op(async function leaf(i: number) { return getCurrentCall() === undefined ? `untraced ${i}` : `traced ${i}`; });
const mid = op(async function mid(i: number) { return leaf(i); });
const root = op(async function root(i: number) { return mid(i); });

describe('sampleRate', () => {
  it('records whole traces or nothing, about sampleRate of them', async () => {
    const results: string[] = [];
    const calls = await traced(server(), 'sample-half', async () => {
      for (let i = 0; i < 200; i++) results.push(await root(i));
    }, { sampleRate: 0.5 });
    const roots = calls.filter((c) => c.op_name === 'root');
    // 200 Bernoulli(0.5) draws: outside [60, 140] has probability < 1e-8
    expect(roots.length).toBeGreaterThan(60);
    expect(roots.length).toBeLessThan(140);
    expect(calls).toHaveLength(roots.length * 3);
    for (const r of roots) {
      const m = calls.filter((c) => c.parent_id === r.id);
      expect(m.map((c) => c.op_name)).toEqual(['mid']);
      expect(calls.filter((c) => c.parent_id === m[0]?.id).map((c) => c.op_name)).toEqual(['leaf']);
    }
    // unsampled traces still ran, and their children saw no call (they were not started as new roots)
    expect(results.filter((r) => r.startsWith('untraced'))).toHaveLength(200 - roots.length);
  });

  it('records nothing at 0 and everything at 1 (the default)', async () => {
    const none = await traced(server(), 'sample-0', () => root(1), { sampleRate: 0 });
    expect(none).toHaveLength(0);
    const all = await traced(server(), 'sample-1', async () => { for (let i = 0; i < 5; i++) await root(i); });
    expect(all).toHaveLength(15);
  });

  it('keeps a generator left out by sampling out, even when its body runs after sampling changed', async () => {
    const project = uniqueProject('sample-gen');
    init({ project, baseUrl: server().url, sampleRate: 0 });
    const gen = op(function* pages() { yield leaf(1); yield leaf(2); });
    const it = gen();
    init({ project, baseUrl: server().url, sampleRate: 1 });
    // the body runs now, on next(): its calls still belong to the trace that was left out
    expect(await Promise.all([...it])).toEqual(['untraced 1', 'untraced 2']);
    expect(await root(3)).toBe('traced 3');
    await flush();
    expect((await readCalls(server().url, project)).map((c) => c.op_name)).toEqual(['root', 'mid', 'leaf']);
  });

  it('reads WEFT_SAMPLE_RATE and refuses values outside 0..1 with a clear ConfigError', () => {
    expect(resolveSettings({ project: 'a/b' }, { WEFT_SAMPLE_RATE: '0.25' }).sampleRate).toBe(0.25);
    expect(() => init({ project: 'a/b', sampleRate: 1.5 })).toThrowError(ConfigError);
    expect(() => resolveSettings({ project: 'a/b' }, { WEFT_SAMPLE_RATE: 'half' })).toThrowError(/sampleRate: expected a number from 0 to 1, got NaN/);
  });
});
