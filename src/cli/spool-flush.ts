/**
 * `weft spool flush`: sends now what a traced program left in its disk spool (the SDK's default one for `--base-url` and `--project`, or `--dir`), with the SDK's own replayer, and prints what it sent.
 * @module
 */
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import PQueue from 'p-queue';
import type { Entry, Tally } from '../export/batcher.js';
import { BatchSender, type PostOutcome } from '../export/batch-sender.js';
import { DEFAULT_EXPORT_OPTIONS, type ExportOptions } from '../export/export-options.js';
import { Spool } from '../export/spool.js';
import { defaultSpoolDir } from '../export/spool-location.js';
import { SpoolReplayer } from '../export/spool-replay.js';
import { safeMessage } from '../internal/safe-message.js';
import { CliError, clientFor, connectionOf, EXIT, withConnection, type Connection } from './connection.js';

interface FlushOptions {
  baseUrl: string;
  apiKey?: string;
  project?: string;
  verbose?: boolean;
  dir?: string;
}

/** Retries of the command's requests: a few seconds for a server that is starting, not the SDK's 30 s budget. */
const RETRIES: Partial<ExportOptions> = { maxRetries: 4, retryBudgetMs: 5_000 };

/** A sender that remembers why the last batch was not delivered, for the command's error line. */
class ReportingSender extends BatchSender {
  lastError: unknown;

  override async post(batch: Entry[], signal: AbortSignal): Promise<PostOutcome> {
    const out = await super.post(batch, signal);
    if (out.undelivered.length > 0) this.lastError = out.error;
    return out;
  }
}

/** The spool directory the command sends: `--dir`, else the SDK's default for the connection's URL and project. */
function spoolDirOf(conn: Connection, dir: string | undefined): string {
  if (dir) return dir;
  if (!conn.project) throw new CliError('no spool given: pass --project entity/project (or set WEFT_PROJECT) for the SDK\'s default spool, or --dir <dir>', EXIT.usage);
  return defaultSpoolDir(conn.baseUrl, conn.project) as string;
}

/**
 * Replays the spool `dir` to the connection's server until it is empty or a batch stays undelivered.
 * @returns the events sent and dropped (refused by the server as invalid), and whether the spool is empty now.
 */
export async function flushSpool(conn: Connection, dir: string): Promise<{ tally: Tally; drained: boolean; error: unknown }> {
  const options: ExportOptions = { ...DEFAULT_EXPORT_OPTIONS, ...RETRIES };
  const client = clientFor(conn);
  const sender = new ReportingSender(client, options);
  const tally: Tally = { sent: 0, dropped: 0 };
  let drained = false;
  const replayer = new SpoolReplayer({
    spool: new Spool(dir, Number.MAX_SAFE_INTEGER),
    sender,
    slots: new PQueue({ concurrency: options.maxConcurrentRequests }),
    signal: new AbortController().signal,
    tally,
    limits: options,
    onDrained: () => {
      drained = true;
    },
  });
  const keepAlive = setInterval(() => undefined, 60_000); // the sender's retry waits do not hold the process
  try {
    await replayer.kick();
  } finally {
    clearInterval(keepAlive);
    replayer.stop();
    await client.close();
  }
  return { tally, drained, error: sender.lastError };
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
      const { tally, drained, error } = await flushSpool(conn, dir);
      const refused = tally.dropped > 0 ? `; ${tally.dropped} refused by the server as invalid (dropped)` : '';
      process.stdout.write(`sent ${tally.sent} event(s) from ${dir} to ${conn.baseUrl}${refused}\n`);
      if (!drained) throw new CliError(`the server did not take the rest (${safeMessage(error)}); they stay in ${dir}`);
    });
}
