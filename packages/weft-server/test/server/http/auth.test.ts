// @weft-test: postgres
// Server auth over real HTTP: Basic vs Bearer per endpoint, 401 with WWW-Authenticate, project grants (403),
// loopback-only without keys (a real non-loopback connection), key parsing, and the start log of `weft serve`.
import type { ChildProcess } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, Client, PermissionDeniedError } from 'weft-trace';
import type { CallStartReq, TrajectoryLogReq } from 'weft-trace';
import { parseApiKeys } from '../../../src/server/index.js';
import { isLoopbackAddress } from '../../../src/server/http/loopback.js';
import { createApp } from '../../../src/server/app.js';
import { expectUuidv7 } from 'weft-test-kit/shapes.js';
import { startTestServer, useTestServer } from 'weft-test-kit/server.js';
import { start } from 'weft-test-kit/server-http.js';
import { killGroup, spawnCli } from 'weft-test-kit/child-processes.js';

const KEYS = ['all-key', 'grant-key=acme/a,acme/b'];
const server = useTestServer({ apiKeys: KEYS });
const clients: Client[] = [];
const clientWith = (apiKey?: string): Client => {
  const c = new Client({ baseUrl: server().url, apiKey, maxRetries: 0 });
  clients.push(c);
  return c;
};
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

