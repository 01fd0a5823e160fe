// Server side: ingest calls/s through POST /call/upsert_batch (pre-serialized bodies, 2 requests in flight) into a fresh file database, next to the floor: the same bodies parsed and inserted in-process.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { request } from 'undici';
import { callBatchItems } from './lib/call-batches.js';
import { contextLine } from './lib/context-line.js';
import { median } from './lib/pg-cluster.js';
import { benchTempDir, startChildServer } from './lib/server.js';
import { countCompleteCalls } from './lib/stored.js';
import { num, printTable, QUICK, verdict } from './lib/table.js';
import { weftServer } from './lib/weft.js';

const CALLS = QUICK ? 20_000 : 50_000;
const CALLS_PER_BATCH = 500; // 1,000 items: each call's start and end, as the SDK's default batch of 500 events twice over
const IN_FLIGHT = 2;
const PROJECT = 'bench/ingest';

const batchItems = (n: number): Record<string, unknown>[] => callBatchItems(PROJECT, n);
const batchBody = (n: number): string => JSON.stringify({ batch: batchItems(n) });

/**
 * The floor (issue 31, point 3): the same batch bodies the server is sent, each parsed from its JSON text and its
 * rows inserted in-process with a prepared better-sqlite3 statement into a file database with the server's schema
 * and pragmas (WAL, synchronous NORMAL), one INSERT per call and one transaction per batch: the work the server
 * cannot avoid, without HTTP, validation or the merge of start and end.
 * @returns calls/s.
 */
function rawSqliteCallsPerSec(bodies: readonly string[]): number {
  const dir = benchTempDir();
  const path = join(dir, 'raw.db');
  weftServer.openStore(path).close();
  const db = new Database(path);
  db.pragma('synchronous = NORMAL');
  const insert = db.prepare(`INSERT INTO calls (project_id, id, op_name, trace_id, started_at, attributes, inputs, ended_at, output, summary)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const write = db.transaction((items: Record<string, unknown>[]) => {
    for (let i = 0; i < items.length; i += 2) {
      const { start } = (items[i] as { req: { start: Record<string, string> } }).req;
      const { end } = (items[i + 1] as { req: { end: Record<string, unknown> } }).req;
      insert.run(start['project_id'], start['id'], start['op_name'], start['trace_id'], start['started_at'], JSON.stringify(start['attributes']),
        JSON.stringify(start['inputs']), end['ended_at'], JSON.stringify(end['output']), JSON.stringify(end['summary']));
    }
  });
  const t0 = performance.now();
  for (const body of bodies) write((JSON.parse(body) as { batch: Record<string, unknown>[] }).batch);
  const seconds = (performance.now() - t0) / 1000;
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return CALLS / seconds;
}

/** Rounds of (server, floor); each ratio is taken within its round (the load of a shared machine moves between rounds). */
const ROUNDS = QUICK ? 3 : 5;

/** Ingests `bodies` through a fresh server; returns calls/s and how many calls were stored. */
async function serverCallsPerSec(bodies: readonly string[]): Promise<{ perSec: number; stored: number }> {
  const server = await startChildServer();
  const url = `${server.url}/call/upsert_batch`;
  const send = async (body: string): Promise<void> => {
    const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    await res.body.dump();
    if (res.statusCode !== 200) throw new Error(`upsert_batch answered ${res.statusCode}`);
  };
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
  return { perSec: CALLS / seconds, stored };
}

const rounds: { server: number; raw: number }[] = [];
let fewestStored = CALLS;
for (let r = 0; r < ROUNDS; r++) {
  const bodies = Array.from({ length: Math.ceil(CALLS / CALLS_PER_BATCH) }, () => batchBody(CALLS_PER_BATCH));
  const server = await serverCallsPerSec(bodies);
  fewestStored = Math.min(fewestStored, server.stored);
  rounds.push({ server: server.perSec, raw: rawSqliteCallsPerSec(bodies) });
}
const ratios = rounds.map((x) => x.server / x.raw);
const best = (xs: number[]): number => Math.max(...xs);
const callsPerSec = median(rounds.map((x) => x.server));
printTable(
  `Server ingest: ${num(CALLS)} calls (start + end) in batches of ${CALLS_PER_BATCH} calls, ${IN_FLIGHT} requests in flight, file database, ${ROUNDS} rounds (best / median) · ${contextLine()}`,
  ['figure', 'value', 'target'],
  [
    ['calls/s', `${num(best(rounds.map((x) => x.server)))} / ${num(callsPerSec)}`, verdict(callsPerSec >= 200_000, '>= 200,000')],
    ['floor: the same bodies JSON.parse-d and INSERTed (prepared) in-process, calls/s', `${num(best(rounds.map((x) => x.raw)))} / ${num(median(rounds.map((x) => x.raw)))}`, ''],
    [`server / floor, within each round (${ratios.map((x) => x.toFixed(2)).join(', ')})`, `${best(ratios).toFixed(2)}x / ${median(ratios).toFixed(2)}x`, verdict(median(ratios) >= 0.8, '>= 0.80x (issue 31)')],
    ['calls stored / sent (fewest of the rounds)', `${num(fewestStored)}/${num(CALLS)}`, ''],
  ],
);
if (fewestStored !== CALLS) {
  console.log('CHECK FAILED: not every call was stored');
  process.exitCode = 1;
}
