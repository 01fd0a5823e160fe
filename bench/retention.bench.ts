// Retention (issue 40, point 3): half of a 1,000,000-call project (traces of 4; BENCH_RETENTION_ROWS) deleted through
// POST /weft/calls/delete_before (the loop `weft serve --retention-days` runs) while 8 writers send upsert batches to a
// server in a child process; figures: the longest write wait during the deletes against the longest without them (same
// run, same writers), deletes per second, and the file size after seeding, after the deletes and after inserting as many
// calls again (freed pages reused: the file should not grow). 10M calls is the issue's size: below it, a row prints the
// extrapolation from the rate measured here. BENCH_RETENTION_STORE=postgres: the same on a fresh database of a
// throwaway durable cluster (lib/calls-db.ts fillPgCalls: the same rows, generated in SQL), its size the calls table's
// with its indexes, after the deletes and a plain VACUUM (what autovacuum runs).
import { copyFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { request } from 'undici';
import { callsDatabase, fillPgCalls, idAt, INSERT, QUERY_PROJECT } from './lib/calls-db.js';
import { contextLine } from './lib/context-line.js';
import { pgOnce, startBenchCluster, type BenchCluster } from './lib/pg-cluster.js';
import { benchTempDir, startChildServer } from './lib/server.js';
import { num, printTable, QUICK, ratio, verdict } from './lib/table.js';
import { batchBody, quantile, runWriters, type Writers } from './lib/writers.js';

const ROWS = Number(process.env.BENCH_RETENTION_ROWS) || (QUICK ? 200_000 : 1_000_000);
const POSTGRES = process.env.BENCH_RETENTION_STORE === 'postgres';
const WRITERS = 8;
const CALLS_PER_WRITE = 250;
/** Seconds of writes without deletes (the baseline) before the deletes start. */
const BASELINE_S = QUICK ? 2 : 4;
const WRITE_PROJECT = 'bench/retention-writes';
/** The generated calls start 10 ms apart from here (lib/calls-db.ts): the cutoff halves them. */
const T0 = Date.parse('2026-11-01T00:00:00Z');
const CUTOFF = new Date(T0 + (ROWS / 2) * 10).toISOString();

const fileMb = (path: string): number => statSync(path).size / 1024 / 1024;

/** Checkpoints the WAL into the file and truncates it, so the file's size is the database's. */
function checkpoint(path: string): { mb: number; freePages: number } {
  const db = new Database(path);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const freePages = db.pragma('freelist_count', { simple: true }) as number;
  db.close();
  return { mb: fileMb(path), freePages };
}

/** Inserts `rows` more calls of the generator's shape (new ids, later times) with a plain connection. */
function insertAgain(path: string, rows: number): void {
  const db = new Database(path);
  const insert = db.prepare(INSERT);
  const t1 = T0 + ROWS * 10;
  db.transaction(() => {
    let traceId = '';
    for (let i = 0; i < rows; i++) {
      const ms = t1 + i * 10;
      const id = idAt(ms, ROWS + i);
      const root = i % 4 === 0;
      if (root) traceId = id;
      insert.run(QUERY_PROJECT, id, root ? 'answer' : `step_${i % 4}`, traceId, root ? null : traceId, new Date(ms).toISOString(), new Date(ms + 5).toISOString(),
        JSON.stringify({ k: i % 1000, question: `question ${i}` }), JSON.stringify(`answer ${i}`), JSON.stringify({ status_counts: { success: 1, error: 0 }, usage: {} }));
    }
  })();
  db.close();
}

/** Writers sending until `stop()`; bodies made ahead of time, reused (a re-sent call is an upsert, as a retry is). */
function writers(url: string, stop: () => boolean): Promise<Writers> {
  const bodies = Array.from({ length: 64 }, () => batchBody(WRITE_PROJECT, CALLS_PER_WRITE));
  let next = 0;
  return runWriters(url, WRITERS, () => bodies[next++ % bodies.length], stop);
}

/** The store under test: where the server's database is, its size, and more calls written into it. */
interface Subject {
  where: string;
  /** MB of the database (SQLite: the file after a checkpoint; PostgreSQL: the calls table and its indexes) and a note. */
  space(afterDeletes: boolean): Promise<{ mb: number; note: string }>;
  insertAgain(rows: number): Promise<void>;
  generatedSeconds?: number;
}

async function sqliteSubject(dir: string): Promise<Subject> {
  const seeded = callsDatabase(ROWS);
  const path = join(dir, 'retention.db');
  copyFileSync(seeded.path, path);
  return {
    where: path,
    generatedSeconds: seeded.generatedSeconds,
    space: async () => ((c) => ({ mb: c.mb, note: `free pages: ${num(c.freePages)}` }))(checkpoint(path)),
    insertAgain: async (rows) => insertAgain(path, rows),
  };
}

async function pgSubject(cluster: BenchCluster): Promise<Subject> {
  const url = await cluster.freshDatabase();
  const generatedSeconds = await fillPgCalls(url, ROWS);
  await pgOnce(url, 'ANALYZE calls');
  const sizes = async (): Promise<{ total: number; heap: number }> => {
    const row = (await pgOnce<{ t: string; h: string }>(url, "SELECT pg_total_relation_size('calls')::text AS t, pg_relation_size('calls')::text AS h"))[0]!;
    return { total: Number(row.t) / 1024 / 1024, heap: Number(row.h) / 1024 / 1024 };
  };
  return {
    where: url,
    generatedSeconds,
    space: async (afterDeletes) => {
      if (afterDeletes) await pgOnce(url, 'VACUUM calls');
      const { total, heap } = await sizes();
      return { mb: total, note: `${afterDeletes ? 'after VACUUM; ' : ''}of it the table's rows ${num(heap)} MB` };
    },
    insertAgain: async (rows) => void (await fillPgCalls(url, rows, ROWS)),
  };
}

const dir = benchTempDir();
const cluster = POSTGRES ? startBenchCluster() : undefined;
try {
  const subject = cluster ? await pgSubject(cluster) : await sqliteSubject(dir);
  const before = await subject.space(false);
  const server = await startChildServer(subject.where);
  const forSeconds = (seconds: number): (() => boolean) => ((end) => () => performance.now() > end)(performance.now() + seconds * 1000);
  await writers(server.url, forSeconds(1)); // warm-up, not counted: the first writes read cold index pages
  const baseline = await writers(server.url, forSeconds(BASELINE_S));
  let stopWrites = false;
  const during = writers(server.url, () => stopWrites);
  const tDel = performance.now();
  const res = await request(`${server.url}/weft/calls/delete_before`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ project_id: QUERY_PROJECT, before: CUTOFF }), headersTimeout: 0, bodyTimeout: 0,
  });
  const answer = (await res.body.json()) as { deleted_calls: number; batches: number };
  const deleteS = (performance.now() - tDel) / 1000;
  const deleted = answer.deleted_calls;
  stopWrites = true;
  const loaded = await during;
  await server.close();
  const afterDelete = await subject.space(true);
  const tIns = performance.now();
  await subject.insertAgain(deleted);
  const insertS = (performance.now() - tIns) / 1000;
  const after = await subject.space(false);
  const maxBase = baseline.latencies.at(-1) ?? NaN;
  const maxDuring = loaded.latencies.at(-1) ?? NaN;
  const rate = deleted / deleteS;
  const store = cluster ? `PostgreSQL ${await cluster.version()} (durable)` : 'SQLite';
  const what = cluster ? 'calls table with its indexes' : 'file';
  printTable(
    `Retention on ${store}: ${num(deleted)} of ${num(ROWS)} calls (traces of 4) deleted through /weft/calls/delete_before in batches of 2,000 while ${WRITERS} writers send ${CALLS_PER_WRITE}-call batches${subject.generatedSeconds ? ` (calls generated in ${num(subject.generatedSeconds)} s)` : ''} · ${contextLine()}`,
    ['figure', 'value', 'ratio'],
    [
      [`longest write wait, ${BASELINE_S} s of writes alone (baseline), ms`, num(maxBase), '1.00x'],
      ['longest write wait during the deletes, ms', num(maxDuring), ratio(maxDuring, maxBase)],
      ['p99 write wait alone / during the deletes, ms', `${num(quantile(baseline.latencies, 0.99))} / ${num(quantile(loaded.latencies, 0.99))}`, ratio(quantile(loaded.latencies, 0.99), quantile(baseline.latencies, 0.99))],
      ['writes answered alone / during the deletes (non-200 or errors)', `${num(baseline.latencies.length)} / ${num(loaded.latencies.length)} (${baseline.failures.length + loaded.failures.length})`, ''],
      [`deletes: calls/s (${num(deleteS, 1)} s, ${num(answer.batches)} batches)`, num(rate), ''],
      ...(ROWS < 10_000_000 ? [['10M calls at this rate (extrapolated, not measured), minutes', num(10_000_000 / rate / 60, 1), '']] : []),
      [`${what} after seeding, MB`, num(before.mb), '1.00x'],
      [`${what} after the deletes, MB (${afterDelete.note})`, num(afterDelete.mb), ratio(afterDelete.mb, before.mb)],
      [`${what} after inserting ${num(deleted)} calls again (${num(insertS, 1)} s), MB${after.note ? ` (${after.note})` : ''}`, num(after.mb), ratio(after.mb, before.mb)],
      ['target: no write waits > 1 s', verdict(maxDuring < 1000 && loaded.failures.length === 0, '< 1 s'), ''],
    ],
  );
  if (!(deleted > 0) || loaded.failures.length > 0) process.exitCode = 1;
} finally {
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}
