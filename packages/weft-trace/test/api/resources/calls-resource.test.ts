// @weft-test: postgres
// The typed client against a real server: calls.start, upsertBatch, streamQuery, and typed errors.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  APIConnectionError,
  Client,
  InternalServerError,
  NotFoundError,
  RequestValidationError,
  ValidationError,
} from '../../../src/index.js';
import { upsertCallsRaw } from '../../../src/api/core/raw-batch.js';
import { startTestServer, useTestServer } from 'weft-test-kit/server.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { expectUuidv7 } from 'weft-test-kit/shapes.js';

const server = useTestServer();
let client: Client;
beforeAll(() => {
  client = new Client({ baseUrl: server().url, maxRetries: 0 });
});
afterAll(async () => {
  await client.close();
});

const start = (project: string, extra: Record<string, unknown> = {}) => ({
  project_id: project,
  op_name: 'f',
  started_at: new Date().toISOString(),
  inputs: {},
  attributes: {},
  ...extra,
});

describe('calls', () => {
  it('start() gets server-generated id and trace_id', async () => {
    const project = uniqueProject('start');
    const res = await client.calls.start({ start: start(project) });
    expectUuidv7(res.id);
    expectUuidv7(res.trace_id);
    const rows = await client.calls.streamQuery({ project_id: project }).toArray();
    expect(rows.map((r) => r.id)).toEqual([res.id]);
  });

  it('upsertBatch() answers one item per batch item, in order', async () => {
    const project = uniqueProject('batch');
    const res = await client.calls.upsertBatch({
      batch: [
        { mode: 'start', req: { start: start(project, { id: 'c1', trace_id: 't1' }) } },
        { mode: 'end', req: { end: { project_id: project, id: 'c1', ended_at: new Date().toISOString(), output: 5, summary: {} } } },
        { mode: 'start', req: { start: start(project, { id: 'c2', trace_id: 't1', parent_id: 'c1' }) } },
      ],
    });
    expect(res.res).toEqual([{ id: 'c1', trace_id: 't1' }, {}, { id: 'c2', trace_id: 't1' }]);
  });

  it('upsertCallsRaw() (internal, the exporter\'s) sends a serialized body (string or Buffer) as is and answers {res}', async () => {
    const project = uniqueProject('raw');
    const body = (id: string) => JSON.stringify({ batch: [{ mode: 'start', req: { start: start(project, { id, trace_id: 't1' }) } }] });
    expect(await upsertCallsRaw(client, body('r1'))).toEqual({ res: [{ id: 'r1', trace_id: 't1' }] });
    expect(await upsertCallsRaw(client, Buffer.from(body('r2')))).toEqual({ res: [{ id: 'r2', trace_id: 't1' }] });
    const rows = await client.calls.streamQuery({ project_id: project }).toArray();
    expect(rows.map((r) => r.id)).toEqual(['r1', 'r2']);
  });

  it('upsertCallsRaw() does not validate before sending: a 422 from the server names the bad item', async () => {
    const project = uniqueProject('raw-bad');
    const body = JSON.stringify({ batch: [{ mode: 'start', req: { start: start(project) } }, { mode: 'start', req: { start: start(project, { op_name: '' }) } }] });
    const err = await upsertCallsRaw(client, body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).detail.map((d) => d.loc.slice(0, 3))).toContainEqual(['body', 'batch', '1']);
  });

  it('streamQuery() yields records and is single-use', async () => {
    const project = uniqueProject('stream');
    const batch = Array.from({ length: 30 }, (_, i) => ({
      mode: 'start' as const,
      req: { start: start(project, { op_name: `op${i % 3}` }) },
    }));
    await client.calls.upsertBatch({ batch });
    const stream = client.calls.streamQuery({ project_id: project, filter: { op_names: ['op1'] } });
    const seen: string[] = [];
    for await (const rec of stream) seen.push(rec.op_name);
    expect(seen).toEqual(Array(10).fill('op1'));
    expect(() => stream[Symbol.asyncIterator]()).toThrowError(/already been consumed/);
  });

  it('leaving a streamQuery loop early stops reading and leaves the client usable', async () => {
    const project = uniqueProject('break');
    const batch = Array.from({ length: 2000 }, () => ({ mode: 'start' as const, req: { start: start(project, { inputs: { pad: 'x'.repeat(500) } }) } }));
    await client.calls.upsertBatch({ batch });
    let n = 0;
    for await (const _ of client.calls.streamQuery({ project_id: project })) if (++n === 3) break;
    expect(n).toBe(3);
    const again = await client.calls.streamQuery({ project_id: project, limit: 5 }).toArray();
    expect(again).toHaveLength(5);
  });
});

