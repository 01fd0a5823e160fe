// Big tables (issue 31 part 2): POST /table/create of 100,000 one-character rows next to its floor (the same body JSON.parse-d, each row's sha256, the raw inserts in one transaction, in-process), a 1,000,000-row body (over LIMITS.maxTableRows: 413), and /table/query over the 100,000-row table next to its floor; SQLite, then PostgreSQL; in rounds, each ratio taken within its round.
import { hash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { request } from 'undici';
import { contextLine } from './lib/context-line.js';
import { median, startBenchCluster } from './lib/pg-cluster.js';
import { benchTempDir, type ChildServer, startChildServer } from './lib/server.js';
import { num, printTable, QUICK, verdict } from './lib/table.js';
import { weftServer } from './lib/weft.js';

const ROWS = 100_000;
const BIG_ROWS = 1_000_000;
const ROUNDS = QUICK ? 2 : 3;
/** Rows per INSERT of the PostgreSQL floor (unnest of arrays). */
const PG_CHUNK = 10_000;

const oneCharRows = (n: number): string[] => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + (i % 26)));
const createBody = (project: string, n: number): string => JSON.stringify({ project_id: project, rows: oneCharRows(n) });

/** What one round measured, seconds (the 1M body: its status too). */
interface Round {
  create: number;
  floorCreate: number;
  big: number;
  bigStatus: number;
  parseBig: number;
  query: number;
  floorQuery: number;
  page: number;
}

/** POSTs `body` on a new connection (a kept-alive one may be closed by the server while a floor runs); seconds to the whole answer. */
async function post(url: string, body: string): Promise<{ seconds: number; status: number; text: string }> {
  const t0 = performance.now();
  const res = await request(url, { method: 'POST', body, reset: true, headers: { 'content-type': 'application/json' }, headersTimeout: 600_000, bodyTimeout: 600_000 });
  const text = await res.body.text();
  return { seconds: (performance.now() - t0) / 1000, status: res.statusCode, text };
}

/** The floor's digests: the body parsed, each row's sha256 over its JSON text, the table's over the list. */
function parseAndDigest(body: string): { project: string; texts: string[]; digests: string[]; digest: string } {
  const { project_id, rows } = JSON.parse(body) as { project_id: string; rows: unknown[] };
  const texts = rows.map((r) => JSON.stringify(r));
  const digests = texts.map((t) => hash('sha256', t, 'base64url'));
  return { project: project_id, texts, digests, digest: hash('sha256', JSON.stringify(digests), 'base64url') };
}

/** The answer of a query of every row, as the floors build it: each stored text parsed, the whole answer stringified. */
const answer = (rows: { row_digest: string; val: string; row_index: number | string }[]): string =>
  JSON.stringify({ rows: rows.map((r) => ({ digest: r.row_digest, val: JSON.parse(r.val) as unknown, original_index: Number(r.row_index) })) });

/** SQLite floor: a fresh file database with the server's schema and pragmas; create then query, seconds each. */
function sqliteFloor(body: string): { create: number; query: number } {
  const dir = benchTempDir();
  const path = join(dir, 'floor.db');
  weftServer.openStore(path).close();
  const db = new Database(path);
  db.pragma('synchronous = NORMAL');
  const t0 = performance.now();
  const t = parseAndDigest(body);
  const insertTable = db.prepare('INSERT INTO tables (project_id, digest, row_count, created_at) VALUES (?, ?, ?, ?)');
  const insertRow = db.prepare('INSERT INTO table_rows (project_id, table_digest, row_index, row_digest, val) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    insertTable.run(t.project, t.digest, t.texts.length, new Date().toISOString());
    for (let i = 0; i < t.texts.length; i++) insertRow.run(t.project, t.digest, i, t.digests[i], t.texts[i]);
  })();
  const t1 = performance.now();
  answer(db.prepare('SELECT row_digest, val, row_index FROM table_rows WHERE project_id = ? AND table_digest = ? ORDER BY row_index').all(t.project, t.digest) as never);
  const t2 = performance.now();
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return { create: (t1 - t0) / 1000, query: (t2 - t1) / 1000 };
}

/** PostgreSQL floor: one transaction, the rows as unnest-ed arrays of {@link PG_CHUNK}; then the query; seconds each. */
async function pgFloor(url: string, body: string): Promise<{ create: number; query: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const t0 = performance.now();
  const t = parseAndDigest(body);
  await client.query('BEGIN');
  await client.query('INSERT INTO tables (project_id, digest, row_count, created_at) VALUES ($1, $2, $3, $4)', [t.project, t.digest, t.texts.length, new Date().toISOString()]);
  for (let at = 0; at < t.texts.length; at += PG_CHUNK) {
    const end = Math.min(t.texts.length, at + PG_CHUNK);
    await client.query(`INSERT INTO table_rows (project_id, table_digest, row_index, row_digest, val)
      SELECT $1, $2, $3::bigint + u.o - 1, u.d, u.v FROM unnest($4::text[], $5::json[]) WITH ORDINALITY AS u(d, v, o)`, [t.project, t.digest, at, t.digests.slice(at, end), t.texts.slice(at, end)]);
  }
  await client.query('COMMIT');
  const t1 = performance.now();
  const { rows } = await client.query('SELECT row_digest, val::text AS val, row_index FROM table_rows WHERE project_id = $1 AND table_digest = $2 ORDER BY row_index', [t.project, t.digest]);
  answer(rows as never);
  const t2 = performance.now();
  await client.end();
  return { create: (t1 - t0) / 1000, query: (t2 - t1) / 1000 };
}

