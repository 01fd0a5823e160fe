/**
 * `weft monitors add | ls | rm <id> | run`: online scoring. A monitor (stored on the server) scores a sampled fraction
 * of one op's production calls after they end, as feedback; `weft serve` runs them (unless `--no-monitors`), or
 * `weft monitors run` does, as a worker against any server (e.g. one on PostgreSQL).
 * @module
 */
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { MonitorLoop } from 'weft-trace/eval';
import { MONITOR_BUILTINS } from 'weft-trace/eval';
import { MONITOR_PATHS, Monitor, MonitorDeleteRes, MonitorListRes } from 'weft-trace/wire';
import { clientFor, connectionOf, withConnection } from './connection.js';
import { CliError } from './exit.js';
import { httpPort } from './monitors-http-port.js';
import { colorsFor, localTime, makeTable } from './output.js';
import { withProjectClient } from './project-client.js';
import { parsePositiveInt } from './time-options.js';

interface MonitorOptions {
  baseUrl: string;
  apiKey?: string;
  project?: string;
  verbose?: boolean;
  json?: boolean;
}

/** `--sample`: a fraction in (0, 1]. */
function parseRate(value: string): number {
  const n = Number(value);
  if (!(n > 0 && n <= 1)) throw new InvalidArgumentError(`expected a fraction above 0 and at most 1 (e.g. 0.1), got ${JSON.stringify(value)}`);
  return n;
}

/** A built-in's name as is; a module's path made absolute (the server or worker loads it from there). */
function scorerSpec(value: string): string {
  return (MONITOR_BUILTINS as readonly string[]).includes(value) || value.startsWith('file:') ? value : path.resolve(value);
}

function addCommand(): Command {
  return withConnection(new Command('add'))
    .description(`add a monitor: score a sampled fraction of an op's ended calls (scorer: ${MONITOR_BUILTINS.join(', ')}, or a .mjs/.js module exporting a scorer)`)
    .requiredOption('--op <name>', 'op_name of the calls to score')
    .requiredOption('--scorer <builtin|module>', 'json_valid, llm_judge, or the path of a module whose default export is a scorer function')
    .option('--sample <fraction>', 'fraction of the calls scored, in (0, 1]', parseRate, 1)
    .option('--model <name>', 'llm_judge: the model asked (through OPENAI_API_KEY / OPENAI_BASE_URL where the monitor runs)')
    .option('--rubric <text>', 'llm_judge: what a good output is')
    .option('--rpm <n>', 'llm_judge: requests per minute, at most', parsePositiveInt, 60)
    .option('--json', 'print the stored monitor as JSON', false)
    .action((opts: MonitorOptions & { op: string; scorer: string; sample: number; model?: string; rubric?: string; rpm: number }) =>
      withProjectClient(opts, async (client, project) => {
        const scorer = scorerSpec(opts.scorer);
        if (scorer === 'llm_judge' && !opts.model) throw new CliError('llm_judge needs --model <name> (e.g. gpt-4.1-mini)', 2);
        const options = scorer === 'llm_judge' ? { model: opts.model, rpm: opts.rpm, ...(opts.rubric ? { rubric: opts.rubric } : {}) } : {};
        const body = { project_id: project, op_name: opts.op, scorer, sample_rate: opts.sample, options };
        const m = await client.transport.post(MONITOR_PATHS.create, body, Monitor);
        process.stdout.write(opts.json ? `${JSON.stringify(m, null, 2)}\n` : `added monitor ${m.id}: ${m.scorer} on ${m.op_name}, sample ${m.sample_rate}\n`);
      }));
}

function lsCommand(): Command {
  return withConnection(new Command('ls'))
    .description("list a project's monitors, oldest first")
    .option('--json', 'print the monitors as a JSON array', false)
    .action((opts: MonitorOptions) => withProjectClient(opts, async (client, project) => {
      const { monitors } = await client.transport.post(MONITOR_PATHS.list, { project_id: project }, MonitorListRes);
      if (opts.json) return void process.stdout.write(`${JSON.stringify(monitors, null, 2)}\n`);
      if (monitors.length === 0) return void process.stdout.write(`no monitors in ${project} (add one with weft monitors add --op <name> --scorer <scorer>)\n`);
      const table = makeTable(['id', 'op', 'scorer', 'sample', 'scored up to', 'created'], colorsFor(process.stdout));
      for (const m of monitors) table.push([m.id, m.op_name, m.scorer, String(m.sample_rate), m.cursor_ended_at ? localTime(m.cursor_ended_at) : '—', localTime(m.created_at)]);
      process.stdout.write(`${table.toString()}\n`);
    }));
}

function rmCommand(): Command {
  return withConnection(new Command('rm'))
    .description('remove a monitor (its feedback stays)')
    .argument('<id>', 'the monitor id (weft monitors ls)')
    .action((id: string, opts: MonitorOptions) => withProjectClient(opts, async (client, project) => {
      const { deleted } = await client.transport.post(MONITOR_PATHS.delete, { project_id: project, id }, MonitorDeleteRes);
      if (!deleted) throw new CliError(`no monitor ${id} in project ${project} (weft monitors ls lists them)`);
      process.stdout.write(`removed monitor ${id}\n`);
    }));
}

function runCommand(): Command {
  return withConnection(new Command('run'))
    .description("run the monitors as a worker against the server (every project's, or --project's); --once: one pass, then exit")
    .option('--once', 'run one pass over the calls ended so far, print what it did, and exit', false)
    .option('--interval <ms>', 'pause between passes, in ms', parsePositiveInt, 5000)
    .option('--settle <ms>', 'read calls that ended at least this long ago, in ms', (v: string) => Number(v), 10_000)
    .action(async (opts: MonitorOptions & { once: boolean; interval: number; settle: number }) => {
      const conn = connectionOf(opts);
      const client = clientFor(conn);
      const loop = new MonitorLoop(httpPort(client, conn.project), { intervalMs: opts.interval, settleMs: opts.settle, log: (l) => console.error(l) });
      if (opts.once) {
        try {
          const done = await loop.runOnce();
          process.stdout.write(`${JSON.stringify(done)}\n`);
        } finally {
          await client.close();
        }
        return;
      }
      loop.start();
      console.error(`weft monitors: running against ${conn.baseUrl} every ${opts.interval} ms (Ctrl-C stops)`);
      const keepAlive = setInterval(() => {}, 1 << 30);
      await new Promise<void>((resolve) => {
        for (const s of ['SIGINT', 'SIGTERM'] as const) process.once(s, () => resolve());
      });
      clearInterval(keepAlive);
      await loop.stop();
      await client.close();
    });
}

/** The `monitors` command and its subcommands. */
export function monitorsCommand(): Command {
  return new Command('monitors')
    .description('online scoring: score sampled production calls of an op after they end, as feedback')
    .addCommand(addCommand())
    .addCommand(lsCommand())
    .addCommand(rmCommand())
    .addCommand(runCommand());
}
