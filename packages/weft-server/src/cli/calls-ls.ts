/**
 * `weft calls ls`: the newest calls of a project as a table (or JSON with `--json`).
 * @module
 */
import { Command } from 'commander';
import type { CallRecord } from 'weft-trace/wire';
import { queryFor, withFilters, type FilterOptions } from './call-filters.js';
import { clientFor, connectionOf, requireProject, withConnection } from './connection.js';
import { projectHint } from './project-hint.js';
import { viewerLink } from './viewer-link.js';
import { CALL_COLUMNS, callRow, colorsFor, makeTable } from './output.js';
import { parsePositiveInt } from './time-options.js';

interface LsOptions extends FilterOptions {
  baseUrl: string;
  apiKey?: string;
  project?: string;
  limit: number;
  json: boolean;
}

/** Reads the newest `limit` calls matching the filters, newest first, with costs. */
export async function listCalls(opts: LsOptions): Promise<CallRecord[]> {
  const conn = connectionOf(opts);
  const client = clientFor(conn);
  try {
    const body = { ...queryFor(requireProject(conn), opts), sort_by: [{ field: 'started_at', direction: 'desc' as const }], limit: opts.limit, include_costs: true };
    return await client.calls.streamQuery(body).toArray();
  } finally {
    await client.close();
  }
}

/** The `calls ls` command. */
export function lsCommand(): Command {
  return withFilters(withConnection(new Command('ls')))
    .description('list the newest calls of a project: time, op, status, latency, tokens, cost')
    .option('-n, --limit <n>', 'how many calls', parsePositiveInt, 20)
    .option('--json', 'print the records as a JSON array', false)
    .action(async (opts: LsOptions) => {
      const calls = await listCalls(opts);
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(calls, null, 2)}\n`);
        return;
      }
      const c = colorsFor(process.stdout);
      const conn = connectionOf(opts);
      const project = requireProject(conn);
      if (calls.length === 0) {
        process.stdout.write(`no calls in ${project} match${await projectHint(conn, project)}\n`);
        return;
      }
      const table = makeTable(CALL_COLUMNS.head, c, CALL_COLUMNS.align);
      for (const call of calls) table.push(callRow(call, c));
      process.stdout.write(`${table.toString()}\n`);
      // a hint for people, beside the data: on stderr, so piped output stays the table alone
      const first = calls[0]!;
      process.stderr.write(`${c.dim(`open a trace in the viewer (weft serve), e.g. the first row's: ${viewerLink(conn.baseUrl, project, first.trace_id, first.id)}`)}\n`);
    });
}
