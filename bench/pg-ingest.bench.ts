// PostgreSQL ingest (issue 16, item 4; issue 31, point 3): calls/s through POST /call/upsert_batch into one PostgreSQL database with 1
// server process, then with 2 server processes on the same database (each with the same requests in flight), next
// to a floor: the same rows written in-process with node-postgres, one multi-row INSERT per batch; in rounds, each
// ratio taken within a round (the load of a shared machine moves between rounds). Runs a throwaway cluster
// (scripts/pg-cluster.sh, durable settings: fsync and synchronous_commit on, as a deployment would run).
import pg from 'pg';
import { openPgIngestFloor } from './lib/ingest-floor.js';
import { request } from 'undici';
import { callBatchItems } from './lib/call-batches.js';
import { contextLine } from './lib/context-line.js';
import { median, startBenchCluster } from './lib/pg-cluster.js';
import { type ChildServer, startChildServer, startHttpFloor } from './lib/server.js';
import { num, printTable, QUICK } from './lib/table.js';

const CALLS = QUICK ? 10_000 : 30_000;
const CALLS_PER_BATCH = 500;
/** Rounds of (1 server, floor, floor behind HTTP, 2 servers); the table gives medians. */
const ROUNDS = QUICK ? 3 : 5;
const IN_FLIGHT_PER_SERVER = 2;
const PROJECT = 'bench/pg-ingest';

const cluster = startBenchCluster();
const freshDatabase = (): Promise<string> => cluster.freshDatabase();

async function countCalls(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query('SELECT count(*)::int AS n FROM calls WHERE project_id = $1 AND started_at IS NOT NULL AND ended_at IS NOT NULL', [PROJECT]);
  await client.end();
  return (rows[0] as { n: number }).n;
}

async function send(url: string, body: string): Promise<void> {
  const res = await request(`${url}/call/upsert_batch`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  await res.body.dump();
  if (res.statusCode !== 200) throw new Error(`upsert_batch answered ${res.statusCode}`);
}

/** The batch bodies of one run: CALLS calls of PROJECT, CALLS_PER_BATCH per body. */
function batchBodies(): string[] {
  return Array.from({ length: Math.ceil(CALLS / CALLS_PER_BATCH) }, () => JSON.stringify({ batch: callBatchItems(PROJECT, CALLS_PER_BATCH) }));
}

/**
 * Ingests CALLS calls through `servers` processes started by `start` (weft servers by default) on one fresh
 * database; returns calls/s and how many were stored.
 */
async function ingest(servers: number, start: (db: string) => Promise<ChildServer> = startChildServer): Promise<{ perSec: number; stored: number }> {
  const db = await freshDatabase();
  const children = [];
  for (let i = 0; i < servers; i++) children.push(await start(db));
  const bodies = batchBodies();
  for (const c of children) await send(c.url, JSON.stringify({ batch: callBatchItems('bench/warm-up', 20) }));
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    children.flatMap((c) => Array.from({ length: IN_FLIGHT_PER_SERVER }, async () => {
      while (next < bodies.length) await send(c.url, bodies[next++] ?? '');
    })),
  );
  const seconds = (performance.now() - t0) / 1000;
  for (const c of children) await c.close();
  return { perSec: CALLS / seconds, stored: await countCalls(db) };
}

/** Migrates a fresh database through a weft server, which is closed before the timed part. */
async function migrate(url: string): Promise<void> {
  await (await startChildServer(url)).close();
}

/**
 * The floor (issue 31, point 3): the same kind of batch bodies, each parsed from its JSON text in-process and its
 * rows written with one prepared multi-row INSERT (unnest of arrays) per batch, 2 connections (`openPgIngestFloor`).
 */
async function rawPerSec(): Promise<number> {
  const url = await freshDatabase();
  await migrate(url);
  const floor = openPgIngestFloor(url, IN_FLIGHT_PER_SERVER);
  const bodies = batchBodies();
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT_PER_SERVER }, async () => {
    while (next < bodies.length) await floor.write(bodies[next++]!);
  }));
  const seconds = (performance.now() - t0) / 1000;
  await floor.close();
  return CALLS / seconds;
}

