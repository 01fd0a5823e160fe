/**
 * The two drivers of store methods written once as SQL steps (db/sql-steps.ts): SQLite runs a method's steps
 * synchronously (in one `db.transaction` when asked), so a SQLite store answers values and never yields the event
 * loop inside a write; PostgreSQL runs them asynchronously on the pool (or in one transaction on one client).
 * @module
 */
import type Database from 'better-sqlite3';
import { type Dialect, PG_DIALECT, pgSql, SQLITE_DIALECT } from './dialect.js';
import type { PgDatabase, PgQueryable } from './pg-database.js';
import { type Prepare, statementCache } from './statement-cache.js';
import { type BulkInsert, COLUMN_TYPES, type Step, type Steps } from './sql-steps.js';

/** Whether an engine's runner answers values (`sync`: SQLite) or Promises (`async`: PostgreSQL). */
export type Wait = 'sync' | 'async';

/** What a method of a store over a runner of kind `W` answers: the value, or a Promise of it. */
export type Out<W extends Wait, T> = W extends 'sync' ? T : Promise<T>;

/** A store method written as SQL steps: built with the engine's dialect, from its arguments. */
export type StepsOf<A extends unknown[], T> = (d: Dialect, ...args: A) => Steps<T>;

/** Runs store methods written as SQL steps on one engine; each answers the method's answer or throws (rejects) what it throws. */
export interface SqlRunner<W extends Wait = Wait> {
  /** Runs a method's steps one after the other (PostgreSQL: each on a connection of the pool). */
  run<A extends unknown[], T>(method: StepsOf<A, T>, ...args: A): Out<W, T>;
  /**
   * Runs a method's steps in one transaction: all of its writes are stored or none. PostgreSQL runs the method again
   * when it aborted the transaction for a deadlock or a serialization conflict (`PgDatabase.transaction`).
   */
  transaction<A extends unknown[], T>(method: StepsOf<A, T>, ...args: A): Out<W, T>;
  /** Runs a long read: on PostgreSQL, on the long-read pool, whose `statement_timeout` bounds it. */
  longRead<A extends unknown[], T>(method: StepsOf<A, T>, ...args: A): Out<W, T>;
  /**
   * Runs `jobs` (store calls) as one unit where that saves work: SQLite runs them in one transaction, inside which each
   * of their own transactions is a savepoint (its writes stay all-or-nothing; the unit pays one commit); PostgreSQL
   * runs them as they are. @throws what the commit throws (none of the jobs' writes are stored then).
   */
  together(jobs: () => void): void;
}

/** `INSERT INTO <table> (<columns>)` of a bulk insert: the fixed columns first. */
function insertHead(spec: BulkInsert): string {
  return `INSERT INTO ${spec.table} (${[...Object.keys(spec.fixed ?? {}), ...Object.keys(spec.columns)].join(', ')})`;
}

/** `<tail> RETURNING <columns>` of a bulk insert. */
function insertTail(spec: BulkInsert): string {
  return `${spec.tail ? ` ${spec.tail}` : ''}${spec.returning ? ` RETURNING ${spec.returning}` : ''}`;
}

/** SQLite: one prepared insert, run once per row, in one transaction with the rest of the method when it asks for one. */
function sqliteInsert(prepare: Prepare, spec: BulkInsert): unknown[] {
  const fixed = Object.values(spec.fixed ?? {});
  const binds = [...fixed.map(([type]) => type), ...Object.values(spec.columns)].map((type) => COLUMN_TYPES[type].sqlite);
  const statement = prepare(`${insertHead(spec)} VALUES (${binds.join(', ')})${insertTail(spec)}`);
  const head = fixed.map(([, value]) => value);
  const out: unknown[] = [];
  for (const row of spec.rows) {
    if (!spec.returning) statement.run(...head, ...row);
    else {
      const inserted = statement.get(...head, ...row);
      if (inserted !== undefined) out.push(inserted);
    }
  }
  return out;
}

