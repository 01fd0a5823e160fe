/**
 * `weft spool flush`: sends now what a traced program left in its disk spool (the SDK's default one for `--base-url` and `--project`, or `--dir`), with the SDK's own `flushSpoolDir` (`export/spool-flush.ts`, the spool courier's core too), and prints what it sent.
 * @module
 */
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import type { ExportOptions } from 'weft-trace/client';
import { flushSpoolDir } from 'weft-trace/client';
import { defaultSpoolDir } from 'weft-trace/client';
import { safeMessage } from 'weft-trace/client';
import { connectionOf, withConnection, type Connection } from './connection.js';
import { CliError, EXIT } from './exit.js';

interface FlushOptions {
  baseUrl: string;
  apiKey?: string;
  project?: string;
  verbose?: boolean;
  dir?: string;
}

/** Retries of the command's requests: a few seconds for a server that is starting, not the SDK's 30 s budget. */
const RETRIES: Partial<ExportOptions> = { maxRetries: 4, retryBudgetMs: 5_000 };

/** The spool directory the command sends: `--dir`, else the SDK's default for the connection's URL and project. */
function spoolDirOf(conn: Connection, dir: string | undefined): string {
  if (dir) return dir;
  if (!conn.project) throw new CliError('no spool given: pass --project entity/project (or set WEFT_PROJECT) for the SDK\'s default spool, or --dir <dir>', EXIT.usage);
  return defaultSpoolDir(conn.baseUrl, conn.project) as string;
}

/** The `spool flush` command. */
export function spoolFlushCommand(): Command {
  return withConnection(new Command('flush'))
    .description("send the events a traced program could not send (its disk spool) to the server now")
    .option('--dir <dir>', "the spool directory (default: the SDK's own for --base-url and --project)")
    .action(async (opts: FlushOptions) => {
      const conn = connectionOf(opts);
      const dir = spoolDirOf(conn, opts.dir);
      if (!existsSync(dir)) {
        process.stdout.write(`nothing to send: ${dir} does not exist\n`);
        return;
      }
      // one pass, ending at the first batch the server does not take
      const { tally, drained, error } = await flushSpoolDir({ dir, baseUrl: conn.baseUrl, apiKey: conn.apiKey, retries: RETRIES });
      const refused = tally.dropped > 0 ? `; ${tally.dropped} refused by the server as invalid (dropped)` : '';
      process.stdout.write(`sent ${tally.sent} event(s) from ${dir} to ${conn.baseUrl}${refused}\n`);
      if (!drained) throw new CliError(`the server did not take the rest (${safeMessage(error)}); they stay in ${dir}`);
    });
}
