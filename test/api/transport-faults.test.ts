// Transport faults on a real loopback socket: a body that stalls is a typed, retried timeout; aborts are typed and early.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { APIConnectionTimeoutError, APIUserAbortError, Client } from '../../src/index.js';

let stalling: Server | undefined;
afterEach(async () => {
  stalling?.closeAllConnections();
  await new Promise((r) => stalling?.close(r));
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
    for await (const rec of client.calls.streamQuery({ project_id: 'p' })) seen.push(rec.id);
  })().catch((e: unknown) => e);
  expect(seen).toEqual(['a']);
  expect(err).toBeInstanceOf(APIConnectionTimeoutError);
});

it('does not send a query whose signal is already aborted, and types a mid-stream abort', async () => {
  const { url, requests } = await stallingServer('{"id":"a","project_id":"p","op_name":"f","trace_id":"a","started_at":"x"}\n');
  const client = new Client({ baseUrl: url, maxRetries: 0 });
  const aborted = AbortSignal.abort();
  await expect(client.calls.streamQuery({ project_id: 'p' }, { signal: aborted }).toArray()).rejects.toBeInstanceOf(APIUserAbortError);
  expect(requests()).toBe(0);
  const controller = new AbortController();
  const err = await (async () => {
    for await (const _ of client.calls.streamQuery({ project_id: 'p' }, { signal: controller.signal })) controller.abort();
  })().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(APIUserAbortError);
});
