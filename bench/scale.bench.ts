// A big project on both stores (issue 40, point 2): seeds N calls through the server's own write path (the store's
// batch upsert, what POST /call/upsert_batch runs after parsing, in-process, WRITERS batches in flight) shaped like real
// traffic (lib/scale-traffic.ts: traces of 1-20 calls, a few 10,000-call traces, 9 ops, 3 models, 2% errors, 30 days),
// then measures over HTTP the reads of the viewer and the API: the calls list's first page newest first (first byte:
// unfiltered, by op name, by status), the traces list (roots only, with feedback and costs), a 10,000-call trace
// (the whole answer) and a call by id, each beside its floor: a raw indexed read of the same rows with the driver
// (node-postgres, better-sqlite3), same run. On PostgreSQL also: what the roots index (migration 10,
// calls_roots_desc) saves the traces list (the same reads with it dropped) and costs a write (paired ingests).
// N: BENCH_SCALE_CALLS, else 10,000,000 when run alone (BENCH_ONLY=scale), 30,000 with BENCH_QUICK, else 1,000,000.
// BENCH_SCALE_STORES=sqlite or postgres runs one store. BENCH_SCALE_KEEP=<dir> (SQLite): keeps the seeded file and
// its ids in <dir> and, when they are there already, reads them without seeding again (10M calls seed in ~20 min).
// BENCH_SCALE_PAGE=1: also the viewer's page of a 10,000-call trace in Chromium, served by the same server (first rows,
// whole tree, the selected call's detail drawn: ms from navigation), beside the API's whole answer.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { request } from 'undici';
import { CallUpsertBatchReq } from '../packages/weft-trace/src/schema/calls.js';
import { fastParseUpsertBatch } from '../packages/weft-server/src/server/calls/write/upsert-batch-parse.js';
import { chromiumLaunchOptions } from '../packages/test-kit/src/chromium.js';
import { contextLine } from './lib/context-line.js';
import { buildUi, pageMarks, TRACE_MARKS } from './lib/page-marks.js';
import { median, startBenchCluster, type BenchCluster } from './lib/pg-cluster.js';
import { BIG_TRACE_SIZE, trafficBatches, type TrafficIds, type TrafficShape } from './lib/scale-traffic.js';
import { benchTempDir } from './lib/server.js';
import { num, printTable, QUICK, ratio, verdict } from './lib/table.js';
import { weftServer } from './lib/weft.js';

const ALONE = process.env.BENCH_ONLY?.split(',').map((s) => s.trim()).join(',') === 'scale';
const CALLS = Number(process.env.BENCH_SCALE_CALLS) || (QUICK ? 30_000 : ALONE ? 10_000_000 : 1_000_000);
const STORES = (process.env.BENCH_SCALE_STORES ?? 'sqlite,postgres').split(',').map((s) => s.trim());
const KEEP = process.env.BENCH_SCALE_KEEP;
const TRACE_PAGE = process.env.BENCH_SCALE_PAGE === '1';
const PROJECT = 'bench/scale';
const WRITERS = 4;
const BATCH_CALLS = 500;
const RUNS = QUICK ? 5 : 9;
const PAGE = 50;
/** Calls per ingest of the paired write-cost runs (with and without the roots index). */
const PAIRED_CALLS = QUICK ? 10_000 : 60_000;
const PAIRED_ROUNDS = 3;
const NEWEST = [{ field: 'started_at', direction: 'desc' }];
const ERRORS = { $expr: { $eq: [{ $getField: 'summary.status' }, { $literal: 'error' }] } };
const TREE_COLUMNS = ['id', 'trace_id', 'parent_id', 'op_name', 'display_name', 'started_at', 'ended_at', 'summary'];
/** The trace page's tree query (stream_query body, less the project). */
const treeBody = (trace: string): Record<string, unknown> => ({ filter: { trace_ids: [trace] }, sort_by: [{ field: 'started_at', direction: 'asc' }], columns: TREE_COLUMNS, include_costs: true });

type Server = Awaited<ReturnType<typeof weftServer.startServer>>;

