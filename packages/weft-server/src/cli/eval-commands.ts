/**
 * `weft eval ls | show <run> | compare <base> <candidate>`: evaluation runs (weft's evaluate() and the Weave SDKs') read from calls, compared, and gated for CI.
 * @module
 */
import { Command } from 'commander';
import type { Client } from 'weft-trace/client';
import { compareRuns, type RowComparison } from 'weft-trace/eval';
import { listRuns, loadRun } from 'weft-trace/eval';
import type { EvalRow, EvalRun } from 'weft-trace/eval';
import { withConnection } from './connection.js';
import { CliError } from './exit.js';
import { withProjectClient } from './project-client.js';
import { checkGates, fmt, gateParser, type Gate } from './eval-gates.js';
import { type Colors, colorsFor, formatCost, localTime, makeTable } from './output.js';
import { parsePositiveInt } from './time-options.js';

interface EvalOptions {
  baseUrl: string;
  apiKey?: string;
  project?: string;
  json: boolean;
  limit: number;
  failBelow?: Gate[];
  failOnRegression?: Gate[];
}


async function requireRun(client: Client, project: string, id: string): Promise<{ run: EvalRun; rows: EvalRow[] }> {
  const found = await loadRun(client, project, id);
  if (!found) throw new CliError(`no evaluation run ${id} in project ${project} (ids are the root call ids evaluate() returns; weft eval ls lists them)`);
  return found;
}

const scoreText = (scores: Record<string, number>): string => Object.entries(scores).map(([k, v]) => `${k}=${fmt(v)}`).join('  ');
const short = (v: unknown, n = 48): string => {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? '';
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
};

/** Ends the command with exit 1 when a gate failed. */
function enforce(failed: string[]): void {
  if (failed.length) throw new CliError(`evaluation gate failed: ${failed.join('; ')}`);
}

function lsCommand(): Command {
  return withConnection(new Command('ls'))
    .description('list evaluation runs, newest first: name, dataset, time, per-score means, latency, cost')
    .option('-n, --limit <n>', 'how many runs', parsePositiveInt, 20)
    .option('--json', 'print the runs as a JSON array', false)
    .action((opts: EvalOptions) => withProjectClient(opts, async (client, project) => {
      const runs = await listRuns(client, project, opts.limit);
      if (opts.json) return void process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
      if (runs.length === 0) return void process.stdout.write(`no evaluation runs in ${project} (run evaluate() from weft-trace, or a Weave SDK Evaluation)\n`);
      const c = colorsFor(process.stdout);
      const table = makeTable(['started', 'name', 'dataset', 'scores', 'latency', 'cost', 'id'], c, ['left', 'left', 'left', 'left', 'right', 'right', 'left']);
      for (const r of runs) table.push([localTime(r.startedAt), r.name, r.dataset ?? '—', scoreText(r.scores), r.latencyS === null ? '—' : `${fmt(r.latencyS)} s`, formatCost(r.costUsd), r.id]);
      process.stdout.write(`${table.toString()}\n`);
    }));
}

function showCommand(): Command {
  return withConnection(new Command('show'))
    .description('print one run: its scores and every row with output and scores')
    .argument('<run>', 'the run id (evaluate() returns it; weft eval ls lists them)')
    .option('--fail-below <score=value>', 'exit 1 when the score\'s mean is below the value (repeatable)', gateParser(true))
    .option('--json', 'print {run, rows} as JSON', false)
    .action((id: string, opts: EvalOptions) => withProjectClient(opts, async (client, project) => {
      const { run, rows } = await requireRun(client, project, id);
      if (opts.json) process.stdout.write(`${JSON.stringify({ run, rows }, null, 2)}\n`);
      else {
        const c = colorsFor(process.stdout);
        process.stdout.write(`${c.bold(run.name)}  dataset ${run.dataset ?? '—'}  model ${run.model ?? '—'}  ${localTime(run.startedAt)}  ${rows.length} rows  cost ${formatCost(run.costUsd)}\n`);
        const scores = makeTable(['score', 'mean'], c, ['left', 'right']);
        for (const [k, v] of Object.entries(run.scores)) scores.push([k, fmt(v)]);
        process.stdout.write(`${scores.toString()}\n\n`);
        const table = makeTable(['example', 'output', 'scores'], c);
        for (const r of rows) table.push([short(r.example), r.failed ? c.red('failed') : short(r.output), Object.entries(r.scores).map(([k, v]) => `${k}=${typeof v === 'number' ? fmt(v) : v}`).join('  ')]);
        process.stdout.write(`${table.toString()}\n`);
      }
      enforce(checkGates(run.scores, opts.failBelow ?? []));
    }));
}

