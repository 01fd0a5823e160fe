// Server side: POST /feedback/stats over 1M feedback rows (database generated once with the server's insert code, cached).
// BENCH_FEEDBACK_STORE=postgres: on a fresh database of a throwaway durable cluster instead, filled by the same code.
// Floors beside each request, with the driver, same run: the window's rows counted from the index, and every row's
// payload read (PostgreSQL: parsed into jsonb once, the store's reading) with the request's two values summed.
// The server runs its rollup jobs (as `weft serve`); the requests are timed once the feedback rollups have caught up
// (the time that took is printed), and each row says where the answer came from (x-weft-stats-source).
import Database from 'better-sqlite3';
import pg from 'pg';
import { request } from 'undici';
import { contextLine } from './lib/context-line.js';
import { FEEDBACK_PROJECT, FEEDBACK_WINDOW, feedbackDatabase, fillPgFeedback } from './lib/feedback-db.js';
import { type BenchCluster, median, startBenchCluster } from './lib/pg-cluster.js';
import { startChildServer } from './lib/server.js';
import { num, printTable, QUICK, verdict } from './lib/table.js';

const ROWS = Number(process.env.BENCH_FEEDBACK_ROWS) || (QUICK ? 100_000 : 1_000_000);
const REPEAT = 3;
const POSTGRES = process.env.BENCH_FEEDBACK_STORE === 'postgres';
const title = `feedback/stats over ${num(ROWS)} feedback rows${POSTGRES ? ' on PostgreSQL' : ''}`;

const numeric = { json_path: 'score', value_type: 'numeric', aggregations: ['avg', 'min', 'max', 'count'], percentiles: [50, 95] };
const boolean = { json_path: 'passed', value_type: 'boolean', aggregations: ['count_true', 'count_false'] };
/** label, request body, rows the buckets must count (9 in 10 generated rows are of type `score`). */
const requests: [string, Record<string, unknown>, number][] = [
  ['numeric + boolean metrics, 31 daily buckets', { metrics: [numeric, boolean] }, ROWS],
  ['numeric metric, feedback_type filter, 744 hourly buckets', { feedback_type: 'score', granularity: 3600, metrics: [numeric] }, ROWS * 0.9],
];

/** Thrown when the server does not serve the endpoint (501). */
class NotImplementedError extends Error {}

/** The target per store: 1 s on PostgreSQL, 0.5 s on SQLite (issue 54). */
const TARGET_MS = POSTGRES ? 1000 : 500;

/** Where the last answer came from (`x-weft-stats-source`). */
let lastSource = '';

async function statsMs(url: string, body: Record<string, unknown>, expected: number): Promise<number> {
  const t0 = performance.now();
  const res = await request(`${url}/feedback/stats`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ project_id: FEEDBACK_PROJECT, ...FEEDBACK_WINDOW, ...body }),
  });
  const answer = (await res.body.json()) as { buckets?: { count: number }[] };
  const ms = performance.now() - t0;
  lastSource = String(res.headers['x-weft-stats-source'] ?? '');
  if (res.statusCode === 501) throw new NotImplementedError();
  if (res.statusCode !== 200) throw new Error(`feedback/stats answered ${res.statusCode}: ${JSON.stringify(answer).slice(0, 300)}`);
  const counted = (answer.buckets ?? []).reduce((s, b) => s + b.count, 0);
  if (counted !== expected) throw new Error(`feedback/stats counted ${counted} rows, expected ${expected}`);
  return ms;
}