/** Runs steps on SQLite synchronously through `prepare` (inside the caller's transaction, if any). @returns their answer. */
function sqliteSteps<T>(prepare: Prepare, steps: Steps<T>): T {
  const exec = (step: Step): unknown => {
    if (step.kind === 'insert') return sqliteInsert(prepare, step.insert);
    const statement = prepare(step.sql);
    if (step.kind === 'all') return statement.all(...step.params);
    if (step.kind === 'get') return statement.get(...step.params);
    return statement.run(...step.params).changes;
  };
  for (let at = steps.next(); ; at = steps.next(exec(at.value))) if (at.done) return at.value;
}

/** The SQLite runner of one connection (statements cached per SQL text). */
export function sqliteRunner(db: Database.Database): SqlRunner<'sync'> {
  const prepare = statementCache(db);
  const drive = <T>(steps: Steps<T>): T => sqliteSteps(prepare, steps);
  const inTransaction = db.transaction((steps: Steps<unknown>) => drive(steps));
  const run = <A extends unknown[], T>(method: StepsOf<A, T>, ...args: A): T => drive(method(SQLITE_DIALECT, ...args));
  const together = db.transaction((jobs: () => void) => jobs());
  return {
    run,
    transaction: <A extends unknown[], T>(method: StepsOf<A, T>, ...args: A): T => inTransaction(method(SQLITE_DIALECT, ...args)) as T,
    longRead: run,
    together: (jobs) => together(jobs),
  };
}

/** Rows per PostgreSQL bulk insert statement: each binds one array per column, so this only bounds one message's size. */
const INSERT_CHUNK = 5_000;

/** PostgreSQL: `INSERT ... SELECT FROM unnest(<one array per column>)`, {@link INSERT_CHUNK} rows per statement. */
async function pgInsert(db: PgQueryable, spec: BulkInsert): Promise<unknown[]> {
  const fixed = Object.values(spec.fixed ?? {});
  const columns = Object.values(spec.columns);
  const selected = [...fixed.map(([type], i) => `$${i + 1}::${COLUMN_TYPES[type].pg}`), ...columns.map((_, j) => `u.c${j}`)];
  const arrays = columns.map((type, j) => `$${fixed.length + j + 1}::${COLUMN_TYPES[type].pg}[]`);
  const sql = `${insertHead(spec)} SELECT ${selected.join(', ')} FROM unnest(${arrays.join(', ')}) AS u(${columns.map((_, j) => `c${j}`).join(', ')})${insertTail(spec)}`;
  const out: unknown[] = [];
  for (let at = 0; at < spec.rows.length; at += INSERT_CHUNK) {
    const rows = spec.rows.slice(at, at + INSERT_CHUNK);
    const params = [...fixed.map(([, value]) => value), ...columns.map((_, j) => rows.map((row) => row[j]))];
    out.push(...(await db.query(sql, params)).rows);
  }
  return out;
}

/** Runs one step on PostgreSQL: `?` placeholders become `$n` (each SQL text converted once). */
async function pgExec(db: PgQueryable, step: Step): Promise<unknown> {
  if (step.kind === 'insert') return pgInsert(db, step.insert);
  const res = await db.query(pgSql(step.sql), step.params as unknown[]);
  if (step.kind === 'all') return res.rows;
  return step.kind === 'get' ? res.rows[0] : (res.rowCount ?? 0);
}

/** Runs steps on PostgreSQL, one after the other, on `on` (a client inside the caller's transaction, or a pool). @returns their answer. */
async function pgSteps<T>(on: PgQueryable, steps: Steps<T>): Promise<T> {
  for (let at = steps.next(); ; at = steps.next(await pgExec(on, at.value))) if (at.done) return at.value;
}

/** The PostgreSQL runner of one database: reads on the pool (long ones on the long-read pool), transactions on one client. */
export function pgRunner(db: PgDatabase): SqlRunner<'async'> {
  return {
    run: (method, ...args) => pgSteps(db.pool, method(PG_DIALECT, ...args)),
    transaction: (method, ...args) => db.transaction((client) => pgSteps(client, method(PG_DIALECT, ...args))),
    longRead: (method, ...args) => pgSteps(db.cursorPool, method(PG_DIALECT, ...args)),
    together: (jobs) => jobs(),
  };
}