function rowLine(row: RowComparison, c: Colors): string[] {
  const [base, cand] = row.runs;
  const changed = Object.entries(cand?.scores ?? {}).filter(([k, v]) => base?.scores[k] !== undefined && v !== base.scores[k]).map(([k, v]) => `${k} ${fmt(base!.scores[k])}→${fmt(v)}`);
  return [short(row.example, 40), base?.failed ? 'failed' : short(base?.outputs[0], 30), cand?.failed ? c.red('failed') : short(cand?.outputs[0], 30), changed.join('  ') || (cand?.failed ? 'task failed' : '')];
}

function compareCommand(): Command {
  return withConnection(new Command('compare'))
    .description('compare two runs: per-score deltas and the rows that regressed; gates exit 1 for CI')
    .argument('<base>', 'the base run id')
    .argument('<candidate>', 'the candidate run id')
    .option('--fail-below <score=value>', 'exit 1 when the candidate\'s mean of the score is below the value (repeatable)', gateParser(true))
    .option('--fail-on-regression <score[=delta]>', 'exit 1 when the candidate\'s mean is lower than the base\'s by more than delta (default 0; repeatable)', gateParser(false))
    .option('--json', 'print the comparison as JSON', false)
    .action((baseId: string, candId: string, opts: EvalOptions) => withProjectClient(opts, async (client, project) => {
      const [base, cand] = await Promise.all([requireRun(client, project, baseId), requireRun(client, project, candId)]);
      const cmp = compareRuns([base.run, cand.run], [base.rows, cand.rows]);
      const regressed = cmp.rows.filter((r) => r.change === 'regressed');
      if (opts.json) process.stdout.write(`${JSON.stringify({ base: base.run, candidate: cand.run, scores: cmp.scores, rows: cmp.rows }, null, 2)}\n`);
      else {
        const c = colorsFor(process.stdout);
        process.stdout.write(`${c.bold('base')} ${base.run.name} (${base.run.id})  ${c.bold('candidate')} ${cand.run.name} (${cand.run.id})\n`);
        const table = makeTable(['score', 'base', 'candidate', 'delta'], c, ['left', 'right', 'right', 'right']);
        for (const s of cmp.scores) {
          const d = s.deltas[1];
          const delta = d === null || d === undefined ? '—' : d > 1e-12 ? c.green(`+${fmt(d)}`) : d < -1e-12 ? c.red(fmt(d)) : '0';
          table.push([s.score, fmt(s.means[0]), fmt(s.means[1]), delta]);
        }
        process.stdout.write(`${table.toString()}\n`);
        const improved = cmp.rows.filter((r) => r.change === 'improved').length;
        process.stdout.write(`\n${regressed.length} rows regressed, ${improved} improved, of ${cmp.rows.length}\n`);
        if (regressed.length) {
          const rows = makeTable(['example', 'base output', 'candidate output', 'scores'], c);
          for (const r of regressed) rows.push(rowLine(r, c));
          process.stdout.write(`${rows.toString()}\n`);
        }
      }
      enforce(checkGates(cand.run.scores, opts.failBelow ?? [], cmp.scores, opts.failOnRegression ?? []));
    }));
}

/** The `eval` command group. */
export function evalCommand(): Command {
  return new Command('eval').description('evaluation runs: list, show, compare (with CI gates)').addCommand(lsCommand()).addCommand(showCommand()).addCommand(compareCommand());
}