/** Peak resident set size of a process, MB (Linux /proc). */
function peakRssMb(pid: number): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
}

/** One round against a running server: create, the 1M body, the queries; then the floor. */
async function round(server: ChildServer, r: number, floor: (body: string) => Promise<{ create: number; query: number }>): Promise<Round> {
  const project = `bench/tables-${r}`;
  const body = createBody(project, ROWS);
  const created = await post(`${server.url}/table/create`, body);
  if (created.status !== 200) throw new Error(`/table/create answered ${created.status}: ${created.text.slice(0, 300)}`);
  const { digest, row_digests } = JSON.parse(created.text) as { digest: string; row_digests: string[] };
  if (row_digests.length !== ROWS) throw new Error(`CHECK FAILED: ${row_digests.length} row digests for ${ROWS} rows`);
  const bigBody = createBody(`bench/big-${r}`, BIG_ROWS);
  const big = await post(`${server.url}/table/create`, bigBody);
  const p0 = performance.now();
  JSON.parse(bigBody);
  const parseBig = (performance.now() - p0) / 1000;
  const query = await post(`${server.url}/table/query`, JSON.stringify({ project_id: project, digest }));
  const got = (JSON.parse(query.text) as { rows: unknown[] }).rows.length;
  if (got !== ROWS) throw new Error(`CHECK FAILED: /table/query answered ${got} rows of ${ROWS}`);
  const page = await post(`${server.url}/table/query`, JSON.stringify({ project_id: project, digest, offset: ROWS / 2, limit: 100 }));
  const f = await floor(createBody(`bench/floor-${r}`, ROWS));
  return { create: created.seconds, floorCreate: f.create, big: big.seconds, bigStatus: big.status, parseBig, query: query.seconds, floorQuery: f.query, page: page.seconds };
}

/** best / median of a figure over the rounds, seconds. */
const bm = (rounds: Round[], key: keyof Round): string => `${num(Math.min(...rounds.map((x) => x[key])), 2)} / ${num(median(rounds.map((x) => x[key])), 2)}`;
/** best / median of the per-round ratio a / b. */
const ratios = (rounds: Round[], a: keyof Round, b: keyof Round): string => {
  const xs = rounds.map((x) => x[a] / x[b]);
  return `${Math.min(...xs).toFixed(2)}x / ${median(xs).toFixed(2)}x`;
};

function print(store: string, rounds: Round[], rssMb: number): void {
  const create = median(rounds.map((x) => x.create));
  const statuses = [...new Set(rounds.map((x) => x.bigStatus))].join(', ');
  printTable(
    `Big tables on ${store}: /table/create of ${num(ROWS)} one-character rows (${num(createBody('bench/tables-0', ROWS).length / 1e6, 1)} MB body), ${ROUNDS} rounds, best / median · ${contextLine()}`,
    ['figure', 's (best / median)', 'x floor (best / median of the rounds)', 'target'],
    [
      [`create ${num(ROWS)} rows over HTTP`, bm(rounds, 'create'), ratios(rounds, 'create', 'floorCreate'), verdict(create < 1, '< 1 s')],
      ['floor: the body JSON.parse-d, sha256 per row, raw inserts in one transaction, in-process', bm(rounds, 'floorCreate'), '1.00x', ''],
      [`create ${num(BIG_ROWS)} rows (${num(createBody('bench/big-0', BIG_ROWS).length / 1e6, 1)} MB): answered ${statuses}`, bm(rounds, 'big'), `${ratios(rounds, 'big', 'parseBig')} of its JSON.parse`, verdict(rounds.every((x) => x.bigStatus === 413 || x.big < 10), '413 at once or < 10 s')],
      [`query all ${num(ROWS)} rows`, bm(rounds, 'query'), ratios(rounds, 'query', 'floorQuery'), ''],
      ['floor: the same SELECT in-process, each val parsed, the answer stringified', bm(rounds, 'floorQuery'), '1.00x', ''],
      ['query 100 rows at offset 50,000', bm(rounds, 'page'), ratios(rounds, 'page', 'floorQuery'), ''],
      ['server peak RSS, MB', num(rssMb), '', ''],
    ],
  );
}

// SQLite: one server on a fresh file database; the floor on its own fresh file each round.
{
  const server = await startChildServer();
  const rounds: Round[] = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(await round(server, r, async (body) => sqliteFloor(body)));
  const rss = peakRssMb(server.pid);
  await server.close();
  print('SQLite (file database)', rounds, rss);
}

// PostgreSQL: a durable throwaway cluster; the server and the floor on their own fresh databases.
{
  const cluster = startBenchCluster();
  try {
    const server = await startChildServer(await cluster.freshDatabase());
    const floorDb = await cluster.freshDatabase();
    await startChildServer(floorDb).then(async (c) => c.close()); // migrate the floor's database through a server
    const rounds: Round[] = [];
    for (let r = 0; r < ROUNDS; r++) rounds.push(await round(server, r, (body) => pgFloor(floorDb, body)));
    const rss = peakRssMb(server.pid);
    await server.close();
    print(`PostgreSQL ${await cluster.version()} (durable)`, rounds, rss);
  } finally {
    cluster.stop();
  }
}