/** The same floor behind a bare node:http server in a child process (`startHttpFloor`), the same client as the servers'. */
async function httpFloorPerSec(): Promise<number> {
  const floor = await ingest(1, async (url) => (await migrate(url), startHttpFloor(url)));
  if (floor.stored !== CALLS) throw new Error('CHECK FAILED: the floor behind HTTP did not store every call');
  return floor.perSec;
}

try {
  const version = await cluster.version();
  // rounds of 1 server, the floor, the floor behind HTTP, 2 servers back to back: on a shared machine the load moves
  // between rounds, so each ratio is taken within a round and the medians are printed
  const rounds: { one: number; two: number; raw: number; http: number }[] = [];
  // the fewest calls stored by any round (checked against CALLS below)
  const stored = { one: CALLS, two: CALLS };
  for (let r = 0; r < ROUNDS; r++) {
    const one = await ingest(1);
    const raw = await rawPerSec();
    const http = await httpFloorPerSec();
    const two = await ingest(2);
    rounds.push({ one: one.perSec, two: two.perSec, raw, http });
    stored.one = Math.min(stored.one, one.stored);
    stored.two = Math.min(stored.two, two.stored);
  }
  const one = { perSec: median(rounds.map((x) => x.one)), stored: stored.one };
  const two = { perSec: median(rounds.map((x) => x.two)), stored: stored.two };
  const raw = median(rounds.map((x) => x.raw));
  const perRound = rounds.map((x) => `${num(x.one / x.raw, 2)}x`).join(', ');
  printTable(
    `PostgreSQL ingest: ${num(CALLS)} calls (start + end) in batches of ${CALLS_PER_BATCH} calls, ${IN_FLIGHT_PER_SERVER} requests in flight per server, one database (PostgreSQL ${version}, durable), medians of ${ROUNDS} rounds · ${contextLine()}`,
    ['figure', 'value', 'ratio'],
    [
      ['1 server process, calls/s', num(one.perSec), '1.00x'],
      ['2 server processes, calls/s', num(two.perSec), ''],
      ['floor: the bodies JSON.parse-d and INSERTed (prepared, multi-row) in-process, calls/s', num(raw), ''],
      ['1 server / floor (median of the rounds\' ratios; each round\'s)', `${num(median(rounds.map((x) => x.one / x.raw)), 2)}x`, perRound],
      ['2 servers / floor (median of the rounds\' ratios)', `${num(median(rounds.map((x) => x.two / x.raw)), 2)}x`, ''],
      ['floor behind a bare node:http server (child process, same client), calls/s', num(median(rounds.map((x) => x.http))), ''],
      ['floor behind HTTP / floor (what HTTP framing costs; median of the rounds\' ratios; each round\'s)', `${num(median(rounds.map((x) => x.http / x.raw)), 2)}x`, rounds.map((x) => `${num(x.http / x.raw, 2)}x`).join(', ')],
      ['1 server / floor behind HTTP (what weft adds; median of the rounds\' ratios; each round\'s)', `${num(median(rounds.map((x) => x.one / x.http)), 2)}x`, rounds.map((x) => `${num(x.one / x.http, 2)}x`).join(', ')],
      ['2 servers / 1 server (median of the rounds\' ratios)', `${num(median(rounds.map((x) => x.two / x.one)), 2)}x`, ''],
      ['calls stored / sent (1 server, 2 servers; fewest of the rounds)', `${num(one.stored)}/${num(CALLS)}, ${num(two.stored)}/${num(CALLS)}`, ''],
    ],
  );
  if (one.stored !== CALLS || two.stored !== CALLS) {
    console.log('CHECK FAILED: not every call was stored');
    process.exitCode = 1;
  }
} finally {
  cluster.stop();
}
