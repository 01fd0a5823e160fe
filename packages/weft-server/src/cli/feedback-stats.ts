/**
 * `weft feedback stats`: `/feedback/stats` over a window as a table of buckets, then each metric's window
 * figures with a sparkline of its buckets.
 * @module
 */
import { Command, Option } from 'commander';
import sparkly from 'sparkly';
import { Aggregation, type FeedbackStatsReq, type FeedbackStatsRes } from 'weft-trace/wire';
import { clientFor, connectionOf, requireProject, withConnection } from './connection.js';
import { colorEnabled, colors, localTime, makeTable } from './output.js';
import { parseInstant, parsePositiveInt } from './time-options.js';

interface StatsOptions {
  baseUrl: string;
  apiKey?: string;
  project?: string;
  since: string;
  until?: string;
  granularity?: number;
  timezone: string;
  type?: string;
  metric?: string[];
  agg: Aggregation;
  json: boolean;
}

/** The slug the server names a metric's columns with (`json_path` with `.` and spaces as `_`). */
export const slugOf = (path: string): string => path.replace(/[.\s]/g, '_');

/** The stats request the options describe. */
export function statsRequest(project: string, o: StatsOptions): FeedbackStatsReq {
  return {
    project_id: project,
    start: o.since,
    end: o.until ?? null,
    granularity: o.granularity ?? null,
    timezone: o.timezone,
    feedback_type: o.type ?? null,
    metrics: (o.metric ?? []).map((json_path) => ({ json_path, aggregations: [o.agg] })),
  };
}

/** A bucket value for the table: numbers to 3 significant decimals, empty for none. */
function cell(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(3);
  return v === null || v === undefined ? '' : String(v);
}

/** The table and sparkline text of an answer. */
export function renderStats(res: FeedbackStatsRes, o: StatsOptions, color: boolean): string {
  const c = colors(color);
  const metrics = o.metric ?? [];
  const keys = metrics.map((m) => `${o.agg}_${slugOf(m)}`);
  const table = makeTable(['bucket', 'count', ...keys], c, ['left', 'right', ...keys.map(() => 'right' as const)]);
  const buckets = res.buckets ?? [];
  for (const b of buckets) table.push([localTime(b.timestamp), String(b.count), ...keys.map((k) => cell(b[k]))]);
  const lines = [`${res.start} .. ${res.end}, ${res.granularity} s buckets (${res.timezone})`, table.toString()];
  const spark = (values: number[]): string => (values.length > 0 ? sparkly(values, color ? { style: 'fire' } : {}) : '');
  lines.push('', `${c.bold('count')}  ${spark(buckets.map((b) => b.count))}`);
  for (const [i, m] of metrics.entries()) {
    const window = res.window_stats?.[slugOf(m)]?.[o.agg];
    const values = buckets.map((b) => (typeof b[keys[i]!] === 'number' ? (b[keys[i]!] as number) : Number.NaN));
    lines.push(`${c.bold(m)}  ${spark(values)}  ${o.agg} over the window: ${cell(window ?? null) || '—'}`);
  }
  return lines.join('\n');
}

/** The `feedback stats` command. */
export function feedbackStatsCommand(): Command {
  return withConnection(new Command('stats'))
    .description('feedback statistics of a window: counts and a metric per time bucket, with sparklines')
    .addOption(new Option('--since <when>', 'window start: 15m, 2h, 7d, or an ISO 8601 time').argParser((v: string) => parseInstant(v)).default(parseInstant('24h'), '24h'))
    .option('--until <when>', 'window end (default: now)', (v: string) => parseInstant(v))
    .option('--granularity <seconds>', 'bucket size in seconds (default: the server picks)', parsePositiveInt)
    .option('--timezone <zone>', 'IANA time zone buckets align to', Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC')
    .option('--type <feedback_type>', 'only feedback of this type')
    .option('--metric <json_path>', 'payload path to aggregate, e.g. score (repeatable)', (v: string, prev: string[] | undefined) => [...(prev ?? []), v])
    .addOption(new Option('--agg <aggregation>', 'aggregation of each metric').choices(Aggregation.options).default('avg'))
    .option('--json', 'print the server\'s answer as JSON', false)
    .action(async (opts: StatsOptions) => {
      const conn = connectionOf(opts);
      const client = clientFor(conn);
      try {
        const res = await client.feedback.stats(statsRequest(requireProject(conn), opts));
        process.stdout.write(opts.json ? `${JSON.stringify(res, null, 2)}\n` : `${renderStats(res, opts, colorEnabled(process.stdout))}\n`);
      } finally {
        await client.close();
      }
    });
}
