// @weft-test: isolated (a server setting read once, when its module loads, WEFT_PG_STATEMENT_TIMEOUT_MS)
// Issue 16 (PostgreSQL): a stream_query whose client went away cancels its running statement instead of holding a
// backend and a cursor connection, and a statement past the cursor pool's statement_timeout answers a clear 503.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgCursor } from '../../../src/server/calls/query/pg-call-cursor.js';
import { openPgDatabase } from '../../../src/server/db/pg-database.js';
import { HttpError } from '../../../src/server/http/http-error.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { type FreshDatabase, freshPgDatabase } from 'weft-test-kit/pg.js';
import { post } from 'weft-test-kit/server-http.js';

const PROJECT = 'cancel/heavy';
const CALLS = 1000;
/** A marker in the heavy query's SQL parameters, to find its backends in pg_stat_activity. */
const NEEDLE = 'needle-that-is-never-found';

let database: FreshDatabase;
let server: RunningServer;

/** Writes `CALLS` calls with a long input text straight by SQL (seconds faster than over HTTP). */
async function seed(url: string): Promise<void> {
  const db = await openPgDatabase(url);
  await db.pool.query(`INSERT INTO calls (project_id, id, op_name, trace_id, started_at, ended_at, attributes, inputs, output, summary)
    SELECT $1, id, 'f', id, at, at, '{}', json_build_object('a', repeat('Abc Déf ', 400))::text::json, '1', '{}'
    FROM (SELECT i, 'call-' || lpad(i::text, 6, '0') AS id,
      to_char((timestamptz '2026-11-01T00:00:00Z' + i * interval '1 millisecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
      FROM generate_series(0, $2::int - 1) AS i) s`, [PROJECT, CALLS]);
  await db.close();
}

/** A query that reads every row and folds its long text 5 times before the first record: seconds of backend time. */
const HEAVY = {
  project_id: PROJECT,
  query: { $expr: { $or: Array.from({ length: 5 }, (_, i) => ({ $contains: { input: { $getField: 'inputs.a' }, substr: { $literal: `${NEEDLE}-${i}` }, case_insensitive: true } })) } },
};
/** A small query: one record by the index. */
const SMALL = { project_id: PROJECT, limit: 1 };

/** Runs a query to its end; returns its status and body. */
async function answer(body: unknown): Promise<{ status: number; text: string }> {
  const res = await post(server, '/calls/stream_query', body);
  return { status: res.status, text: await res.text() };
}

/** The backends of the test database running a cursor statement (DECLARE or FETCH; only the heavy query runs long). */
async function heavyBackends(): Promise<number> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
        AND state = 'active' AND query LIKE '%weft_calls%'`,
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

beforeAll(async () => {
  database = await freshPgDatabase('cancel');
  await seed(database.url);
  server = await startServer({ port: 0, host: '127.0.0.1', db: database.url, log: () => {}, apiKeys: [] });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await database?.drop();
});

describe('a stream_query whose client went away (PostgreSQL)', () => {
  it('cancels its statement: queries the client gave up on stop running, and a following small one is answered', async () => {
    // give up on as many heavy queries as the cursor pool has connections, once each is running
    const controllers = Array.from({ length: 10 }, () => new AbortController());
    const given = controllers.map((ac) =>
      fetch(`${server.url}/calls/stream_query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(HEAVY), signal: ac.signal }).catch(() => undefined),
    );
    expect(await until(async () => (await heavyBackends()) >= 10, 20_000), 'the heavy queries never all ran').toBe(true);
    for (const ac of controllers) ac.abort();
    await Promise.all(given);
    // without cancelling, ten heavy statements on 2 cores run for tens of seconds after their clients left
    expect(await until(async () => (await heavyBackends()) === 0, 2000), 'a given-up heavy statement is still running').toBe(true);
    const after = await answer(SMALL);
    expect(after.status).toBe(200);
    expect(after.text.trim().split('\n')).toHaveLength(1);
  }, 120_000);
});

