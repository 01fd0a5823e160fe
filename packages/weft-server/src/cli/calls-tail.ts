/**
 * `weft calls tail`: prints calls as they arrive (and running calls again when they end), polling
 * stream_query, until Ctrl-C.
 * @module
 */
import { Command } from 'commander';
import type { Client } from 'weft-trace/client';
import type { CallRecord } from 'weft-trace/wire';
import { queryFor, withFilters, type FilterOptions } from './call-filters.js';
import { clientFor, connectionOf, requireProject, withConnection } from './connection.js';
import { callRow, colorsFor, type Colors } from './output.js';
import { parsePositiveInt } from './time-options.js';

interface TailOptions extends FilterOptions {
  baseUrl: string;
  apiKey?: string;
  project?: string;
  interval: number;
  json: boolean;
}

/**
 * How far back each poll looks (ms) before the newest start seen: a call whose start reaches the server
 * later than this after its `started_at` (a client batching for longer) is not shown.
 */
export const TAIL_LOOKBACK_MS = 60_000;

/** Running calls re-read per poll, at most (ids are sent in one filter). */
const MAX_WATCHED = 1000;

/** What the tail has seen: ids by started_at (pruned past the look-back) and the calls still running. */
class TailState {
  readonly seen = new Map<string, number>();
  readonly running = new Set<string>();
  constructor(public since: string) {}

  /** True the first time a call is seen. */
  add(call: CallRecord): boolean {
    if (this.seen.has(call.id)) return false;
    this.seen.set(call.id, Date.parse(call.started_at));
    return true;
  }

  /** Moves the window's start to `now - TAIL_LOOKBACK_MS` (never back) and forgets ids before it. */
  advance(now: number = Date.now()): void {
    const floor = Math.max(Date.parse(this.since), now - TAIL_LOOKBACK_MS);
    this.since = new Date(floor).toISOString();
    for (const [id, at] of this.seen) if (at < floor && !this.running.has(id)) this.seen.delete(id);
  }
}

/** One poll: new calls in start order, then calls that were running and have ended. */
async function poll(client: Client, project: string, opts: TailOptions, state: TailState, print: (call: CallRecord, event: 'new' | 'ended') => void): Promise<void> {
  const body = { ...queryFor(project, { ...opts, since: state.since }), sort_by: [{ field: 'started_at', direction: 'asc' as const }], include_costs: true };
  for await (const call of client.calls.streamQuery(body)) {
    if (!state.add(call)) continue;
    print(call, 'new');
    if (!call.ended_at && state.running.size < MAX_WATCHED) state.running.add(call.id);
  }
  if (state.running.size > 0) {
    const ids = [...state.running];
    for await (const call of client.calls.streamQuery({ project_id: project, filter: { call_ids: ids }, include_costs: true })) {
      if (!call.ended_at) continue;
      state.running.delete(call.id);
      print(call, 'ended');
    }
  }
  state.advance();
}

/** A printed line: `+` for a new call, `=` for a running call that ended, then the call's row. */
function line(call: CallRecord, event: 'new' | 'ended', c: Colors, json: boolean): string {
  if (json) return JSON.stringify({ event, call });
  return [event === 'new' ? c.green('+') : c.cyan('='), ...callRow(call, c)].join('  ');
}

/** The `calls tail` command. */
export function tailCommand(): Command {
  return withFilters(withConnection(new Command('tail')))
    .description('print new calls as they arrive, and running calls again when they end, until Ctrl-C')
    .option('--interval <ms>', 'poll interval in ms', parsePositiveInt, 1000)
    .option('--json', 'print one JSON object per line: {event: "new" | "ended", call}', false)
    .action(async (opts: TailOptions) => {
      const conn = connectionOf(opts);
      const project = requireProject(conn);
      const client = clientFor(conn);
      const c = colorsFor(process.stdout);
      // without --since, the calls of the last look-back window are read once unprinted (only what arrives
      // from now on is shown), and the running ones among them are watched for their end
      const state = new TailState(opts.since ?? new Date(Date.now() - TAIL_LOOKBACK_MS).toISOString());
      let print = opts.since !== undefined;
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      let wake: (() => void) | undefined;
      const stop = (): void => {
        stopped = true;
        clearTimeout(timer);
        wake?.();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      try {
        while (!stopped) {
          await poll(client, project, opts, state, (call, event) => {
            if (print || event === 'ended') process.stdout.write(`${line(call, event, c, opts.json)}\n`);
          });
          // said once the look-back window is read: a call starting from here on is printed
          if (!print) process.stderr.write(c.dim(`tailing ${project} on ${conn.baseUrl} (Ctrl-C to stop)\n`));
          print = true;
          await new Promise<void>((resolve) => {
            wake = resolve;
            timer = setTimeout(resolve, opts.interval);
          });
        }
      } finally {
        await client.close();
      }
    });
}
