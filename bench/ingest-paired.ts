// Server ingest of builds side by side: N writers for a fixed time against each build's server, every build once per round in an order that rotates; calls/s, p99 and the server's CPU per call, each as a ratio to the first build within the round.
// `npx tsx bench/ingest-paired.ts <rev A> [<rev B>=HEAD|worktree] [<rev C> ...]`, or from `npm run bench` with BENCH_BASE set (A = the base build, B = HEAD's).
// BENCH_INGEST_WRITERS (default 8,128), BENCH_INGEST_SECONDS (default 10; 5 quick), BENCH_INGEST_ROUNDS (default 5; 3 quick).
import { buildForBench } from './lib/build.js';
import { contextLine } from './lib/context-line.js';
import { type IngestFigures, measureIngest } from './lib/ingest-load.js';
import { median } from './lib/pg-cluster.js';
import { num, printTable, QUICK } from './lib/table.js';

const revs = process.argv.slice(2);
const WRITERS = (process.env.BENCH_INGEST_WRITERS ?? '8,128').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_INGEST_SECONDS) || (QUICK ? 5 : 10);
const ROUNDS = Number(process.env.BENCH_INGEST_ROUNDS) || (QUICK ? 3 : 5);

interface Build {
  name: string;
  label: string;
  dir: string;
}

async function builds(): Promise<Build[]> {
  if (revs.length > 0) {
    const out: Build[] = [];
    for (const [i, rev] of (revs.length === 1 ? [...revs, 'HEAD'] : revs).entries()) {
      const built = await buildForBench(rev, `ingest-${rev.replace(/\W/g, '_')}`);
      out.push({ name: String.fromCharCode(65 + i), label: built.label, dir: built.dir });
    }
    return out;
  }
  const base = process.env.WEFT_BENCH_BASE_DIST;
  const head = process.env.WEFT_BENCH_DIST;
  if (!base || !head) throw new Error('ingest-paired: pass <rev A> [<rev B> ...], or run under `npm run bench` with BENCH_BASE set');
  return [{ name: 'A', label: `base: ${process.env.WEFT_BENCH_BASE_LABEL ?? base}`, dir: base }, { name: 'B', label: `head: ${process.env.WEFT_BENCH_LABEL ?? head}`, dir: head }];
}

const all = await builds();
/** figures[level][round][build] */
const figures: IngestFigures[][][] = WRITERS.map(() => []);
for (let r = 0; r < ROUNDS; r++) {
  for (const [i, writers] of WRITERS.entries()) {
    const round: IngestFigures[] = [];
    for (let k = 0; k < all.length; k++) {
      const at = (k + r) % all.length;
      round[at] = await measureIngest(all[at]!.dir, { writers, seconds: SECONDS });
    }
    figures[i]!.push(round);
    console.log(`round ${r + 1}, ${writers} writers: ${all.map((b, k) => `${b.name} ${num(round[k]!.callsPerSec)} calls/s p99 ${num(round[k]!.p99Ms)} ms CPU ${num(round[k]!.cpuUsPerCall, 1)} µs/call`).join(' · ')}`);
  }
}

const spread = (xs: number[]): string => `${median(xs).toFixed(2)}x (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})`;
const rows: string[][] = [];
for (const [i, writers] of WRITERS.entries()) {
  const rounds = figures[i]!;
  for (const [k, b] of all.entries()) {
    const of = (f: (x: IngestFigures) => number): number[] => rounds.map((round) => f(round[k]!));
    const ratio = (f: (x: IngestFigures) => number): string => (k === 0 ? '' : spread(rounds.map((round) => f(round[k]!) / f(round[0]!))));
    rows.push([`${writers}`, b.name, num(median(of((x) => x.callsPerSec))), ratio((x) => x.callsPerSec), num(median(of((x) => x.p99Ms))), ratio((x) => x.p99Ms),
      num(median(of((x) => x.cpuUsPerCall)), 1), ratio((x) => x.cpuUsPerCall)]);
  }
}
printTable(
  `Server ingest side by side: ${num(SECONDS)} s per run, 250 calls (start + end) per batch, one connection per writer, fresh SQLite file each run, ${ROUNDS} rounds (order rotating; ratios to A within each round: median, min-max) · ${contextLine()}\n${all.map((b) => `${b.name}: ${b.label}`).join('\n')}`,
  ['writers', 'build', 'calls/s', 'x A', 'p99 ms', 'x A', 'server CPU µs/call', 'x A'],
  rows,
);
