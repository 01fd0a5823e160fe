/**
 * `weft calls export`: every call of a project matching the filters, as JSONL (one record a line, in
 * start order, each with its feedback in `summary.feedback`) to a file or stdout, with progress on stderr; each media
 * file the calls refer to goes once, as a `weft.file` line before the first call referring to it (call-files.ts).
 * @module
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { Command } from 'commander';
import type { Client } from 'weft-trace/client';
import type { CallsQueryReq } from 'weft-trace/wire';
import { queryFor, withFilters, type FilterOptions } from './call-filters.js';
import { clientFor, connectionOf, requireProject, withConnection } from './connection.js';
import { CliError } from './exit.js';
import { rateSummary, startProgress } from 'weft-trace/client';
import { cliBar } from './progress-bar.js';
import { ExportedFiles } from './call-files.js';

interface ExportOptions extends FilterOptions {
  baseUrl: string;
  apiKey?: string;
  project?: string;
  out?: string;
}

/** How many calls the query matches (reads ids only). */
async function countCalls(client: Client, body: CallsQueryReq): Promise<number> {
  let n = 0;
  for await (const _ of client.calls.iterate({ ...body, columns: ['id'] }, { pageSize: 10_000 })) n++;
  return n;
}

/** Writes one line, waiting when the stream's buffer is full. */
async function writeLine(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/** The end of the summary line: the files written, and those the calls refer to that the server did not hold. */
function filesNote(files: ExportedFiles): string {
  const count = (n: number): string => `${n} file${n === 1 ? '' : 's'}`;
  const written = files.written.size > 0 ? `, with ${count(files.written.size)}` : '';
  const missing = files.missing.size > 0 ? ` (${count(files.missing.size)} the calls refer to not on the server: not arrived, or deleted)` : '';
  return written + missing;
}

/** Exports the calls, and before each the files it refers to that no earlier line carried; returns how many calls were written. */
export async function exportCalls(client: Client, body: CallsQueryReq, out: Writable, target: string): Promise<number> {
  const started = Date.now();
  const total = process.stderr.isTTY ? await countCalls(client, body) : undefined;
  const progress = startProgress('exporting', total, { bar: cliBar });
  const files = new ExportedFiles(client, body.project_id);
  let n = 0;
  for await (const call of client.calls.iterate(body, { pageSize: 5000 })) {
    const json = JSON.stringify(call);
    for (const line of await files.linesFor(call, json)) await writeLine(out, line);
    await writeLine(out, `${json}\n`);
    n++;
    if (n % 500 === 0) progress.update(n);
  }
  progress.update(n);
  progress.stop(`exported ${rateSummary(n, started)} to ${target}${filesNote(files)}`);
  return n;
}

/** The `calls export` command. */
export function exportCommand(): Command {
  return withFilters(withConnection(new Command('export')))
    .description('write every call of a project (with the filters) as JSONL, in start order, with the media files they refer to')
    .option('-o, --out <file>', 'file to write (default: stdout)')
    .action(async (opts: ExportOptions) => {
      const conn = connectionOf(opts);
      const body = { ...queryFor(requireProject(conn), opts), include_feedback: true };
      const client = clientFor(conn);
      const out: Writable = opts.out ? createWriteStream(opts.out) : process.stdout;
      if (opts.out) {
        await new Promise<void>((resolve, reject) => {
          out.once('open', () => resolve());
          out.once('error', (err) => reject(new CliError(`cannot write ${opts.out}: ${err.message}`)));
        });
      }
      try {
        await exportCalls(client, body, out, opts.out ?? 'stdout');
      } finally {
        await client.close();
        if (opts.out) await new Promise<void>((resolve) => out.end(resolve));
      }
    });
}
