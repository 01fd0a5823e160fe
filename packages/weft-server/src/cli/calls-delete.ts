/**
 * `weft calls delete --before <time>`: deletes a project's traces started before a time on any weft server
 * (`POST /weft/calls/delete_before`), in batches the server runs between its writes.
 * @module
 */
import { Command } from 'commander';
import { CALLS_DELETE_BEFORE_PATH, CallsDeleteBeforeRes } from 'weft-trace/wire';
import { withConnection } from './connection.js';
import { withProjectClient } from './project-client.js';
import { parseInstant, parsePositiveInt } from './time-options.js';

interface DeleteOptions {
  baseUrl: string;
  apiKey?: string;
  project?: string;
  verbose?: boolean;
  /** ISO 8601 UTC, parsed by `parseInstant`. */
  before: string;
  batchSize?: number;
  json: boolean;
}

/**
 * How long the command waits for the server's answer, which comes once every batch is deleted: 1 hour (a 10M-call
 * project deletes at tens of thousands of calls a second).
 */
const DELETE_TIMEOUT_MS = 3_600_000;

/**
 * Asks the server to delete the project's traces started before `opts.before`.
 * @throws APIError (422 with `detail` for a time later than the server's clock), APIConnectionError, CliError without a project.
 */
export async function deleteCallsBefore(opts: DeleteOptions): Promise<CallsDeleteBeforeRes> {
  return withProjectClient(opts, (client, project) => {
    const body = { project_id: project, before: opts.before, batch_size: opts.batchSize ?? null };
    return client.transport.post(CALLS_DELETE_BEFORE_PATH, body, CallsDeleteBeforeRes, { timeoutMs: DELETE_TIMEOUT_MS });
  });
}

/** The `calls delete` command. */
export function deleteCommand(): Command {
  return withConnection(new Command('delete'))
    .description('delete the traces of a project started before a time (whole traces, with their feedback and the files only they referred to); see docs/scale.md')
    .requiredOption('--before <time>', 'a duration back from now (30d, 12h, 2w) or an ISO 8601 time (2026-11-01, 2026-11-01T09:00Z)', (v: string) => parseInstant(v))
    .option('--batch-size <n>', 'calls per transaction on the server (default 2000)', parsePositiveInt)
    .option('--json', 'print the answer as JSON', false)
    .action(async (opts: DeleteOptions) => {
      const res = await deleteCallsBefore(opts);
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(res)}\n`);
        return;
      }
      const files = res.deleted_files ? `, ${res.deleted_files} files no remaining call refers to` : '';
      process.stdout.write(`deleted ${res.deleted_calls} calls and ${res.deleted_feedback} feedback${files} started before ${res.before} (${res.batches} batches)\n`);
    });
}
