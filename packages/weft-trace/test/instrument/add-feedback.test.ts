// @weft-test: isolated runtime (it reads the process-wide export counters, getExportStats)
// addFeedback(): feedback on the current call or a given call id, batched to POST /feedback/batch/create.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFeedback, flush, getExportStats, init, op, RequestValidationError, WeftError } from '../../src/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { startFaultProxy, type FaultProxy } from 'weft-test-kit/fault-proxy.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { expectUuidv7 } from 'weft-test-kit/shapes.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';

const server = useTestServer();
let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startFaultProxy(server().url);
});
afterAll(() => proxy.close());

/** The project's calls with their feedback (stream_query include_feedback). */
const callsWithFeedback = (project: string): Promise<CallRecord[]> => readCalls(server().url, project, { include_feedback: true });

it('records nothing before init() (this test runs first in its process) and returns undefined', () => {
  expect(addFeedback('0190a1b2-0000-7000-8000-000000000000', { feedbackType: 'score', payload: { value: 1 } })).toBeUndefined();
});

describe('addFeedback', () => {
  it('attaches to the running call with addFeedback(options), and to a call from invoke(); ids come back at once', async () => {
    const project = uniqueProject('feedback');
    init({ project, baseUrl: server().url, userId: 'user-7', flushIntervalMs: 50 });
    let innerId: string | undefined;
    const answer = op(async function answer(q: string) {
      innerId = addFeedback({ feedbackType: 'note', payload: { text: `saw ${q}` }, creator: 'self-check' });
      return q.length;
    });
    const [length, call] = await answer.invoke('what is weft?');
    expect(length).toBe(13);
    const outerId = addFeedback(call, {
      feedbackType: 'score',
      payload: { value: 0.9 },
      runnableRef: `svc:///${project}/op/judge:abc123`,
    });
    expectUuidv7(innerId);
    expectUuidv7(outerId);
    const report = await flush();
    expect(report.dropped).toBe(0);

    const [record] = await callsWithFeedback(project);
    const feedback = record!.summary!.feedback!;
    expect(feedback.map((f) => [f.id, f.feedback_type, f.payload])).toEqual([
      [innerId, 'note', { text: 'saw what is weft?' }],
      [outerId, 'score', { value: 0.9 }],
    ]);
    const ref = `svc:///${project}/call/${call!.id}`;
    for (const f of feedback) expect(f).toMatchObject({ svc_ref: ref, call_ref: ref, svc_user_id: 'user-7' });
    expect(feedback[0]).toMatchObject({ creator: 'self-check' });
    expect(feedback[1]).toMatchObject({ runnable_ref: `svc:///${project}/op/judge:abc123` });
  });

  it('refuses malformed options with a RequestValidationError naming the field, and queues nothing', () => {
    init({ project: uniqueProject('feedback-bad'), baseUrl: server().url });
    const queued = getExportStats().queued;
    const bad = () => addFeedback('0190a1b2-0000-7000-8000-000000000000', { feedbackType: '', payload: { v: 1 }, annotationRef: 'not-a-ref' });
    expect(bad).toThrowError(RequestValidationError);
    try {
      bad();
    } catch (err) {
      expect((err as RequestValidationError).detail.map((d) => d.loc)).toEqual([['feedback_type'], ['annotation_ref']]);
    }
    expect(getExportStats().queued).toBe(queued);
  });

  it('throws a WeftError outside a call when no target is given; records nothing for an undefined target, when disabled or unsampled', async () => {
    init({ project: uniqueProject('feedback-none'), baseUrl: server().url });
    expect(() => addFeedback({ feedbackType: 'score', payload: {} })).toThrowError(WeftError);
    const queued = getExportStats().queued;
    const inside = op(function inside() { return addFeedback(undefined, { feedbackType: 'score', payload: {} }); });
    expect(inside()).toBeUndefined(); // an explicit undefined target never falls back to the running call
    await flush();
    expect(getExportStats().queued).toBe(queued + 2); // the call's start and end, no feedback
    const unsampled = op(function unsampled() { return addFeedback({ feedbackType: 'score', payload: {} }); });
    init({ project: uniqueProject('feedback-unsampled'), baseUrl: server().url, sampleRate: 0 });
    expect(unsampled()).toBeUndefined();
    init({ project: uniqueProject('feedback-off'), baseUrl: server().url, enabled: false });
    expect(addFeedback({ feedbackType: 'score', payload: {} })).toBeUndefined();
  });

  it('is retried through a storm of 500s like call events, and arrives once', async () => {
    const project = uniqueProject('feedback-storm');
    init({ project, baseUrl: proxy.url, printViewerLink: false, flushIntervalMs: 20, retryInitialDelayMs: 20, retryMaxDelayMs: 200, retryBudgetMs: 20_000, maxRetries: 1_000 });
    const step = op(function step(i: number) { return i; });
    const ids: string[] = [];
    proxy.inject({ kind: 'status', status: 500 }, { forMs: 1_000 });
    for (let i = 0; i < 50; i++) {
      const [, call] = step.invoke(i);
      ids.push(addFeedback(call, { feedbackType: 'score', payload: { value: i } })!);
    }
    const report = await flush();
    expect(proxy.counts.faulted).toBeGreaterThan(0);
    expect(report).toMatchObject({ dropped: 0, pending: 0 });
    const feedback = (await callsWithFeedback(project)).flatMap((c) => c.summary!.feedback!);
    expect(feedback.map((f) => f.id).sort()).toEqual([...ids].sort());
  });
});
