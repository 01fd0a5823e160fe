/**
 * `weft calls show <id>`: a trace as a tree with durations, status and errors; the id may be a trace id
 * or the id of any call in the trace.
 * @module
 */
import { Command } from 'commander';
import type { Client } from 'weft-trace/client';
import type { CallRecord } from 'weft-trace/wire';
import { type Connection, clientFor, connectionOf, requireProject, withConnection } from './connection.js';
import { CliError } from './exit.js';
import { projectHint } from './project-hint.js';
import { renderTrees } from './trace-tree.js';
import { viewerLink } from './viewer-link.js';

interface ShowOptions {
  baseUrl: string;
  apiKey?: string;
  project?: string;
  json: boolean;
}

/**
 * Every call of the trace that `id` names (a call id first, else a trace id), in start order. Both forms of an id
 * are taken, with dashes and without (an OTel trace id as printed): the filter matches each (schema/ids.ts).
 * @param conn - given, the error names the server's projects when `project` is not one of them.
 * @throws {CliError} when no call or trace has that id.
 */
export async function readTrace(client: Client, project: string, id: string, conn?: Connection): Promise<CallRecord[]> {
  const [call] = await client.calls.streamQuery({ project_id: project, filter: { call_ids: [id] }, columns: ['trace_id'], limit: 1 }).toArray();
  const traceId = call?.trace_id ?? id;
  const calls = await client.calls.streamQuery({ project_id: project, filter: { trace_ids: [traceId] }, include_costs: true }).toArray();
  if (calls.length === 0) throw new CliError(`no call or trace ${id} in project ${project}${conn ? await projectHint(conn, project) : ''}`);
  return calls;
}

/** The `calls show` command. */
export function showCommand(): Command {
  return withConnection(new Command('show'))
    .description('print a trace as a tree: each call with its status, duration and error')
    .argument('<id>', 'a trace id, or the id of any call in the trace')
    .option('--json', 'print the trace\'s records as a JSON array', false)
    .action(async (id: string, opts: ShowOptions) => {
      const conn = connectionOf(opts);
      const client = clientFor(conn);
      try {
        const project = requireProject(conn);
        const calls = await readTrace(client, project, id, conn);
        const link = (root: CallRecord): string => viewerLink(conn.baseUrl, project, root.trace_id);
        process.stdout.write(opts.json ? `${JSON.stringify(calls, null, 2)}\n` : `${renderTrees(calls, link)}\n`);
      } finally {
        await client.close();
      }
    });
}
