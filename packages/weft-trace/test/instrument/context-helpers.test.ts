// @weft-test: runtime
// Context helpers: withAttributes, withThread, withRun/setRunStep, getCurrentCall, svc_user_id; and op.invoke().
import { describe, expect, it } from 'vitest';
import { getCurrentCall, op, setRunStep, withAttributes, withRun, withThread } from '../../src/index.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const tick = () => new Promise((r) => setTimeout(r, 1));

describe('withAttributes', () => {
  it('applies attributes to calls started inside, merged with outer ones, through await; op attributes win', async () => {
    const inner = op(async function inner() { await tick(); return 1; }, { attributes: { layer: 'op' } });
    const outer = op(async function outer() { return withAttributes({ layer: 'inner', step: 2 }, () => inner()); });
    const calls = await traced(server(), 'attrs', () =>
      withAttributes({ env: 'test', layer: 'outer', token: 'secret' }, async () => {
        await tick();
        await outer();
      }));
    expect(one(calls, 'outer').attributes).toEqual({ env: 'test', layer: 'outer', token: 'REDACTED' });
    expect(one(calls, 'inner').attributes).toEqual({ env: 'test', layer: 'op', step: 2, token: 'REDACTED' });
  });

  it('refuses bad arguments with a TypeError before running anything', () => {
    expect(() => withAttributes(null as never, () => 1)).toThrowError(/withAttributes\(\): attributes must be an object, got null/);
    expect(() => withThread('', () => 1)).toThrowError(/threadId must be a non-empty string/);
    expect(() => withRun({ runId: 'r', step: -1 }, () => 1)).toThrowError(/step must be an integer >= 0, got -1/);
    expect(() => setRunStep(1.5)).toThrowError(/step must be an integer >= 0/);
  });
});

describe('withThread', () => {
  it('sets thread_id; without turnId each outermost call starts a turn its descendants share', async () => {
    const reply = op(async function reply(msg: string) { await tick(); return msg.toUpperCase(); });
    const chat = op(async function chat(msg: string) { return reply(msg); });
    const calls = await traced(server(), 'thread', () =>
      withThread('thread-1', async () => {
        await chat('hi');
        await chat('bye');
      }));
    const chats = calls.filter((c) => c.op_name === 'chat');
    expect(chats.map((c) => c.thread_id)).toEqual(['thread-1', 'thread-1']);
    expect(chats.map((c) => c.turn_id)).toEqual(chats.map((c) => c.id));
    for (const r of calls.filter((c) => c.op_name === 'reply')) {
      expect(r.thread_id).toBe('thread-1');
      expect(r.turn_id).toBe(r.parent_id);
    }
  });

  it('uses an explicit turnId for every call inside', async () => {
    const f = op(function turnStep() { return 1; });
    const calls = await traced(server(), 'thread-turn', () => withThread('t-2', () => { f(); f(); }, { turnId: 'turn-9' }));
    expect(calls.map((c) => [c.thread_id, c.turn_id])).toEqual([['t-2', 'turn-9'], ['t-2', 'turn-9']]);
  });
});

describe('withRun and setRunStep', () => {
  it('fills svc_run_id, svc_run_step and svc_run_step_end; setRunStep changes the step for calls started after it', async () => {
    const rollout = op(async function rollout(i: number) { await tick(); return i; });
    const stepping = op(async function stepping() { await tick(); setRunStep(3); });
    const calls = await traced(server(), 'run', () =>
      withRun({ runId: 'acme/demo/run-7', step: 0 }, async () => {
        await rollout(0);
        setRunStep(1);
        await rollout(1);
        setRunStep(2);
        await Promise.all([rollout(2), rollout(3)]);
        await stepping();
      }));
    // the end step is the step when the call ended (Weave's wb_run_step_end)
    expect(calls.map((c) => [c.svc_run_id, c.svc_run_step, c.svc_run_step_end])).toEqual([
      ['acme/demo/run-7', 0, 0], ['acme/demo/run-7', 1, 1], ['acme/demo/run-7', 2, 2], ['acme/demo/run-7', 2, 2], ['acme/demo/run-7', 2, 3],
    ]);
  });

  it('stamps svc_user_id from init({ userId })', async () => {
    const f = op(function whoami() { return 1; });
    const calls = await traced(server(), 'user', () => f(), { userId: 'user-42' });
    expect(one(calls, 'whoami').svc_user_id).toBe('user-42');
  });
});

describe('getCurrentCall and invoke', () => {
  it('getCurrentCall() gives {id, traceId, parentId, opName} of the running call, undefined outside', async () => {
    let seen: ReturnType<typeof getCurrentCall>;
    const child = op(async function child() { await tick(); seen = getCurrentCall(); });
    const parent = op(async function parent() { await child(); });
    const calls = await traced(server(), 'current', async () => {
      expect(getCurrentCall()).toBeUndefined();
      await parent();
    });
    const c = one(calls, 'child');
    expect(seen).toEqual({ id: c.id, traceId: c.trace_id, parentId: one(calls, 'parent').id, opName: 'child' });
  });

  it('invoke() returns [result, call] for sync and async ops, and rethrows like a plain call', async () => {
    const add = op(function add(a: number, b: number) { return a + b; });
    const mul = op(async function mul(a: number, b: number) { await tick(); return a * b; });
    const fail = op(async function fail() { throw new Error('invoked failure'); });
    let syncCall: unknown;
    let asyncCall: unknown;
    const calls = await traced(server(), 'invoke', async () => {
      const [sum, call1] = add.invoke(2, 3);
      expect(sum).toBe(5);
      syncCall = call1;
      const [product, call2] = await mul.invoke(2, 3);
      expect(product).toBe(6);
      asyncCall = call2;
      await expect(fail.invoke()).rejects.toThrow('invoked failure');
    });
    expect(syncCall).toEqual({ id: one(calls, 'add').id, traceId: one(calls, 'add').id, parentId: undefined, opName: 'add' });
    expect(asyncCall).toMatchObject({ id: one(calls, 'mul').id, opName: 'mul' });
    expect(one(calls, 'fail').exception).toMatchObject({ message: 'invoked failure' });
  });
});
