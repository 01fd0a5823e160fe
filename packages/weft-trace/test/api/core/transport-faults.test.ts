// Transport faults on a real loopback socket: stalls are typed, retried timeouts; aborts are typed and early; Retry-After and the retry budget are obeyed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { APIConnectionTimeoutError, APIError, APIUserAbortError, Client, InternalServerError } from '../../../src/index.js';
import { isRetryableError, retryAfterMs } from '../../../src/api/core/retry.js';
import type { RetryInfo } from '../../../src/api/core/transport.js';
import { CallStartRes } from '../../../src/schema/calls.js';
import { startTestServer } from 'weft-test-kit/server.js';
import { startFaultProxy } from 'weft-test-kit/fault-proxy.js';

let stalling: Server | undefined;
afterEach(async () => {
  if (!stalling) return;
  stalling.closeAllConnections();
  await new Promise((r) => stalling?.close(r));
  stalling = undefined;
});

/** A server that answers 200, writes `head` of the body, then never finishes. Counts requests. */
async function stallingServer(head: string): Promise<{ url: string; requests: () => number }> {
  let n = 0;
  stalling = createServer((req, res) => {
    n++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/jsonl' });
    res.write(head);
  });
  await new Promise<void>((r) => stalling?.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`, requests: () => n };
}

it('turns a stalled JSON body into APIConnectionTimeoutError, after retrying', async () => {
  const { url, requests } = await stallingServer('{"id":');
  const client = new Client({ baseUrl: url, timeoutMs: 200, maxRetries: 1 });
  const err = await client.transport.post('/call/start', {}, z.unknown()).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(APIConnectionTimeoutError);
  expect(requests()).toBe(2);
});

it('turns a JSONL stream that stalls mid-way into APIConnectionTimeoutError', async () => {
  const { url } = await stallingServer('{"id":"a","project_id":"p","op_name":"f","trace_id":"a","started_at":"x"}\n');
  const client = new Client({ baseUrl: url, timeoutMs: 200, maxRetries: 0 });
  const seen: string[] = [];
  const err = await (async () => {
    for await (const rec of client.calls.streamQuery({ project_id: 'acme/p' })) seen.push(rec.id);
  })().catch((e: unknown) => e);
  expect(seen).toEqual(['a']);
  expect(err).toBeInstanceOf(APIConnectionTimeoutError);
});

it('does not send a query whose signal is already aborted, and types a mid-stream abort', async () => {
  const { url, requests } = await stallingServer('{"id":"a","project_id":"p","op_name":"f","trace_id":"a","started_at":"x"}\n');
  const client = new Client({ baseUrl: url, maxRetries: 0 });
  const aborted = AbortSignal.abort();
  await expect(client.calls.streamQuery({ project_id: 'acme/p' }, { signal: aborted }).toArray()).rejects.toBeInstanceOf(APIUserAbortError);
  expect(requests()).toBe(0);
  const controller = new AbortController();
  const err = await (async () => {
    for await (const _ of client.calls.streamQuery({ project_id: 'acme/p' }, { signal: controller.signal })) controller.abort();
  })().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(APIUserAbortError);
});

it('reads Retry-After as seconds or as an HTTP date', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  expect(retryAfterMs({ 'retry-after': '3' }, now)).toBe(3_000);
  expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }, now)).toBe(5_000);
  expect(retryAfterMs({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, now)).toBe(0); // in the past: at once
  expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
  expect(retryAfterMs({ 'retry-after-ms': '250', 'retry-after': '3' }, now)).toBe(250);
});

it('waits as long as a 429 Retry-After HTTP date says, then succeeds', async () => {
  const server = await startTestServer();
  const proxy = await startFaultProxy(server.url);
  try {
    const retryAt = new Date(Date.now() + 3_000).toUTCString(); // second precision: 2 to 3 s from now
    proxy.inject({ kind: 'status', status: 429, retryAfter: retryAt }, { ratio: 1 });
    const client = new Client({ baseUrl: proxy.url, maxRetries: 3 });
    const retries: RetryInfo[] = [];
    const started = client.transport.post('/call/start', { start: startBody() }, CallStartRes, {
      retry: { initialDelayMs: 1 },
      onRetry: (info) => {
        retries.push(info);
        proxy.clear();
      },
    });
    await expect(started).resolves.toMatchObject({ id: expect.any(String) });
    expect(retries).toHaveLength(1);
    expect(retries[0]!.error.status).toBe(429);
    expect(retries[0]!.delayMs).toBeGreaterThan(1_000); // the date, not the 1 ms backoff
    expect(retries[0]!.delayMs).toBeLessThanOrEqual(3_000);
    await client.close();
  } finally {
    await proxy.close();
    await server.close();
  }
});

it('stops retrying when the next wait would pass the retry budget', async () => {
  const server = await startTestServer();
  const proxy = await startFaultProxy(server.url);
  try {
    proxy.inject({ kind: 'status', status: 503 });
    const client = new Client({ baseUrl: proxy.url });
    const retries: RetryInfo[] = [];
    const err = await client.transport
      .post('/call/start', { start: startBody() }, CallStartRes, {
        maxRetries: 1_000,
        retry: { initialDelayMs: 20, maxDelayMs: 50, budgetMs: 2_000 }, // time on the wire counts too: room for > 2 retries under load
        onRetry: (info) => retries.push(info),
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect(retries.length).toBeGreaterThan(2);
    expect(retries.length).toBeLessThan(1_000);
    expect(retries.reduce((n, r) => n + r.delayMs, 0)).toBeLessThanOrEqual(2_000);
    expect(proxy.counts.requests).toBe(retries.length + 1);
    await client.close();
  } finally {
    await proxy.close();
    await server.close();
  }
});

function startBody() {
  return { project_id: 'a/b', op_name: 'f', started_at: new Date().toISOString(), inputs: {}, attributes: {} };
}

it('honours a long Retry-After: waits for it within a budget, and does not hammer when it is past the budget or over 60 s without one', async () => {
  const server = await startTestServer();
  const proxy = await startFaultProxy(server.url);
  const client = new Client({ baseUrl: proxy.url, maxRetries: 5 });
  try {
    proxy.inject({ kind: 'status', status: 429, retryAfter: '120' });
    const budgeted = client.transport.post('/call/start', { start: startBody() }, CallStartRes, { retry: { initialDelayMs: 1, budgetMs: 10_000 } });
    await expect(budgeted).rejects.toMatchObject({ status: 429 });
    const unbudgeted = client.transport.post('/call/start', { start: startBody() }, CallStartRes, { retry: { initialDelayMs: 1 } });
    await expect(unbudgeted).rejects.toMatchObject({ status: 429 });
    expect(proxy.counts.faulted).toBe(2); // one attempt each: the 1 ms backoff was not used instead of the 120 s asked for
    const retries: RetryInfo[] = [];
    proxy.inject({ kind: 'status', status: 503, retryAfter: '2' });
    const waited = client.transport.post('/call/start', { start: startBody() }, CallStartRes, {
      retry: { initialDelayMs: 1, budgetMs: 10_000 },
      onRetry: (info) => {
        retries.push(info);
        proxy.clear();
      },
    });
    await expect(waited).resolves.toMatchObject({ id: expect.any(String) });
    expect(retries.map((r) => r.delayMs)).toEqual([2_000]);
  } finally {
    await client.close();
    await proxy.close();
    await server.close();
  }
});

it('classes errors as retryable by status unless x-should-retry says otherwise (the exporter spools what the transport would retry)', () => {
  expect(isRetryableError(new APIError({ status: 503, body: {}, message: 'busy' }))).toBe(true);
  expect(isRetryableError(new APIError({ status: 400, body: {}, message: 'bad' }))).toBe(false);
  expect(isRetryableError(new APIError({ status: 400, body: {}, message: 'later', headers: { 'x-should-retry': 'true' } }))).toBe(true);
  expect(isRetryableError(new APIError({ status: 503, body: {}, message: 'never', headers: { 'x-should-retry': 'false' } }))).toBe(false);
  expect(isRetryableError(new APIUserAbortError())).toBe(false);
});

it('takes a 413 the server sends before reading a large body, and never lets the unwritten rest crash the process', async () => {
  // the server answers at once and closes; the rest of the write fails (EPIPE, ECONNRESET) after the request let go
  // of its socket (node:http would throw that socket's error into the process without a listener of ours)
  const small = await startTestServer({ maxBodyBytes: 64 * 1024 });
  try {
    const client = new Client({ baseUrl: small.url, maxRetries: 0 });
    const outcomes = new Map<string, number>();
    for (const bytes of [100_000, 5_000_000]) {
      for (let i = 0; i < 6; i++) {
        const err = await client.transport.postUnread('/call/upsert_batch', `"${'x'.repeat(bytes)}"`).catch((e: unknown) => e);
        const key = err instanceof APIError && err.status !== undefined ? String(err.status) : err instanceof APIError ? 'connection' : String(err);
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      }
    }
    expect([...outcomes.keys()].filter((k) => k !== '413' && k !== 'connection')).toEqual([]);
    expect(outcomes.get('413')).toBeGreaterThan(7); // the answer is read when it came first (most of the time)
    await new Promise((r) => setTimeout(r, 100)); // late socket errors would surface here, failing the file
  } finally {
    await small.close();
  }
});
