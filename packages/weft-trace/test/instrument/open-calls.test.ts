// @weft-test: runtime
// The registry of open calls: every started call is linked until it ends, and exit ends the rest as WeftInterrupted (newest first, counts unchanged).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flush, init, op } from '../../src/index.js';
import { addOpenCall, interruptOpenCalls, removeOpenCall, type OpenCall } from '../../src/instrument/open-calls.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();

describe('open-call registry', () => {
  it('property: after any sequence of starts and ends (ends repeated too), exit interrupts exactly the open calls, newest first, once each', () => {
    interruptOpenCalls('clean slate'); // calls of other tests in this file, if any
    const step = fc.oneof(fc.constant({ kind: 'start' as const }), fc.record({ kind: fc.constant('end' as const), pick: fc.nat() }));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const interrupted: number[] = [];
        const made: OpenCall[] = [];
        const model: number[] = []; // open ids in start order
        for (const s of steps) {
          if (s.kind === 'start') {
            const id = made.length;
            const c: OpenCall = { prevOpen: undefined, nextOpen: undefined, interrupt: () => void interrupted.push(id) };
            made.push(c);
            addOpenCall(c);
            model.push(id);
          } else if (made.length > 0) {
            const id = s.pick % made.length;
            removeOpenCall(made[id]!);
            const at = model.indexOf(id);
            if (at >= 0) model.splice(at, 1);
          }
        }
        expect(interruptOpenCalls('exit')).toBe(model.length);
        expect(interrupted).toEqual([...model].reverse());
        expect(interruptOpenCalls('exit again')).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('ends a running call with WeftInterrupted, status_counts of its finished children only; a later settle sends nothing more', async () => {
    const project = uniqueProject('interrupt-in-process');
    init({ project, baseUrl: server().url, flushIntervalMs: 50 });
    let release: (v: string) => void = () => undefined;
    const leaf = op(function leaf() { return 1; });
    const failing = op(function failing() { throw new Error('no'); });
    const parent = op(async function parent() {
      leaf();
      try {
        failing();
      } catch {
        // counted as an error
      }
      return new Promise<string>((r) => (release = r));
    });
    const pending = parent();
    expect(interruptOpenCalls('test')).toBe(1);
    release('late');
    expect(await pending).toBe('late'); // the caller's value is untouched
    expect((await flush()).dropped).toBe(0);
    const calls = await readCalls(server().url, project);
    expect(calls).toHaveLength(3);
    const p = one(calls, 'parent');
    expect(p.exception).toEqual({ type: 'WeftInterrupted', message: 'process exited while the call was running (test)' });
    expect(p.summary?.status_counts).toEqual({ success: 1, error: 1 });
    expect(p.output ?? undefined).toBeUndefined();
  });
});
