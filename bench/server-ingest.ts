// Server side: ingest calls/s through POST /call/upsert_batch (pre-serialized bodies, 2 requests in flight) into a fresh file database.
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { contextLine } from './lib/context-line.js';
import { startChildServer } from './lib/server.js';
import { countCompleteCalls } from './lib/stored.js';
import { num, printTable, QUICK, verdict } from './lib/table.js';

const CALLS = QUICK ? 20_000 : 50_000;
const CALLS_PER_BATCH = 500; // 1,000 items: each call's start and end, as the SDK's default batch of 500 events twice over
const IN_FLIGHT = 2;
const PROJECT = 'bench/ingest';

/** One upsert_batch body of `n` complete calls, shaped like what op() sends (small inputs and output, a summary). */
function batchBody(n: number): string {
  const batch: unknown[] = [];
  const now = Date.now();
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    const started_at = new Date(now + i).toISOString();
    batch.push({ mode: 'start', req: { start: { project_id: PROJECT, id, trace_id: id, op_name: 'add', started_at, inputs: { a: i, b: 2 }, attributes: {} } } });
    batch.push({ mode: 'end', req: { end: { project_id: PROJECT, id, ended_at: started_at, output: i + 2, summary: { status_counts: { success: 1, error: 0 }, usage: {} } } } });
  }
  return JSON.stringify({ batch });
}

const bodies = Array.from({ length: Math.ceil(CALLS / CALLS_PER_BATCH) }, () => batchBody(CALLS_PER_BATCH));
const server = await startChildServer();
const url = `${server.url}/call/upsert_batch`;

async function send(body: string): Promise<void> {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  await res.body.dump();
  if (res.statusCode !== 200) throw new Error(`upsert_batch answered ${res.statusCode}`);
}

await send(batchBody(50)); // warm-up: connection, statements, JIT
const t0 = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: IN_FLIGHT }, async () => {
    while (next < bodies.length) await send(bodies[next++] ?? '');
  }),
);
const seconds = (performance.now() - t0) / 1000;
const stored = countCompleteCalls(server.dbPath, PROJECT) - 50;
await server.close();

const callsPerSec = CALLS / seconds;
printTable(
  `Server ingest: ${num(CALLS)} calls (start + end) in batches of ${CALLS_PER_BATCH} calls, ${IN_FLIGHT} requests in flight, file database · ${contextLine()}`,
  ['figure', 'value', 'target'],
  [
    ['calls/s', num(callsPerSec), verdict(callsPerSec >= 200_000, '>= 200,000')],
    ['events/s', num(callsPerSec * 2), ''],
    ['calls stored / sent', `${num(stored)}/${num(CALLS)}`, ''],
  ],
);
if (stored !== CALLS) {
  console.log('CHECK FAILED: not every call was stored');
  process.exitCode = 1;
}
