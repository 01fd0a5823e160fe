// BatchSender keeps each call's order through a 413 split and a 422 re-send, against a real loopback server scripted to answer 413, 503 or 422.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { Client } from '../../src/index.js';
import { BatchSender } from '../../src/export/batch-sender.js';
import { toCallEntry } from '../../src/export/call-entry.js';
import type { Entry } from '../../src/export/entry.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A server answering the n-th request (from 0) with `answer(n)`; records each request body. */
async function scripted(answer: (n: number) => { status: number; body: unknown }): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const { status, body } = answer(bodies.length);
      bodies.push(text);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

const project = 'test/order-split';
const id = (i: number) => `01890000-0000-7000-8000-${String(i).padStart(12, '0')}`;
const start = (i: number): Entry =>
  toCallEntry({ mode: 'start', req: { start: { project_id: project, id: id(i), op_name: 'f', started_at: '2026-01-01T00:00:00Z', attributes: {}, inputs: {} } } }, 1 << 20)!;
const end = (i: number): Entry =>
  toCallEntry({ mode: 'end', req: { end: { project_id: project, id: id(i), ended_at: '2026-01-01T00:00:01Z', summary: {} } } }, 1 << 20)!;
const RETRIES = { maxRetries: 2, retryInitialDelayMs: 1, retryMaxDelayMs: 5, retryBudgetMs: 200 };

it('a 413 split does not send the second half (ends of calls started in the first) when the first was not delivered', async () => {
  const server = await scripted((n) => (n === 0 ? { status: 413, body: { detail: 'too large' } } : { status: 503, body: { detail: 'busy' } }));
  const client = new Client({ baseUrl: server.url });
  closers.push(() => client.close());
  const batch = [start(1), start(2), end(1), end(2)];
  const out = await new BatchSender(client, RETRIES).post(batch, new AbortController().signal);
  expect(out.undelivered).toEqual(batch);
  expect(server.bodies.length).toBeGreaterThan(1);
  for (const body of server.bodies.slice(1)) expect(body).not.toContain('"mode":"end"'); // only the first half was tried
});

it('a 422 naming a start re-sends the rest without that call\'s end', async () => {
  const server = await scripted((n) =>
    n === 0
      ? { status: 422, body: { detail: [{ loc: ['body', 'batch', '0', 'req', 'start', 'op_name'], msg: 'bad', type: 'value_error' }] } }
      : { status: 200, body: { res: [] } },
  );
  const client = new Client({ baseUrl: server.url });
  closers.push(() => client.close());
  const out = await new BatchSender(client, RETRIES).post([start(1), start(2), end(1), end(2)], new AbortController().signal);
  expect(out).toMatchObject({ sent: 2, dropped: 2, undelivered: [] });
  expect(server.bodies).toHaveLength(2);
  expect(server.bodies[1]).toBe(`{"batch":[${start(2).json},${end(2).json}]}`);
});