describe('a cursor closed while its statement runs (PostgreSQL)', () => {
  it('cancels the statement and does not hand its connection back to the pool', async () => {
    const db = await openPgDatabase(database.url, { maxConnections: 1 });
    try {
      const sql = `SELECT calls.* FROM calls WHERE calls.project_id = $1 AND pg_sleep(0.01) IS NOT NULL ORDER BY calls.id`;
      const cursor = await openPgCursor(db.cursorPool, { sql, params: [PROJECT] }, { onClose: () => {}, cancelPool: db.pool, statementTimeoutMs: 0 });
      const page = Promise.resolve(cursor.next(CALLS)).then(
        () => 'rows',
        (err: unknown) => (err instanceof HttpError ? err.status : String(err)),
      );
      expect(await until(async () => (await heavyBackends()) === 1, 5000)).toBe(true);
      await cursor.close();
      expect(await page).toBe(503);
      // not cancelled, the statement would sleep CALLS * 10 ms more
      expect(await heavyBackends()).toBe(0);
      // the one-connection pool is not poisoned: a new cursor reads
      const next = await openPgCursor(db.cursorPool, { sql: 'SELECT calls.* FROM calls WHERE project_id = $1 ORDER BY id', params: [PROJECT] }, { onClose: () => {}, cancelPool: db.pool, statementTimeoutMs: 0 });
      expect(await next.next(3)).toHaveLength(3);
      await next.close();
    } finally {
      await db.close();
    }
  });
});

describe('a cursor that fails (PostgreSQL)', () => {
  it('to open, or mid-stream, gives its connection back usable: the next cursor of a one-connection pool reads', async () => {
    const db = await openPgDatabase(database.url, { maxConnections: 1 });
    const good = { sql: 'SELECT calls.* FROM calls WHERE project_id = $1 ORDER BY id', params: [PROJECT] };
    let closes = 0;
    const options = { onClose: () => void closes++, cancelPool: db.pool, statementTimeoutMs: 0 };
    const readsThree = async (): Promise<void> => {
      const cursor = await openPgCursor(db.cursorPool, good, options);
      expect(await cursor.next(3)).toHaveLength(3);
      await cursor.close();
    };
    try {
      // the DECLARE fails: its transaction is ended, not left open on the pooled connection
      await expect(openPgCursor(db.cursorPool, { sql: 'SELECT no_such_column FROM calls', params: [] }, options)).rejects.toThrow(/no_such_column/);
      expect(closes).toBe(1);
      await readsThree();
      // a FETCH fails at run time: the connection is dropped, the pool opens another
      const failing = await openPgCursor(db.cursorPool, { sql: 'SELECT calls.*, 1 / (row_number() OVER () - 5)::int AS x FROM calls WHERE project_id = $1', params: [PROJECT] }, options);
      await expect(failing.next(10)).rejects.toThrow(/division by zero/);
      await readsThree();
      // closed between pages: back to the pool idle, not idle in transaction
      const cursor = await openPgCursor(db.cursorPool, good, options);
      expect(await cursor.next(2)).toHaveLength(2);
      await cursor.close();
      const { rows } = await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
      );
      expect(rows[0]!.n).toBe(0);
      expect(closes).toBe(5);
    } finally {
      await db.close();
    }
  });
});

describe('the statement timeout of stream queries (PostgreSQL)', () => {
  let timed500: RunningServer;
  beforeAll(async () => {
    process.env['WEFT_PG_STATEMENT_TIMEOUT_MS'] = '500';
    try {
      timed500 = await startServer({ port: 0, host: '127.0.0.1', db: database.url, log: () => {}, apiKeys: [] });
    } finally {
      delete process.env['WEFT_PG_STATEMENT_TIMEOUT_MS'];
    }
  });
  afterAll(async () => {
    await timed500?.close();
  });

  it('answers a statement past it 503 with a detail naming the timeout, and the server keeps serving', async () => {
    const res = await post(timed500, '/calls/stream_query', HEAVY);
    const body = (await res.json()) as { detail: unknown };
    expect(res.status).toBe(503);
    expect(body.detail).toMatch(/statement timeout \(500 ms, WEFT_PG_STATEMENT_TIMEOUT_MS\)/);
    const small = await post(timed500, '/calls/stream_query', SMALL);
    expect(small.status).toBe(200);
    expect((await small.text()).split('\n')).toHaveLength(2);
  }, 60_000);

  it('cuts statements, not streams: a stream read slowly for longer than the timeout ends whole', async () => {
    const res = await post(timed500, '/calls/stream_query', { project_id: PROJECT });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const t0 = performance.now();
    let text = '';
    const decoder = new TextDecoder();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      text += decoder.decode(r.value, { stream: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(performance.now() - t0).toBeGreaterThan(500);
    expect(text.trim().split('\n')).toHaveLength(CALLS);
  }, 60_000);
});
