// @weft-test: postgres
// In-process route tests of createApp (app.request, no socket), plus a real-HTTP 500 and a chunked 413.
import { describe, expect, it } from 'vitest';
import { createApp, openStore } from '../../../src/server/index.js';
import { startTestServer } from 'weft-test-kit/server.js';
import { PROJECT, post, start } from 'weft-test-kit/server-http.js';

describe('createApp in process', () => {
  it('starts and reads back a call without a socket', async () => {
    const store = openStore(':memory:');
    const app = createApp({ store });
    const res = await app.request('/call/start', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ start: start({ id: 'inproc' }) }) });
    expect(res.status).toBe(200);
    expect((await store.getCall(PROJECT, 'inproc'))?.op_name).toBe('op');
    await store.close();
  });

  it('refuses a maxBodyBytes that is not a positive integer', () => {
    const store = openStore(':memory:');
    expect(() => createApp({ store, maxBodyBytes: 0 })).toThrow(/maxBodyBytes must be a positive integer, got 0/);
    store.close();
  });
});

describe('unexpected errors and streamed bodies', () => {
  it('answers 500 {detail} and logs a line when the store fails, and keeps serving', async () => {
    const lines: string[] = [];
    const server = await startTestServer({ log: (l) => lines.push(l) });
    await server.store.close();
    const res = await post(server, '/call/start', { start: start() });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/Internal Server Error/);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('POST /call/start failed');
    expect((await post(server, '/nope', {})).status).toBe(404);
    await server.close();
  });

  it('answers 413 for a chunked body (no content-length) over the limit', async () => {
    const server = await startTestServer({ maxBodyBytes: 1000 });
    const chunk = new TextEncoder().encode('x'.repeat(600));
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(chunk);
        c.enqueue(chunk);
        c.close();
      },
    });
    const res = await fetch(`${server.url}/call/start`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { detail: string }).detail).toContain('1000 bytes');
    await server.close();
  });
});
