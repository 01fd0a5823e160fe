// @weft-test: postgres
// Tests of client.feedback against the real local server: requests validated before sending, answers parsed, errors typed.
import { beforeAll, describe, expect, it } from 'vitest';
import { Client, RequestValidationError, ValidationError } from '../../../src/index.js';
import { createFeedbackRaw } from '../../../src/api/core/raw-batch.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { startFaultProxy } from 'weft-test-kit/fault-proxy.js';
import { expectIsoUtc, expectUuidv7 } from 'weft-test-kit/shapes.js';
import { storeParts } from 'weft-server/src/server/server-store.js';

const server = useTestServer();
let client: Client;
beforeAll(() => {
  client = new Client({ baseUrl: server().url, maxRetries: 0 });
  return () => client.close();
});

describe('client.feedback.create', () => {
  it('sends the batch and parses {res} in order', async () => {
    const project = uniqueProject('api-fb');
    const before = Date.now();
    const { res } = await client.feedback.create({
      batch: ['a', 'b'].map((id) => ({ project_id: project, svc_ref: `svc:///${project}/call/${id}`, feedback_type: 'thumbs', payload: { up: id === 'a' } })),
    });
    expect(res.map((r) => r.payload)).toEqual([{ up: true }, { up: false }]);
    for (const r of res) {
      expectUuidv7(r.id);
      expectIsoUtc(r.created_at);
      expect(Date.parse(r.created_at)).toBeGreaterThanOrEqual(before - 1);
    }
    expect([...(await storeParts(server().store).feedback.forCalls(project, ['a', 'b'])).keys()]).toEqual(['a', 'b']);
  });

  it('createFeedbackRaw() (internal, the exporter\'s) sends a serialized body as is (ids kept, none added) and answers {res}', async () => {
    const project = uniqueProject('api-fb-raw');
    const id = '01890a5d-ac96-774b-bcce-b302099a8057';
    const body = JSON.stringify({ batch: [{ id, project_id: project, svc_ref: `svc:///${project}/call/r1`, feedback_type: 'score', payload: { value: 2 } }] });
    const { res } = await createFeedbackRaw(client, body);
    expect(res).toHaveLength(1);
    expect(res[0]).toMatchObject({ id, payload: { value: 2 } });
    expect(((await storeParts(server().store).feedback.forCalls(project, ['r1'])).get('r1') ?? []).map((f) => f.id)).toEqual([id]);
  });

  it('refuses a malformed ref before sending, with a typed error and detail', async () => {
    const project = uniqueProject('api-fb-bad');
    const err = await client.feedback
      .create({ batch: [{ project_id: project, svc_ref: `svc:///${project}/calls/x`, feedback_type: 't', payload: {} }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).detail.map((d) => d.loc)).toEqual([['batch', '0', 'svc_ref']]);
    expect((await storeParts(server().store).feedback.forCalls(project, ['x'])).size).toBe(0);
  });
});

describe('client.feedback.stats', () => {
  it('applies the defaults (timezone UTC, value_type numeric) and parses the answer', async () => {
    const project = uniqueProject('api-stats');
    await client.feedback.create({ batch: [{ project_id: project, svc_ref: `svc:///${project}/call/c`, feedback_type: 's', payload: { v: 3 } }] });
    const start = new Date(Date.now() - 60_000).toISOString();
    const stats = await client.feedback.stats({ project_id: project, start, metrics: [{ json_path: 'v', aggregations: ['max'] }] });
    expect(stats.timezone).toBe('UTC');
    expect(stats.granularity).toBe(300);
    expect(stats.window_stats).toEqual({ v: { max: 3 } });
    expect(stats.buckets?.reduce((n, b) => n + b.count, 0)).toBe(1);
  });

  it('refuses an unknown time zone before sending', async () => {
    const err = await client.feedback.stats({ project_id: 'a/b', start: new Date().toISOString(), timezone: 'Nowhere/City' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).detail[0]?.loc).toEqual(['timezone']);
  });

  it('maps a rule only the server can check (start after its clock) to ValidationError', async () => {
    const err = await client.feedback.stats({ project_id: 'a/b', start: '2999-01-01T00:00:00Z' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).status).toBe(422);
    expect((err as ValidationError).detail?.[0]?.loc).toEqual(['body', 'start']);
  });
});

describe('client.feedback.create retried after a lost answer', () => {
  it('stores each item once: items without id get one before the first attempt', async () => {
    const proxy = await startFaultProxy(server().url);
    const retrying = new Client({ baseUrl: proxy.url, maxRetries: 6 });
    try {
      const project = uniqueProject('api-fb-retry');
      proxy.inject({ kind: 'drop-after-upstream' }, { ratio: 1, forMs: 300 });
      const { res } = await retrying.feedback.create({
        batch: [{ project_id: project, svc_ref: `svc:///${project}/call/c1`, feedback_type: 'score', payload: { value: 1 } }],
      });
      expect(proxy.counts.faulted).toBeGreaterThan(0);
      const stored = (await storeParts(server().store).feedback.forCalls(project, ['c1'])).get('c1') ?? [];
      expect(stored.map((f) => f.id)).toEqual([res[0]!.id]);
    } finally {
      await retrying.close();
      await proxy.close();
    }
  });
});