const basic = (user: string, key: string): string => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;
const raw = (p: string, authorization?: string, body: unknown = {}): Promise<Response> =>
  fetch(`${server().url}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify(body),
  });
const startReq = (project: string): CallStartReq => ({ start: start({ project_id: project }) as CallStartReq['start'] });
const LOG: TrajectoryLogReq = { split: 'train', trajectory_groups: [{ trajectories: [{ reward: 1 }] }] };

describe('with API keys', () => {
  it('accepts Basic api:<key> on core endpoints and Bearer <key> on /v1/preview/* (the typed client sends both)', async () => {
    const client = clientWith('all-key');
    expectUuidv7((await client.calls.start(startReq('any/project'))).id);
    expect((await client.tables.create({ project_id: 'any/project', rows: [{ a: 1 }] })).row_digests).toHaveLength(1);
    expect((await client.trajectories.log(randomUUID(), LOG)).logged.trajectory_count).toBe(1);
    expectUuidv7((await client.trainingJobs.create({ model_id: randomUUID(), trajectory_groups: LOG.trajectory_groups })).id);
    expect((await raw('/call/start', basic('api', 'all-key'), startReq('x/y'))).status).toBe(200);
    expect((await raw(`/v1/preview/models/m/log`, 'Bearer all-key', LOG)).status).toBe(200);
  });

  it('answers 401 {detail} with a Basic challenge for missing, wrong, malformed or Bearer credentials on core endpoints', async () => {
    for (const authorization of [undefined, basic('api', 'nope'), basic('someone', 'all-key'), 'Basic !!!', 'Bearer all-key', 'all-key']) {
      const res = await raw('/call/start', authorization, startReq('x/y'));
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="weft", charset="UTF-8"');
      expect(((await res.json()) as { detail: string }).detail).toEqual(expect.any(String));
    }
  });

  it('answers 401 with a Bearer challenge for missing, wrong or Basic credentials on /v1/preview/*', async () => {
    const cases: [string | undefined, string][] = [
      [undefined, 'Bearer realm="weft"'],
      [basic('api', 'all-key'), 'Bearer realm="weft"'],
      ['Bearer nope', 'Bearer realm="weft", error="invalid_token"'],
    ];
    for (const path of ['/v1/preview/models/m/log', '/v1/preview/training-jobs']) {
      for (const [authorization, challenge] of cases) {
        const res = await raw(path, authorization, LOG);
        expect(res.status, `${path} ${authorization}`).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe(challenge);
      }
    }
  });

  it('answers 401 on any other path too, and the typed client raises AuthenticationError', async () => {
    expect((await raw('/no/such/endpoint')).status).toBe(401);
    await expect(clientWith('wrong').calls.start(startReq('x/y'))).rejects.toBeInstanceOf(AuthenticationError);
    await expect(clientWith().tables.query({ project_id: 'x/y', digest: 'd' })).rejects.toBeInstanceOf(AuthenticationError);
    await expect(clientWith('wrong').trajectories.log('m', LOG)).rejects.toMatchObject({ status: 401 });
  });

  it('lets a granted key touch only its projects: 403 {detail} for any other, wherever the body names it', async () => {
    const client = clientWith('grant-key');
    expectUuidv7((await client.calls.start(startReq('acme/a'))).id);
    const { digest } = await client.tables.create({ project_id: 'acme/b', rows: [1, 2] });
    expect((await client.tables.query({ project_id: 'acme/b', digest })).rows).toHaveLength(2);
    expect(await client.calls.streamQuery({ project_id: 'acme/a' }).toArray()).toHaveLength(1);

    await expect(client.calls.start(startReq('acme/c'))).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(client.tables.query({ project_id: 'acme/c', digest })).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(client.calls.streamQuery({ project_id: 'other/x' }).toArray()).rejects.toBeInstanceOf(PermissionDeniedError);
    const end = { project_id: 'acme/c', id: 'x', ended_at: new Date().toISOString(), summary: {} };
    await expect(client.calls.upsertBatch({ batch: [{ mode: 'start', req: startReq('acme/a') }, { mode: 'end', req: { end } }] }))
      .rejects.toMatchObject({ status: 403, body: { detail: 'this API key is not granted project "acme/c"' } });
    expect(await server().store.countRows('acme/c')).toBe(0);
  });

  it('lets any valid key use the preview endpoints (they carry no project)', async () => {
    const res = await clientWith('grant-key').trajectories.log(randomUUID(), LOG);
    expect(res.logged.group_count).toBe(1);
  });

  it('describes its access without the keys', () => {
    expect(server().access).toBe('API key required (2 keys: Basic api:<key>, Bearer on /v1/preview/*)');
    expect(server().access).not.toMatch(/all-key|grant-key/);
  });
});

describe('parseApiKeys', () => {
  it('reads keys, grants and their continuation items across comma lists and repeated values', () => {
    expect(parseApiKeys(['k1, k2=acme/a,acme/b,k3', 'k4=x/y', ''])).toEqual([
      { key: 'k1', projects: null },
      { key: 'k2', projects: ['acme/a', 'acme/b'] },
      { key: 'k3', projects: null },
      { key: 'k4', projects: ['x/y'] },
    ]);
    expect(parseApiKeys([])).toEqual([]);
  });

  it('refuses malformed items by position, never echoing them', () => {
    const cases: [string[], RegExp][] = [
      [['secret1,acme/a'], /item 2 is a project that does not follow/],
      [['secret1=notaproject'], /item 1 grants a project that is not <entity>\/<project>/],
      [['=acme/a'], /item 1 has a malformed key/],
      [['secret 1'], /item 1 has a malformed key/],
      [['secret1', 'secret1=acme/a'], /item 2 repeats a key/],
    ];
    for (const [specs, message] of cases) {
      expect(() => parseApiKeys(specs)).toThrow(message);
      try {
        parseApiKeys(specs);
      } catch (err) {
        expect(String(err)).not.toContain('secret');
      }
    }
  });

  it('makes startServer refuse a malformed key list', async () => {
    await expect(startTestServer({ apiKeys: ['a/b'] })).rejects.toThrow(TypeError);
  });
});

describe('without API keys: loopback clients only', () => {
  it('classifies addresses: 127.0.0.0/8, ::1 and IPv4-mapped 127.x are loopback; nothing else is', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ['192.0.2.7', '::ffff:192.0.2.7', '10.0.0.1', 'fd00::2', '::', '0.0.0.0', '128.0.0.1', 'localhost', '']) {
      expect(isLoopbackAddress(a), a).toBe(false);
    }
  });

  it('serves a loopback client and refuses one connecting from a non-loopback address with 403 {detail}', async () => {
    const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal);
    const open = await startTestServer({ host: '0.0.0.0' });
    try {
      expect(open.access).toBe('no API keys set: loopback clients only');
      const body = JSON.stringify(startReq('x/y'));
      const local = await fetch(`http://127.0.0.1:${open.port}/call/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(local.status).toBe(200);
      // A real connection from this machine's own non-loopback address when it has one; otherwise (a
      // loopback-only sandbox) the same app is handed a request whose socket reports a remote address.
      const remote = external
        ? await fetch(`http://${external.address}:${open.port}/call/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        : await createApp({ store: open.store, apiKeys: [], log: () => {} }).request('/call/start', { method: 'POST', body }, {
            incoming: { socket: { remoteAddress: '192.0.2.7', remotePort: 40000, remoteFamily: 'IPv4' } },
          });
      expect(remote.status).toBe(403);
      expect(((await remote.json()) as { detail: string }).detail).toMatch(/loopback clients only/);
      expect(await open.store.countRows('x/y')).toBe(1);
    } finally {
      await open.close();
    }
  });
});

describe('weft serve start line', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child) killGroup(child);
  });

  /** Spawns `weft serve` and resolves with its start line and URL. */
  function serve(args: string[], env: Record<string, string> = {}): Promise<{ line: string; url: string }> {
    const base = { ...process.env };
    delete base['WEFT_SERVER_API_KEYS'];
    child = spawnCli(['serve', '--port', '0', '--db', ':memory:', ...args], { env: { ...base, ...env } });
    let out = '';
    return new Promise((resolve, reject) => {
      child!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /^weft server listening on (http:\/\/[^ ]+) .*$/m.exec(out);
        if (m) resolve({ line: m[0], url: m[1]! });
      });
      child!.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
  }

  it('says loopback-only when no key is set', async () => {
    const { line } = await serve([]);
    expect(line).toContain('no API keys set: loopback clients only');
  });

  it('takes repeated --api-key flags, requires them, and never prints them', async () => {
    const { line, url } = await serve(['--api-key', 'flag-secret-1', '--api-key', 'flag-secret-2=acme/x,acme/y']);
    expect(line).toContain('API key required (2 keys');
    expect(line).not.toContain('flag-secret');
    const post = (authorization?: string) =>
      fetch(`${url}/call/start`, { method: 'POST', headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) }, body: JSON.stringify(startReq('acme/y')) });
    expect((await post()).status).toBe(401);
    expect((await post(basic('api', 'flag-secret-2'))).status).toBe(200);
  });

  it('reads WEFT_SERVER_API_KEYS when no flag is given', async () => {
    const { line, url } = await serve([], { WEFT_SERVER_API_KEYS: 'env-secret-1,env-secret-2' });
    expect(line).toContain('API key required (2 keys');
    const res = await fetch(`${url}/v1/preview/training-jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer env-secret-2' },
      body: JSON.stringify({ model_id: randomUUID(), trajectory_groups: LOG.trajectory_groups }),
    });
    expect(res.status).toBe(200);
  });
});
