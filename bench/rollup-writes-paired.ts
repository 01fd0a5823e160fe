// The overview rollups' cost on the write path (issue 40, point 1): the store's batch writes of two builds side by
// side, on SQLite (a fresh file) and PostgreSQL (a fresh database on a throwaway durable cluster), every build once per
// round in an order that rotates, each in a child process: CPU per call of the writing process (and, on PostgreSQL,
// of the cluster's processes), and wall per call, each as a ratio to the first build within the round.
// `npx tsx bench/rollup-writes-paired.ts <rev A> [<rev B>=HEAD]`. BENCH_ROLLUP_BATCHES (default 200 of 250 calls),
// BENCH_ROLLUP_ROUNDS (default 5), BENCH_ROLLUP_MODES (`together,late`: ends in the start's batch, or in the next).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildForBench } from './lib/build.js';
import { contextLine } from './lib/context-line.js';
import { median, startBenchCluster } from './lib/pg-cluster.js';
import { printTable } from './lib/table.js';

const CHILD = fileURLToPath(new URL('./rollup-writes-child.mjs', import.meta.url));
const BATCHES = Number(process.env.BENCH_ROLLUP_BATCHES) || 200;
const ROUNDS = Number(process.env.BENCH_ROLLUP_ROUNDS) || 5;
const MODES = (process.env.BENCH_ROLLUP_MODES ?? 'together,late').split(',');
const STORES = (process.env.BENCH_ROLLUP_STORES ?? 'sqlite,postgres').split(',');
const revs = process.argv.slice(2);
const builds = await Promise.all((revs.length === 1 ? [...revs, 'HEAD'] : revs.length === 0 ? ['main', 'HEAD'] : revs)
  .map(async (rev) => ({ rev, ...(await buildForBench(rev, `rollup-${rev.replace(/\W/g, '_')}`)) })));

interface Figures { cpuUsPerCall: number; wallUsPerCall: number; pgCpuUsPerCall?: number }

const cluster = startBenchCluster();
/** The cluster's postmaster: the `postgres` process started with `-p <its port>`. */
const postmaster = Number(readdirSync('/proc').find((pid) => {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return /postgres$/.test(args[0] ?? '') && args.join(' ').includes(`-p ${new URL(cluster.url).port}`);
  } catch {
    return false;
  }
}) ?? 0);
console.log(contextLine());
const tmp = mkdtempSync(join(tmpdir(), 'weft-rollup-writes-'));
/** figures[store/mode][round][build] */
const figures = new Map<string, Figures[][]>();
try {
  for (let r = 0; r < ROUNDS; r++) {
    for (const store of STORES) {
      for (const mode of MODES) {
        const key = `${store} ${mode}`;
        const round: Figures[] = [];
        for (let k = 0; k < builds.length; k++) {
          const at = (k + r) % builds.length;
          const where = store === 'sqlite' ? join(tmp, `r${r}-${mode}-${at}.db`) : await cluster.freshDatabase();
          const args = [CHILD, `${builds[at]!.dir}server/index.js`, where, mode, String(BATCHES), ...(store === 'postgres' ? [String(postmaster)] : [])];
          round[at] = JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as Figures;
        }
        if (!figures.has(key)) figures.set(key, []);
        figures.get(key)!.push(round);
        console.log(`round ${r + 1} ${key}: ${builds.map((b, i) => `${b.rev} ${round[i]!.cpuUsPerCall.toFixed(1)} µs CPU/call${round[i]!.pgCpuUsPerCall !== undefined ? ` + PostgreSQL ${round[i]!.pgCpuUsPerCall!.toFixed(1)}` : ''}, ${round[i]!.wallUsPerCall.toFixed(1)} µs wall/call`).join(' · ')}`);
      }
    }
  }
} finally {
  cluster.stop();
  rmSync(tmp, { recursive: true, force: true });
}

const spread = (xs: number[]): string => `${median(xs).toFixed(3)}x (${Math.min(...xs).toFixed(3)}-${Math.max(...xs).toFixed(3)})`;
const rows: string[][] = [];
for (const [key, rounds] of figures) {
  for (const [k, b] of builds.entries()) {
    const med = (f: (x: Figures) => number | undefined): string => {
      const xs = rounds.map((round) => f(round[k]!)).filter((x): x is number => x !== undefined);
      return xs.length ? median(xs).toFixed(1) : '';
    };
    const ratio = (f: (x: Figures) => number | undefined): string => {
      if (k === 0) return '';
      const xs = rounds.map((round) => { const a = f(round[k]!); const z = f(round[0]!); return a === undefined || z === undefined ? NaN : a / z; }).filter((x) => !Number.isNaN(x));
      return xs.length ? spread(xs) : '';
    };
    const total = (x: Figures): number => x.cpuUsPerCall + (x.pgCpuUsPerCall ?? 0);
    rows.push([key, b.rev, med((x) => x.cpuUsPerCall), ratio((x) => x.cpuUsPerCall), med((x) => x.pgCpuUsPerCall), ratio((x) => x.pgCpuUsPerCall), med(total), ratio(total), med((x) => x.wallUsPerCall), ratio((x) => x.wallUsPerCall)]);
  }
}
printTable('store batch writes, per call (ratios within each round to the first build)', ['store, ends', 'build', 'node CPU µs/call', 'ratio', 'PostgreSQL CPU µs/call', 'ratio', 'total CPU µs/call', 'ratio', 'wall µs/call', 'ratio'], rows);
