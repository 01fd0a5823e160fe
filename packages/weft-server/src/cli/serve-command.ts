/**
 * `weft serve`: runs the local reference server (SQLite, or PostgreSQL with `--db postgres://...`) until SIGINT/SIGTERM.
 * @module
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { CliError } from './exit.js';
import type { RunningServer } from '../server/start-server.js';
import { loadPriceFile, type PriceTable } from '../server/calls/prices/price-table.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../server/listen-defaults.js';
import { parseUserPairs } from '../server/calls/query/user-pairs.js';

/** Options of `weft serve`, as parsed by commander. */
interface ServeOptions {
  port: number;
  host: string;
  db: string;
  /** Each `--api-key` value, in order; undefined when none was given (then `WEFT_SERVER_API_KEYS` applies). */
  apiKey?: string[];
  /** `--user id=name` pairs, merged. */
  user?: Record<string, string>;
  /** The `--prices` file, read and checked. */
  prices?: PriceTable;
  /** `--open`: open the server's page in the default browser once listening. */
  open?: boolean;
  /** `--no-monitors` sets it false: the stored monitors are not run here. */
  monitors: boolean;
  /** `--retention-days`: keep calls this many days. */
  retentionDays?: number;
}

/** Runs a parser, turning its error into commander's "invalid argument" message. */
function argument<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw new InvalidArgumentError(err instanceof Error ? err.message : String(err));
  }
}

function parseDays(value: string): number {
  const days = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(days > 0)) throw new InvalidArgumentError(`expected a number of days > 0 such as 30 or 0.5, got ${JSON.stringify(value)}`);
  return days;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError(`expected a port number 0-65535, got ${value}`);
  return port;
}

/**
 * The server's start module (`start-server.ts`, which loads the PostgreSQL store and its driver only for a
 * `postgres://` URL, where the public `server/index.ts` re-exports it statically). `better-sqlite3` is an optional
 * dependency (its native build must not fail an SDK-only install), so when it is missing `weft serve` says how to get it.
 * @throws CliError when better-sqlite3 cannot be loaded.
 */
async function loadServer(): Promise<typeof import('../server/start-server.js')> {
  try {
    return await import('../server/start-server.js');
  } catch (err) {
    if (/better-sqlite3|better_sqlite3/.test(String((err as Error)?.message))) {
      throw new CliError('the better-sqlite3 package it stores into is not installed or not built here (an optional dependency; its native build may have failed, or npm skipped its install script): run `npm install better-sqlite3` and read its output; with npm 11, allow its script with `npm install-scripts approve better-sqlite3`, then `npm rebuild better-sqlite3`');
    }
    throw err;
  }
}

/** One readable line for a startup failure (busy port, bad host, unopenable database). */
function describeStartError(err: unknown, opts: ServeOptions): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const where = `${opts.host}:${opts.port}`;
  if (code === 'EADDRINUSE') return `port ${opts.port} on ${opts.host} is already in use; stop the other server or pick another port with --port`;
  if (code === 'EACCES') return `not allowed to listen on ${where}; pick a port above 1023 with --port`;
  if (code === 'EADDRNOTAVAIL') return `cannot bind ${opts.host}: no such local address; check --host`;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return `cannot open database ${opts.db}: ${(err as Error).message}`;
  if (isPostgres(opts.db)) return `cannot open PostgreSQL database ${redactUrl(opts.db)}: ${err instanceof Error ? err.message : String(err)}`;
  return err instanceof Error ? err.message : String(err);
}

/** Opens `url` in the default browser (the `open` package); a failure is one line, the server keeps running. */
async function openBrowser(url: string): Promise<void> {
  try {
    const { default: open } = await import('open');
    const child = await open(url);
    child.once('error', (err) => console.error(`weft serve: could not open a browser (${err.message}); open ${url} yourself`));
  } catch (err) {
    console.error(`weft serve: could not open a browser (${err instanceof Error ? err.message : String(err)}); open ${url} yourself`);
  }
}

