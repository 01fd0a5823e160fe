// `npm run bench`: builds weft with tsup, then runs every benchmark section and every bench/*.bench.ts script, each in its own process.
import { readdirSync } from 'node:fs';
import { buildForBench } from './lib/build.js';
import { forkTs } from './lib/child.js';

/** Sections in print order; the first prints the main table. Select some with BENCH_ONLY=inline,cpu,... */
const SECTIONS = ['inline', 'cpu', 'nested', 'e2e', 'server-ingest', 'server-fairness', 'server-query', 'feedback-stats', 'hostile-figures', 'eval'];

function runScript(file: string): Promise<number> {
  const child = forkTs(new URL(file, import.meta.url));
  return new Promise((resolve) => {
    child.once('error', () => resolve(1));
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

const t0 = performance.now();
// `npm run bench -- --guard <base>`: only the guard (guard.ts), HEAD against that base; exits 1 when HEAD is worse.
const guardAt = process.argv.indexOf('--guard');
if (guardAt !== -1) {
  const baseRev = process.argv[guardAt + 1];
  if (!baseRev) {
    console.error('bench: --guard needs a base revision, e.g. npm run bench -- --guard main~3');
    process.exit(2);
  }
  const { guard } = await import('./guard.js');
  process.exit(await guard(baseRev));
}
const built = await buildForBench(process.env.BENCH_SOURCE ?? 'HEAD');
process.env.WEFT_BENCH_DIST = built.dir;
process.env.WEFT_BENCH_LABEL = built.label;
// Paired mode: BENCH_BASE=<git ref> builds that revision too; the sections that compare revisions (nested.ts) run
// both builds in alternating rounds, so a change is judged against its base in the same run.
if (process.env.BENCH_BASE) {
  const base = await buildForBench(process.env.BENCH_BASE, 'dist-base');
  process.env.WEFT_BENCH_BASE_DIST = base.dir;
  process.env.WEFT_BENCH_BASE_LABEL = base.label;
}

const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const standalone = readdirSync(new URL('.', import.meta.url)).filter((f) => f.endsWith('.bench.ts')).sort();
const scripts = [...SECTIONS.map((s) => `${s}.ts`), ...standalone].filter((f) => !only || only.includes(f.replace(/(\.bench)?\.ts$/, '')));

const failed: string[] = [];
for (const script of scripts) {
  if ((await runScript(`./${script}`)) !== 0) failed.push(script);
}
console.log(`\nbench: ${scripts.length} scripts in ${((performance.now() - t0) / 1000).toFixed(0)} s (${built.label})`);
if (failed.length > 0) {
  console.log(`FAILED: ${failed.join(', ')}`);
  process.exitCode = 1;
}
