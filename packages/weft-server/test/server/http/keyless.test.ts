// @weft-test: postgres
// Issue 11 item 7: a keyless server refuses browsers (foreign Host or Origin) and non-JSON bodies; the SDK still works.
import { request } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Client, flush, init, op } from 'weft-trace';
import { isLoopbackHost } from '../../../src/server/http/loopback.js';
import { mediaType } from '../../../src/server/http/content-type.js';
import { startTestServer, useTestServer } from 'weft-test-kit/server.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { start } from 'weft-test-kit/server-http.js';

const server = useTestServer();

interface Answer {
  status: number;
  detail: unknown;
}

/** POSTs a call start with raw headers over node:http (fetch may not set `Host`); returns the status and `detail`. */
function rawStart(project: string, id: string, headers: Record<string, string>, port = server().port): Promise<Answer> {
  const body = JSON.stringify({ start: start({ project_id: project, id }) });
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/call/start', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, detail: (JSON.parse(text) as { detail?: unknown }).detail }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const own = (): string => `127.0.0.1:${server().port}`;
const JSON_TYPE = { 'content-type': 'application/json' };

describe('keyless mode: browsers are refused', () => {
  it('refuses the cross-site write of the issue (text/plain, Origin and Host evil.example) and stores nothing', async () => {
    const project = uniqueProject('keyless');
    const res = await rawStart(project, 'evil', { 'content-type': 'text/plain', origin: 'http://evil.example', host: 'evil.example' });
    expect(res.status).toBe(403);
    expect(await server().store.countRows(project)).toBe(0);
  });

  it('answers 403 to a Host that is not loopback (DNS rebinding), whatever the rest', async () => {
    const project = uniqueProject('keyless');
    for (const host of ['evil.example', `evil.example:${server().port}`, '192.0.2.7', 'localhost.evil.example', '127.0.0.1.evil.example']) {
      const res = await rawStart(project, 'x', { ...JSON_TYPE, host });
      expect(res.status, host).toBe(403);
      expect(res.detail).toMatch(/loopback host/);
    }
    expect(await server().store.countRows(project)).toBe(0);
  });

  it('serves every loopback Host: localhost, *.localhost, 127.x, [::1], with or without a port', async () => {
    const project = uniqueProject('keyless');
    const port = server().port;
    const hosts = [own(), `localhost:${port}`, 'LOCALHOST', `app.localhost:${port}`, '127.9.8.7', `[::1]:${port}`, '[::1]'];
    for (const [i, host] of hosts.entries()) expect((await rawStart(project, `h${i}`, { ...JSON_TYPE, host })).status, host).toBe(200);
    expect(await server().store.countRows(project)).toBe(hosts.length);
  });

  it("answers 403 to an Origin other than the server's own, and serves its own origin and no Origin", async () => {
    const project = uniqueProject('keyless');
    const port = server().port;
    for (const origin of ['http://evil.example', 'null', `http://localhost:${port}`, `https://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`]) {
      const res = await rawStart(project, 'x', { ...JSON_TYPE, host: own(), origin });
      expect(res.status, origin).toBe(403);
      expect(res.detail).toMatch(/another origin/);
    }
    expect((await rawStart(project, 'same', { ...JSON_TYPE, host: own(), origin: `http://${own()}` })).status).toBe(200);
    expect((await rawStart(project, 'none', { ...JSON_TYPE, host: own() })).status).toBe(200);
    expect(await server().store.countRows(project)).toBe(2);
  });
});

describe('request bodies must be application/json (every mode)', () => {
  it('answers 415 to a POST with another or no Content-Type, and serves application/json with parameters', async () => {
    const project = uniqueProject('keyless');
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonl', '']) {
      const res = await rawStart(project, 'x', type ? { 'content-type': type } : {});
      expect(res.status, type).toBe(415);
      expect(res.detail).toMatch(/application\/json/);
    }
    expect((await rawStart(project, 'a', { 'content-type': 'application/json; charset=utf-8' })).status).toBe(200);
    expect((await rawStart(project, 'b', { 'content-type': 'Application/JSON;charset="UTF-8"' })).status).toBe(200);
    expect(await server().store.countRows(project)).toBe(2);
  });

  it('answers 415 with API keys too, after the credentials check', async () => {
    const keyed = await startTestServer({ apiKeys: ['k'] });
    try {
      const auth = `Basic ${Buffer.from('api:k').toString('base64')}`;
      expect((await rawStart('a/b', 'x', { 'content-type': 'text/plain' }, keyed.port)).status).toBe(401);
      expect((await rawStart('a/b', 'x', { 'content-type': 'text/plain', authorization: auth }, keyed.port)).status).toBe(415);
      expect((await rawStart('a/b', 'x', { ...JSON_TYPE, authorization: auth }, keyed.port)).status).toBe(200);
    } finally {
      await keyed.close();
    }
  });
});

describe('the SDK still works against a keyless server', () => {
  it('the exporter (init, op, flush) and the typed client write and read calls', async () => {
    const project = uniqueProject('keyless');
    init({ project, baseUrl: server().url });
    await op(async function traced(x: number) {
      return x + 1;
    })(1);
    await flush();
    const client = new Client({ baseUrl: server().url, maxRetries: 0 });
    try {
      await client.calls.start({ start: start({ project_id: project, id: 'typed' }) as never });
      const ids = (await readCalls(server().url, project)).map((c) => c.op_name);
      expect(ids).toHaveLength(2);
      const table = await client.tables.create({ project_id: project, rows: [{ a: 1 }] });
      expect((await client.tables.query({ project_id: project, digest: table.digest })).rows).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});

describe('properties', () => {
  const port = fc.option(fc.integer({ min: 0, max: 65535 }).map((p) => `:${p}`), { nil: '' });
  const byte = fc.integer({ min: 0, max: 255 });

  it('every 127.0.0.0/8 address, localhost name and [::1] is a loopback Host, with any port', () => {
    const name = fc.oneof(
      fc.tuple(byte, byte, byte).map(([a, b, c]) => `127.${a}.${b}.${c}`),
      fc.constantFrom('localhost', 'LocalHost', 'localhost.', '[::1]', '[0:0:0:0:0:0:0:1]'),
      fc.domain().map((d) => `${d}.localhost`),
    );
    fc.assert(fc.property(name, port, (n, p) => isLoopbackHost(n + p)));
  });

  it('no other domain or IPv4 address is a loopback Host', () => {
    const other = fc.oneof(
      fc.domain().filter((d) => !/(^|\.)localhost\.?$/i.test(d)),
      fc.tuple(byte.filter((a) => a !== 127), byte, byte, byte).map((parts) => parts.join('.')),
      fc.ipV6().filter((a) => a !== '::1' && !/^[0:]*:1$/.test(a)).map((a) => `[${a}]`),
    );
    fc.assert(fc.property(other, port, (n, p) => !isLoopbackHost(n + p)));
  });

  it('application/json with any parameters and case is JSON; no other media type is', () => {
    const params = fc.array(fc.tuple(fc.stringMatching(/^[a-z]{1,8}$/), fc.stringMatching(/^[A-Za-z0-9-]{1,8}$/)).map(([k, v]) => `; ${k}=${v}`));
    const cased = fc.constant('application/json').chain((t) => fc.mixedCase(fc.constant(t)));
    fc.assert(fc.property(cased, params, (t, ps) => mediaType(t + ps.join('')) === 'application/json'));
    fc.assert(fc.property(fc.stringMatching(/^[a-z]+\/[a-z+.-]+$/).filter((t) => t !== 'application/json'), (t) => mediaType(t) !== 'application/json'));
  });
});
