/**
 * The call filters shared by `weft calls ls`, `tail` and `export` (`--op`, `--status`, `--since`,
 * `--thread`, `--run`, `--trace-roots`) and the stream_query request they make.
 * @module
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { q } from 'weft-trace/client';
import type { CallsQueryReq } from 'weft-trace/wire';
import { CALL_STATUSES, type CallStatus } from 'weft-trace/wire';
import type { Operation } from 'weft-trace/wire';
import { closestChoice } from './did-you-mean.js';
import { parseInstant } from './time-options.js';

/** Filter options as commander parses them. */
export interface FilterOptions {
  op?: string[];
  status?: CallStatus[];
  since?: string;
  until?: string;
  thread?: string[];
  run?: string[];
  traceRoots?: boolean;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), ...value.split(',').filter(Boolean)];

/**
 * `--status`, repeatable: commander's `choices()` lists the statuses in `--help` and refuses any other
 * value (a usage error, exit 2), here with "Did you mean ...?" naming the nearest status.
 */
function statusOption(): Option {
  const option = new Option('--status <status>', 'only calls with this status (repeatable)').choices(CALL_STATUSES);
  const check = option.parseArg!; // commander's check of the choices
  return option.argParser((value: string, previous: string[] | undefined) => {
    try {
      check(value, undefined);
    } catch (err) {
      const near = closestChoice(value, CALL_STATUSES);
      throw new InvalidArgumentError(`${(err as Error).message}${near ? ` Did you mean ${near}?` : ''}`);
    }
    return [...(previous ?? []), value];
  });
}

/** Adds the filter options to a command. */
export function withFilters(command: Command): Command {
  return command
    .option('--op <name>', 'only calls of this op (repeatable, or comma separated)', collect)
    .addOption(statusOption())
    .option('--since <when>', 'only calls started at or after: 15m, 2h, 7d, or an ISO 8601 time', (v: string) => parseInstant(v))
    .option('--until <when>', 'only calls started before: 15m, 2h, 7d, or an ISO 8601 time', (v: string) => parseInstant(v))
    .option('--thread <id>', 'only calls of this thread (repeatable)', collect)
    .option('--run <id>', 'only calls of this run, svc_run_id (repeatable)', collect)
    .option('--trace-roots', 'only root calls (one per trace)', false);
}

/** The stream_query body for a project and the filter options (no limit, order or columns). */
export function queryFor(project: string, f: FilterOptions): CallsQueryReq {
  const terms: Operation[] = [];
  if (f.since) terms.push(q.gte(q.field('started_at'), f.since));
  if (f.until) terms.push(q.lt(q.field('started_at'), f.until));
  if (f.status && f.status.length > 0) terms.push(q.in(q.field('summary.status'), f.status));
  return {
    project_id: project,
    filter: {
      op_names: f.op && f.op.length > 0 ? f.op : undefined,
      thread_ids: f.thread && f.thread.length > 0 ? f.thread : undefined,
      svc_run_ids: f.run && f.run.length > 0 ? f.run : undefined,
      trace_roots_only: f.traceRoots ? true : undefined,
    },
    query: terms.length === 0 ? undefined : { $expr: terms.length === 1 ? terms[0]! : q.and(...terms) },
  };
}
