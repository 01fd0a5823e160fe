// @weft-test: runtime
// Redaction and mask reach every user value that leaves the process (attributes, exceptions, summarize fields, feedback), and a throwing mask warns once per op.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addFeedback, flush, init, op, withAttributes } from '../../src/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
afterEach(() => vi.restoreAllMocks());

/** A mask that replaces `secret` in every string of a JSON value. */
const scrub = (secret: string) => (v: unknown): unknown => JSON.parse(JSON.stringify(v).split(secret).join('***')) as unknown;

/** Inits for a fresh project, runs `run`, flushes, returns the calls with their feedback. */
async function record(label: string, run: () => unknown, mask?: (v: unknown) => unknown): Promise<CallRecord[]> {
  const project = uniqueProject(label);
  init({ project, baseUrl: server().url, flushIntervalMs: 50, mask });
  await run();
  expect((await flush()).dropped).toBe(0);
  return readCalls(server().url, project, { include_feedback: true });
}

/** An op that puts `secret` in its attributes, outer attributes, summarize fields, feedback and (when `fail`) its exception. */
function workload(secret: string, fail: boolean) {
  const inner = op(function inner(x: string) {
    addFeedback({ feedbackType: 'note', payload: { text: `fb ${secret}`, token: 'tok-feedback' } });
    if (fail) throw new Error(`failed on ${secret}`);
    return x;
  }, {
    attributes: { label: `attr ${secret}` },
    summarize: () => ({ note: `sum ${secret}`, usage: { m: { prompt_tokens: 3 } } }),
  });
  return () => withAttributes({ outer: `outer ${secret}`, password: 'pw-attr' }, () => {
    try {
      inner('plain');
    } catch {
      // recorded as the call's exception
    }
  });
}

describe('mask and redaction on every recorded value', () => {
  it('masks attributes, exception message and stack, summarize fields and feedback payloads; redacts feedback keys; usage passes', async () => {
    const secret = 'SECRET-4242';
    const calls = await record('mask-all', async () => {
      workload(secret, false)();
      workload(secret, true)();
    }, scrub(secret));
    expect(calls).toHaveLength(2);
    const text = JSON.stringify(calls);
    expect(text).not.toContain(secret);
    expect(text).not.toMatch(/pw-attr|tok-feedback/);
    const [ok, failed] = calls as [CallRecord, CallRecord];
    expect(ok.attributes).toEqual({ outer: 'outer ***', password: 'REDACTED', label: 'attr ***' });
    expect(ok.summary).toMatchObject({ note: 'sum ***', usage: { m: { prompt_tokens: 3 } } });
    expect(ok.summary?.feedback?.[0]?.payload).toEqual({ text: 'fb ***', token: 'REDACTED' });
    expect(failed.exception).toMatchObject({ type: 'Error', message: 'failed on ***' });
    expect((failed.exception as { stack: string }).stack).toMatch(/^Error: failed on \*\*\*\n/);
  });

  it('a throwing mask withholds each value and logs one warning per op, not one per value', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((m: unknown) => void lines.push(String(m)));
    const leaf = op(function leafOfThree(n: number) { if (n === 2) throw new Error('boom secret'); return n; }, { attributes: { a: 1 } });
    const calls = await record('mask-throws', () => {
      for (let n = 0; n < 3; n++) {
        try {
          leaf(n);
        } catch {
          // recorded
        }
      }
    }, () => { throw new Error('mask bug'); });
    expect(calls).toHaveLength(3);
    const warnings = lines.filter((l) => l.includes('mask threw'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('op "leafOfThree"');
    const failed = calls.find((c) => c.exception)!;
    expect(failed.exception).toEqual({ type: 'Error', message: '[mask threw: value withheld]', stack: '' });
    expect(one(calls.filter((c) => !c.exception).slice(0, 1), 'leafOfThree').attributes).toEqual({ value: '[mask threw: value withheld]' });
    expect(JSON.stringify(calls)).not.toContain('secret');
  });

  it('property: a secret anywhere in attributes, errors, summaries or feedback never reaches the server once mask removes it', async () => {
    // Secrets: at least 6 characters, not a substring of the fixed words around them.
    const secretArb = fc.stringMatching(/^[A-Za-z0-9]{6,16}$/).filter((s) => !/^(Error|inner|plain)/.test(s)).map((s) => `Z${s}Q`);
    await fc.assert(
      fc.asyncProperty(secretArb, fc.boolean(), async (secret, fail) => {
        const calls = await record('mask-prop', workload(secret, fail), scrub(secret));
        expect(calls).toHaveLength(1);
        expect(JSON.stringify(calls)).not.toContain(secret);
        if (!fail) expect(calls[0]?.summary?.usage).toEqual({ m: { prompt_tokens: 3 } }); // summarize runs on success only
      }),
      { numRuns: 12 },
    );
  });
});