/** True for a `postgres://` / `postgresql://` URL. */
function isPostgres(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/** The URL without its password, for log lines. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://...';
  }
}

/** Removes a SQLite database file this run created and its WAL and shared-memory files; a failure is ignored. */
function removeDatabase(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      rmSync(f, { force: true });
    } catch {
      // best effort: the startup error is what the user needs to read
    }
  }
}

/** Runs the server until SIGINT/SIGTERM, then closes it and the database and exits 0. */
async function serve(opts: ServeOptions): Promise<void> {
  const postgres = isPostgres(opts.db);
  const dbPath = postgres || opts.db === ':memory:' ? opts.db : path.resolve(opts.db);
  const where = postgres ? { db: opts.db } : { dbPath };
  const newFile = !postgres && dbPath !== ':memory:' && !existsSync(dbPath) ? dbPath : undefined;
  let server: RunningServer;
  try {
    // loaded here, not at the top: the other commands run without the server's native SQLite module
    const { startServer } = await loadServer();
    server = await startServer({ port: opts.port, host: opts.host, ...where, apiKeys: opts.apiKey, users: opts.user, prices: opts.prices, retentionDays: opts.retentionDays, monitors: opts.monitors, rollups: true, queues: true, log: (line) => console.error(line) });
  } catch (err) {
    if (newFile) removeDatabase(newFile); // e.g. a busy port: no empty database left behind
    console.error(`weft serve: ${describeStartError(err, opts)}`);
    process.exit(1);
  }
  console.log(`weft server listening on ${server.url} (db: ${postgres ? redactUrl(dbPath) : dbPath}; ${server.access})`);
  console.log(`trace viewer: ${server.url}/`);
  if (opts.retentionDays !== undefined) console.log(`retention: traces started more than ${opts.retentionDays} days ago are deleted now and every hour`);
  if (opts.open) await openBrowser(`${server.url}/`);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`weft server: ${signal} received, shutting down`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`weft serve: error while closing: ${String(err)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

/** The `serve` command. */
export function serveCommand(): Command {
  return new Command('serve')
    .description('Run the local reference server (SQLite, or PostgreSQL for several servers on one database) that speaks the service interface')
    .option('-p, --port <port>', 'TCP port to listen on; 0 picks a free port', parsePort, DEFAULT_PORT)
    .option('--host <host>', 'address to bind (loopback by default)', DEFAULT_HOST)
    .addOption(
      new Option(
        '--db <path|url>',
        "SQLite database file, created if missing (':memory:' for a throwaway one), or a PostgreSQL URL " +
          'postgres://user:password@host:port/database (several servers may share it)',
      )
        .env('WEFT_DB_URL')
        .default('weft.db'),
    )
    .option(
      '--api-key <key>',
      'API key clients must send (Basic api:<key>; Bearer on /v1/preview/*); repeatable or comma separated; ' +
        '"key=entity/project,entity/project2" limits a key to those projects. Default: $WEFT_SERVER_API_KEYS; ' +
        'with no keys only loopback clients are served',
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .option(
      '--user <id=name>',
      'a user for stream_query include_usernames: svc_user_id=display name; repeatable',
      (value: string, previous: Record<string, string> | undefined) => ({ ...previous, ...argument(() => parseUserPairs([value])) }),
    )
    .option(
      '--prices <file>',
      'JSON price table for include_costs, {"<model>": {"promptUsdPer1M": n, "completionUsdPer1M": n, "cacheReadUsdPer1M"?: n, ' +
        '"cacheWriteUsdPer1M"?: n}} in USD per 1M tokens, used before the bundled genai-prices table',
      (value: string) => argument(() => loadPriceFile(value)),
    )
    .option('--open', "open the server's page in the default browser once it listens", false)
    .option('--no-monitors', 'do not run the stored monitors (online scoring) in this server; run them with weft monitors run instead')
    .option(
      '--retention-days <n>',
      'keep calls n days: at start and every hour, delete the traces whose root started earlier, with their feedback, ' +
        'in small batches between the writes (docs/scale.md); default: keep everything',
      parseDays,
    )
    .action((opts: ServeOptions) => serve(opts));
}