/** Seeds `shape` through the store's batch upsert, WRITERS batches in flight; answers calls/s and the ids written. */
async function seed(server: Server, shape: TrafficShape): Promise<{ perSec: number; ids: TrafficIds; seconds: number }> {
  const ids: TrafficIds = { bigTraces: [], calls: [] };
  const batches = trafficBatches(shape, BATCH_CALLS, ids);
  let written = 0;
  let reported = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: WRITERS }, async () => {
    for (let next = batches.next(); !next.done; next = batches.next()) {
      // what the route does with a body: the fast structural check, else zod
      const data = { batch: next.value };
      const body = fastParseUpsertBatch(data) ?? CallUpsertBatchReq.parse(data);
      await server.store.upsertBatch(body.batch);
      written += next.value.length / 2;
      if (written - reported >= 500_000) {
        reported = written;
        console.log(`  seeded ${num(written)} calls, ${num(written / ((performance.now() - t0) / 1000))} calls/s`);
      }
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  return { perSec: shape.calls / seconds, ids, seconds };
}

/** ms to the first byte of a stream_query answer, and to its end; answers the records' count too. */
async function streamQuery(url: string, body: Record<string, unknown>): Promise<{ first: number; all: number; records: number }> {
  const t0 = performance.now();
  const res = await request(`${url}/calls/stream_query`, {
    method: 'POST', body: JSON.stringify({ project_id: PROJECT, ...body }), headers: { 'content-type': 'application/json', accept: 'application/jsonl' },
    headersTimeout: 0, bodyTimeout: 0,
  });
  let first = NaN;
  let text = '';
  for await (const chunk of res.body) {
    if (Number.isNaN(first)) first = performance.now() - t0;
    text += String(chunk);
  }
  if (res.statusCode !== 200) throw new Error(`stream_query answered ${res.statusCode}: ${text.slice(0, 300)}`);
  return { first, all: performance.now() - t0, records: text.split('\n').filter((l) => l.length > 0).length };
}

/** Median of RUNS timings of `fn` after one untimed run. */
async function timed(fn: () => Promise<number>): Promise<number> {
  await fn();
  const xs: number[] = [];
  for (let i = 0; i < RUNS; i++) xs.push(await fn());
  return median(xs);
}

/** A read: its API body, whether its figure is the first byte (else the whole answer), and its floor's SQL. */
interface Read {
  label: string;
  body: Record<string, unknown>;
  firstByte: boolean;
  /** The raw read of the same rows: WHERE (after project_id = $1) and ORDER BY, `$2` bound to `arg`. */
  where: string;
  order: string;
  arg?: string;
  limit?: number;
  /** The target it is measured against, ms. */
  target?: number;
}

function reads(ids: TrafficIds): Read[] {
  const call = ids.calls[Math.floor(ids.calls.length / 2)]!;
  const trace = ids.bigTraces[ids.bigTraces.length - 1] ?? ids.calls[0]!;
  const newest = 'started_at DESC, id ASC';
  return [
    { label: 'calls list, newest first, first page (50), first byte', body: { sort_by: NEWEST, limit: PAGE }, firstByte: true, where: 'true', order: newest, limit: PAGE },
    { label: '  ... op_names [tool]', body: { filter: { op_names: ['tool'] }, sort_by: NEWEST, limit: PAGE }, firstByte: true, where: 'op_name = $2', arg: 'tool', order: newest, limit: PAGE, target: 100 },
    { label: '  ... summary.status = error', body: { query: ERRORS, sort_by: NEWEST, limit: PAGE }, firstByte: true, where: 'ended_at IS NOT NULL AND exception IS NOT NULL', order: newest, limit: PAGE, target: 100 },
    { label: "viewer's traces list (roots, feedback, costs), first byte", body: { filter: { trace_roots_only: true }, sort_by: NEWEST, limit: PAGE, include_feedback: true, include_costs: true }, firstByte: true, where: 'parent_id IS NULL', order: newest, limit: PAGE },
    { label: '  ... roots with status error', body: { filter: { trace_roots_only: true }, query: ERRORS, sort_by: NEWEST, limit: PAGE, include_feedback: true, include_costs: true }, firstByte: true, where: 'parent_id IS NULL AND ended_at IS NOT NULL AND exception IS NOT NULL', order: newest, limit: PAGE, target: 100 },
    { label: `a ${num(BIG_TRACE_SIZE)}-call trace (tree columns, costs), whole answer`, body: treeBody(trace), firstByte: false, where: 'trace_id = $2', arg: trace, order: 'started_at ASC, id ASC', target: 1000 },
    { label: 'a call by id, whole answer', body: { filter: { call_ids: [call] }, limit: 1 }, firstByte: false, where: 'id = $2', arg: call, order: 'id', limit: 1 },
  ];
}

/** The floor of each read on one store: ms of the raw indexed read with the driver (rows fetched). */
type Floor = (r: Read) => Promise<number>;

function pgFloor(client: pg.Client): Floor {
  return async (r) => {
    const sql = `SELECT * FROM calls WHERE project_id = $1 AND started_at IS NOT NULL AND ${r.where} ORDER BY ${r.order}${r.limit ? ` LIMIT ${r.limit}` : ''}`;
    const t0 = performance.now();
    await client.query(sql, r.arg === undefined ? [PROJECT] : [PROJECT, r.arg]);
    return performance.now() - t0;
  };
}

function sqliteFloor(db: Database.Database): Floor {
  return async (r) => {
    const sql = `SELECT * FROM calls WHERE project_id = ? AND started_at IS NOT NULL AND ${r.where.replace('$2', '?')} ORDER BY ${r.order}${r.limit ? ` LIMIT ${r.limit}` : ''}`;
    const statement = db.prepare(sql);
    const t0 = performance.now();
    statement.all(...(r.arg === undefined ? [PROJECT] : [PROJECT, r.arg]));
    return performance.now() - t0;
  };
}

/** Measures every read and its floor; answers the table's rows. */
async function measureReads(server: Server, list: Read[], floor: Floor): Promise<string[][]> {
  const rows: string[][] = [];
  for (const r of list) {
    let records = 0;
    const t0 = performance.now();
    try {
      const api = await timed(async () => {
        const t = await streamQuery(server.url, r.body);
        records = t.records;
        return r.firstByte ? t.first : t.all;
      });
      const raw = await timed(() => floor(r));
      rows.push([r.label, String(records), num(api, 1), num(raw, 1), ratio(api, raw), r.target ? verdict(api < r.target, `< ${num(r.target)} ms`) : '']);
    } catch (err) {
      // a failed read is a row of the table (and the run's exit code), not the end of the run
      process.exitCode = 1;
      const what = err instanceof Error ? `${(err as { code?: string }).code ?? ''} ${err.message}`.trim() : String(err);
      rows.push([r.label, '', `FAILED after ${num(performance.now() - t0)} ms: ${what}`, '', '', '']);
    }
  }
  return rows;
}

/**
 * The trace page of the last big trace in Chromium (a fresh page each, one warm-up, RUNS rounds): rows of the table,
 * each mark's median ms from navigation beside the API's whole answer of the page's tree query. The page is built
 * beside the server build under test before the server starts (WEFT_BENCH_DIST/ui: where it looks when it starts).
 */
async function measurePage(server: Server, ids: TrafficIds): Promise<string[][]> {
  if (!process.env.WEFT_BENCH_DIST) return [['trace page', '', 'not run: WEFT_BENCH_DIST is not set (run through npm run bench)', '', '', '']];
  const trace = ids.bigTraces[ids.bigTraces.length - 1]!;
  const browser = await chromium.launch(await chromiumLaunchOptions());
  try {
    const marks: Record<string, number[]> = { rows: [], whole: [], detail: [] };
    const api: number[] = [];
    for (let r = -1; r < RUNS; r++) {
      const at = await pageMarks(browser, server.url, `#/p/${encodeURIComponent(PROJECT)}/trace/${trace}`, TRACE_MARKS);
      const alone = (await streamQuery(server.url, treeBody(trace))).all;
      if (r < 0) continue;
      for (const k of Object.keys(marks)) marks[k]!.push(at[k]!);
      api.push(alone);
    }
    const apiMs = median(api);
    const row = (label: string, k: string, target?: number): string[] =>
      [label, String(BIG_TRACE_SIZE), num(median(marks[k]!)), num(apiMs, 1), ratio(median(marks[k]!), apiMs), target ? verdict(median(marks[k]!) < target, `< ${num(target)} ms`) : ''];
    return [
      row(`trace page (Chromium): first rows drawn; floor column: the API's whole answer`, 'rows'),
      row('  ... whole tree read and drawn', 'whole', 1000),
      row("  ... the selected call's detail drawn", 'detail'),
    ];
  } finally {
    await browser.close();
  }
}

const HEADERS = ['read', 'rows', 'API ms (median)', 'floor ms', 'API / floor', 'target'];

async function runSqlite(): Promise<void> {
  const dir = KEEP ?? benchTempDir();
  mkdirSync(dir, { recursive: true });
  const dbPath = join(dir, 'scale.db');
  const idsPath = join(dir, 'scale-ids.json');
  const reuse = KEEP !== undefined && existsSync(dbPath) && existsSync(idsPath);
  try {
    if (KEEP !== undefined && !reuse) rmSync(dbPath, { force: true });
    const server = await weftServer.startServer({ port: 0, dbPath });
    const shape = { project: PROJECT, calls: CALLS, bigTraces: Math.max(1, Math.round(CALLS / 1_000_000) * 3), endMs: Date.now(), days: 30 };
    const seeded = reuse
      ? (JSON.parse(readFileSync(idsPath, 'utf8')) as { ids: TrafficIds; perSec: number; seconds: number })
      : await seed(server, shape);
    if (KEEP !== undefined && !reuse) writeFileSync(idsPath, JSON.stringify(seeded));
    const raw = new Database(dbPath, { readonly: true });
    const rows = await measureReads(server, reads(seeded.ids), sqliteFloor(raw));
    raw.close();
    if (TRACE_PAGE) rows.push(...(await measurePage(server, seeded.ids)));
    await server.close();
    printTable(
      `Large project on SQLite: ${num(CALLS)} calls ${reuse ? 'read from a kept file (seeded earlier' : 'seeded'} through the store's batch upsert at ${num(seeded.perSec)} calls/s (${num(seeded.seconds)} s, ${WRITERS} writers, ${BATCH_CALLS}-call batches${reuse ? ')' : ''}); medians of ${RUNS} reads over HTTP · ${contextLine()}`,
      HEADERS, rows,
    );
  } finally {
    if (KEEP === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

/** calls/s of PAIRED_CALLS calls into a fresh database, with or without the roots index. */
async function pairedIngest(cluster: BenchCluster, withRootsIndex: boolean): Promise<number> {
  const url = await cluster.freshDatabase();
  const server = await weftServer.startServer({ port: 0, db: url });
  try {
    if (!withRootsIndex) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query('DROP INDEX calls_roots_desc');
      await client.end();
    }
    return (await seed(server, { project: PROJECT, calls: PAIRED_CALLS, bigTraces: 0, endMs: Date.now(), days: 30 })).perSec;
  } finally {
    await server.close();
  }
}

async function runPostgres(): Promise<void> {
  const cluster = startBenchCluster();
  try {
    const version = await cluster.version();
    // the write cost of the roots index: paired ingests, with and without it, alternating
    const pairs: { with: number; without: number }[] = [];
    for (let i = 0; i < PAIRED_ROUNDS; i++) pairs.push({ without: await pairedIngest(cluster, false), with: await pairedIngest(cluster, true) });
    const url = await cluster.freshDatabase();
    const server = await weftServer.startServer({ port: 0, db: url });
    const shape = { project: PROJECT, calls: CALLS, bigTraces: Math.max(1, Math.round(CALLS / 1_000_000) * 3), endMs: Date.now(), days: 30 };
    const seeded = await seed(server, shape);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // what autovacuum's analyze does after a bulk load (the planner's statistics)
    await client.query('ANALYZE calls');
    const list = reads(seeded.ids);
    const rows = await measureReads(server, list, pgFloor(client));
    if (TRACE_PAGE) rows.push(...(await measurePage(server, seeded.ids)));
    // the same roots reads without the roots index: what it saves
    await client.query('DROP INDEX calls_roots_desc');
    await client.query('ANALYZE calls');
    const roots = list.filter((r) => r.where.startsWith('parent_id IS NULL'));
    const without = await measureReads(server, roots, pgFloor(client));
    for (const row of without) rows.push([`${row[0]!.trim()}, roots index dropped`, ...row.slice(1)]);
    const size = (await client.query<{ mb: string }>(`SELECT (pg_total_relation_size('calls') / 1048576)::text AS mb`)).rows[0]!.mb;
    await client.end();
    await server.close();
    const ratios = pairs.map((p) => p.with / p.without);
    rows.push([`write cost of calls_roots_desc: ingest calls/s with / without it (${PAIRED_ROUNDS} paired ingests of ${num(PAIRED_CALLS)}; each)`, '', num(median(pairs.map((p) => p.with))), num(median(pairs.map((p) => p.without))), `${num(median(ratios), 2)}x`, ratios.map((r) => `${num(r, 2)}x`).join(', ')]);
    printTable(
      `Large project on PostgreSQL ${version} (durable): ${num(CALLS)} calls (calls table ${size} MB) seeded through the store's batch upsert at ${num(seeded.perSec)} calls/s (${num(seeded.seconds)} s, ${WRITERS} writers, ${BATCH_CALLS}-call batches), then ANALYZE; medians of ${RUNS} reads over HTTP · ${contextLine()}`,
      HEADERS, rows,
    );
  } finally {
    cluster.stop();
  }
}

console.log(`scale: ${num(CALLS)} calls on ${STORES.join(', ')}`);
if (TRACE_PAGE && process.env.WEFT_BENCH_DIST) await buildUi(join(process.env.WEFT_BENCH_DIST, 'ui'));
if (STORES.includes('sqlite')) await runSqlite();
if (STORES.includes('postgres')) await runPostgres();
