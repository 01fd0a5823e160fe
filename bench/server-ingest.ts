// Server side: ingest calls/s through POST /call/upsert_batch (pre-serialized bodies, 2 requests in flight) into a fresh file database, next to the floor (the same bodies parsed and inserted in-process) and the floor behind a bare node:http server; in rounds.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { callBatchItems } from './lib/call-batches.js';
import { contextLine } from './lib/context-line.js';
import { median } from './lib/pg-cluster.js';
import { benchTempDir, type ChildServer, startChildServer, startHttpFloor } from './lib/server.js';
import { openIngestFloor } from './lib/ingest-floor.js';
import { countCompleteCalls } from './lib/stored.js';
import { num, printTable, QUICK, verdict } from './lib/table.js';

const CALLS = QUICK ? 20_000 : 50_000;
const CALLS_PER_BATCH = 500; // 1,000 items: each call's start and end, as the SDK's default batch of 500 events twice over
const IN_FLIGHT = 2;
const PROJECT = 'bench/ingest';

const batchItems = (n: number): Record<string, unknown>[] => callBatchItems(PROJECT, n);
const batchBody = (n: number): string => JSON.stringify({ batch: batchItems(n) });

/**
 * The floor (issue 31, point 3): the same batch bodies the server is sent, parsed and inserted in-process by
 * `openIngestFloor` (a prepared INSERT per call, a transaction per batch) into a fresh file database.
 * @returns calls/s.
 */
function rawSqliteCallsPerSec(bodies: readonly string[]): number {
  const dir = benchTempDir();
  const floor = openIngestFloor(join(dir, 'raw.db'));
  const t0 = performance.now();
  for (const body of bodies) floor.write(body);
  const seconds = (performance.now() - t0) / 1000;
  floor.close();
  rmSync(dir, { recursive: true, force: true });
  return CALLS / seconds;
}

/** Rounds of (server, floor); each ratio is taken within its round (the load of a shared machine moves between rounds). */
const ROUNDS = QUICK ? 3 : 5;

/** Ingests `bodies` through a fresh server (weft's, or the floor behind node:http); returns calls/s and how many calls were stored. */
async function serverCallsPerSec(bodies: readonly string[], start: () => Promise<ChildServer> = startChildServer): Promise<{ perSec: number; stored: number }> {
  const server = await start();
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

const rounds: { server: number; raw: number; http: number }[] = [];
let fewestStored = CALLS;
for (let r = 0; r < ROUNDS; r++) {
  const bodies = Array.from({ length: Math.ceil(CALLS / CALLS_PER_BATCH) }, () => batchBody(CALLS_PER_BATCH));
  const server = await serverCallsPerSec(bodies);
  fewestStored = Math.min(fewestStored, server.stored);
  const http = await serverCallsPerSec(bodies, startHttpFloor);
  fewestStored = Math.min(fewestStored, http.stored);
  rounds.push({ server: server.perSec, raw: rawSqliteCallsPerSec(bodies), http: http.perSec });
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
    ['floor behind a bare node:http server (same client, body read whole, parse + insert, `{}`), calls/s', `${num(best(rounds.map((x) => x.http)))} / ${num(median(rounds.map((x) => x.http)))}`, ''],
    [`floor behind HTTP / floor (what HTTP framing costs), within each round`, `${best(rounds.map((x) => x.http / x.raw)).toFixed(2)}x / ${median(rounds.map((x) => x.http / x.raw)).toFixed(2)}x`, ''],
    [`server / floor behind HTTP (what weft adds), within each round`, `${best(rounds.map((x) => x.server / x.http)).toFixed(2)}x / ${median(rounds.map((x) => x.server / x.http)).toFixed(2)}x`, ''],
    ['calls stored / sent (fewest of the rounds)', `${num(fewestStored)}/${num(CALLS)}`, ''],
  ],
);
if (fewestStored !== CALLS) {
  console.log('CHECK FAILED: not every call was stored');
  process.exitCode = 1;
}