describe('typed errors', () => {
  it('validates requests before sending', () => {
    const bad = { project_id: 'a/b', filter: { trace_roots_only: 'yes' } } as unknown as Parameters<Client['calls']['streamQuery']>[0];
    try {
      client.calls.streamQuery(bad);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(RequestValidationError);
      expect((err as RequestValidationError).detail[0]?.loc).toEqual(['filter', 'trace_roots_only']);
    }
  });

  it('start() and upsertBatch() reject (never throw) an invalid request, like every other promise method', async () => {
    const startBody = { start: { project_id: 'a/b', op_name: 3 } } as unknown as Parameters<Client['calls']['start']>[0];
    const started = client.calls.start(startBody);
    await expect(started).rejects.toBeInstanceOf(RequestValidationError);
    const batch = { batch: [{ mode: 'nope' }] } as unknown as Parameters<Client['calls']['upsertBatch']>[0];
    await expect(client.calls.upsertBatch(batch)).rejects.toBeInstanceOf(RequestValidationError);
  });

  it('maps a server 422 to ValidationError with its detail', async () => {
    const err = await client.transport.post('/call/start', { start: { op_name: 3 } }, z.unknown()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const v = err as ValidationError;
    expect(v.status).toBe(422);
    expect(v.detail.map((d) => d.loc.join('.'))).toContain('body.start.op_name');
    expect(v.message).toContain('body.start.op_name');
  });

  it('maps 404 and 5xx to their classes', async () => {
    await expect(client.transport.post('/no/such/path', {}, z.unknown())).rejects.toBeInstanceOf(NotFoundError);
    // A real fault: a server whose database is closed answers 500.
    const broken = await startTestServer();
    broken.store.close();
    const brokenClient = new Client({ baseUrl: broken.url, maxRetries: 0 });
    try {
      await expect(brokenClient.calls.start({ start: start('a/b') })).rejects.toBeInstanceOf(InternalServerError);
    } finally {
      await brokenClient.close();
      await broken.close();
    }
  });

  it('raises APIConnectionError when nothing listens', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise((r) => probe.close(r));
    const dead = new Client({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
    await expect(dead.calls.start({ start: start('a/b') })).rejects.toBeInstanceOf(APIConnectionError);
  });
});

describe('auth', () => {
  it('sends Basic api:<key> on core endpoints and Bearer on /v1/preview/*, and tolerates unknown response fields', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const echo = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"x","trace_id":"y","future_field":{"a":1}}'));
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    const { port } = echo.address() as AddressInfo;
    const keyed = new Client({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'sekret' });
    try {
      const res = await keyed.calls.start({ start: start('a/b') });
      expect(res).toMatchObject({ id: 'x', trace_id: 'y' }); // unknown response fields are tolerated
      await keyed.transport.post('/v1/preview/training-jobs', {}, z.unknown());
    } finally {
      await keyed.close();
      await new Promise((r) => echo.close(r));
    }
    expect(seen[0]?.authorization).toBe(`Basic ${Buffer.from('api:sekret').toString('base64')}`);
    expect(seen[1]?.authorization).toBe('Bearer sekret');
  });
});
