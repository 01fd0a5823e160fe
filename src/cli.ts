/**
 * The `weft` command line: `weft serve` runs the local reference server.
 * @module
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_HOST, DEFAULT_PORT, type PriceTable, type RunningServer, startServer } from './server/index.js';
import { loadPriceFile } from './server/calls/prices.js';
import { parseUserPairs } from './server/calls/user-pairs.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

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
}

/** Runs a parser, turning its error into commander's "invalid argument" message. */
function argument<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw new InvalidArgumentError(err instanceof Error ? err.message : String(err));
  }
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError(`expected a port number 0-65535, got ${value}`);
  return port;
}

/** One readable line for a startup failure (busy port, bad host, unopenable database). */
function describeStartError(err: unknown, opts: ServeOptions): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const where = `${opts.host}:${opts.port}`;
  if (code === 'EADDRINUSE') return `port ${opts.port} on ${opts.host} is already in use; stop the other server or pick another port with --port`;
  if (code === 'EACCES') return `not allowed to listen on ${where}; pick a port above 1023 with --port`;
  if (code === 'EADDRNOTAVAIL') return `cannot bind ${opts.host}: no such local address; check --host`;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return `cannot open database ${opts.db}: ${(err as Error).message}`;
  return err instanceof Error ? err.message : String(err);
}

/** Runs the server until SIGINT/SIGTERM, then closes it and the database and exits 0. */
async function serve(opts: ServeOptions): Promise<void> {
  const dbPath = opts.db === ':memory:' ? opts.db : path.resolve(opts.db);
  let server: RunningServer;
  try {
    server = await startServer({ port: opts.port, host: opts.host, dbPath, apiKeys: opts.apiKey, users: opts.user, prices: opts.prices, log: (line) => console.error(line) });
  } catch (err) {
    console.error(`weft serve: ${describeStartError(err, opts)}`);
    process.exit(1);
  }
  console.log(`weft server listening on ${server.url} (db: ${dbPath}; ${server.access})`);
  console.log(`trace viewer: ${server.url}/`);
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

/** Builds the `weft` program: its commands, options and help. */
function buildProgram(): Command {
  const program = new Command('weft')
    .description('Tracing for TypeScript LLM apps, agents and RL pipelines')
    .version(version)
    .showHelpAfterError();
  program
    .command('serve')
    .description('Run the local reference server (SQLite) that speaks the service interface')
    .option('-p, --port <port>', 'TCP port to listen on; 0 picks a free port', parsePort, DEFAULT_PORT)
    .option('--host <host>', 'address to bind (loopback by default)', DEFAULT_HOST)
    .option('--db <path>', "SQLite database file, created if missing (':memory:' for a throwaway one)", 'weft.db')
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
      'JSON price table for include_costs, {"<model>": {"promptUsdPer1M": n, "completionUsdPer1M": n}} in USD per 1M tokens, ' +
        'merged over the built-in one',
      (value: string) => argument(() => loadPriceFile(value)),
    )
    .action((opts: ServeOptions) => serve(opts));
  return program;
}

await buildProgram().parseAsync(process.argv);