/** The floors on the store at `where` (a SQLite file or a PostgreSQL URL): ms of one read, median of REPEAT. */
async function floorOf(where: string): Promise<{ ms(values: boolean, type?: string): Promise<number>; close(): Promise<void> }> {
  const window = (type?: string): string => `project_id = $1 AND created_at >= $2 AND created_at < $3${type ? ' AND feedback_type = $4' : ''}`;
  const args = (type?: string): string[] => [FEEDBACK_PROJECT, new Date(FEEDBACK_WINDOW.start).toISOString(), new Date(FEEDBACK_WINDOW.end).toISOString(), ...(type ? [type] : [])];
  const med = async (f: () => Promise<unknown>): Promise<number> => {
    const xs: number[] = [];
    for (let i = 0; i < REPEAT; i++) {
      const t0 = performance.now();
      await f();
      xs.push(performance.now() - t0);
    }
    return median(xs);
  };
  if (POSTGRES) {
    const client = new pg.Client({ connectionString: where });
    await client.connect();
    return {
      ms: (values, type) => med(() => client.query(values
        ? `SELECT count(*), sum((pl->>'score')::float8), sum(CASE pl->'passed' WHEN 'true'::jsonb THEN 1 ELSE 0 END) FROM (SELECT payload::jsonb AS pl FROM feedback WHERE ${window(type)} OFFSET 0) r`
        : `SELECT count(*) FROM feedback WHERE ${window(type)}`, args(type))),
      close: () => client.end(),
    };
  }
  const db = new Database(where, { readonly: true });
  return {
    ms: (values, type) => {
      const sql = values
        ? `SELECT count(*), sum(payload ->> '$.score'), sum(payload ->> '$.passed') FROM feedback WHERE ${window(type)}`
        : `SELECT count(*) FROM feedback WHERE ${window(type)}`;
      const statement = db.prepare(sql.replace(/\$\d/g, '?'));
      return med(async () => statement.get(...args(type)));
    },
    close: async () => void db.close(),
  };
}

let cluster: BenchCluster | undefined;
try {
  let where: string;
  if (POSTGRES) {
    cluster = startBenchCluster();
    where = await cluster.freshDatabase();
    console.log(`generated ${num(ROWS)} feedback rows on PostgreSQL in ${num(await fillPgFeedback(where, ROWS), 1)} s\n`);
  } else {
    const db = feedbackDatabase(ROWS);
    if (db.generatedSeconds !== undefined) console.log(`generated ${num(ROWS)} feedback rows in ${num(db.generatedSeconds, 1)} s: ${db.path}\n`);
    where = db.path;
  }
  const server = await startChildServer(where, undefined, { WEFT_BENCH_ROLLUPS: '1' });
  // the feedback rollup job starts at once: wait until the first request reads rollups alone
  const t0 = performance.now();
  for (;;) {
    await statsMs(server.url, requests[0]![1], requests[0]![2]);
    if (lastSource === 'rollups' || performance.now() - t0 > 900_000) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  console.log(`feedback rollups caught up in ${num((performance.now() - t0) / 1000, 1)} s (answers from: ${lastSource})\n`);
  const rows: string[][] = [];
  const floor = await floorOf(where);
  try {
    for (const [label, body, expected] of requests) {
      const times: number[] = [];
      for (let i = 0; i < REPEAT; i++) times.push(await statsMs(server.url, body, expected));
      times.sort((a, b) => a - b);
      const mid = median(times);
      const typed = typeof body['feedback_type'] === 'string' ? String(body['feedback_type']) : undefined;
      const [count, values] = [await floor.ms(false, typed), await floor.ms(true, typed)];
      rows.push([label, lastSource, num(mid, 1), num(times[times.length - 1] ?? NaN, 1), num(count, 1), num(values, 1), `${num(mid / values, 2)}x`,
        verdict(mid < TARGET_MS, `< ${TARGET_MS} ms`)]);
    }
  } finally {
    await floor.close();
    await server.close();
  }
  printTable(`${title}, ms per request (median and max of ${REPEAT}; floors: median of ${REPEAT}) · ${contextLine()}`,
    ['request', 'from', 'median ms', 'max ms', 'floor: rows counted, ms', 'floor: payloads read, 2 values summed, ms', 'median / payload floor', 'target'], rows);
} catch (err) {
  if (!(err instanceof NotImplementedError)) throw err;
  printTable(`${title} · ${contextLine()}`, ['request', 'median ms'], [['feedback/stats', 'n/a (not implemented: the server answers 501)']]);
} finally {
  cluster?.stop();
}
