// evaluate() overhead per row: a 1,000-row dataset with a trivial task and two trivial scorers, evaluate() (traced into the local server, every row's calls and scores recorded, the final flush and read-back included) against the task and scorers called directly and against its floor, the same four calls per row traced by plain op()s; with BENCH_BASE, head and base in alternating rounds.
import { runTs } from './lib/child.js';
import { contextLine } from './lib/context-line.js';
import { startChildServer } from './lib/server.js';
import { countCompleteCalls } from './lib/stored.js';
import { type EvalRounds, N, ROUNDS, WARM_UPS } from './lib/eval-rounds.js';
import { num, printTable, QUICK, verdict } from './lib/table.js';
import { CODE_UNDER_TEST } from './lib/weft.js';

/** evaluate()'s CPU per row beyond the floor, as a share of the floor (issue 37). */
const TARGET = 0.2;
/** Child processes per build, in alternating order (head, base, base, head, ...); each runs ROUNDS rounds. */
const CHILDREN = QUICK ? 2 : 3;
const baseDist = process.env.WEFT_BENCH_BASE_DIST;

interface Build {
  key: 'head' | 'base';
  label: string;
  project: string;
  env: Record<string, string>;
}
const builds: Build[] = [
  { key: 'head', label: CODE_UNDER_TEST, project: 'bench/eval', env: {} },
  ...(baseDist ? [{ key: 'base' as const, label: process.env.WEFT_BENCH_BASE_LABEL ?? baseDist, project: 'bench/eval-base', env: { WEFT_BENCH_DIST: baseDist, WEFT_BENCH_LABEL: process.env.WEFT_BENCH_BASE_LABEL ?? baseDist } }] : []),
];

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const spread = (xs: readonly number[], digits = 2): string => `${Math.min(...xs).toFixed(digits)}..${Math.max(...xs).toFixed(digits)}`;
/** Per round: `a - b`, µs/row. */
const minus = (a: readonly number[], b: readonly number[]): number[] => a.map((x, i) => x - b[i]!);
/** Per round: `(a - b) / floor`. */
const over = (a: readonly number[], b: readonly number[], floor: readonly number[]): number[] => a.map((x, i) => (x - b[i]!) / floor[i]!);

const server = await startChildServer();
const results = new Map<Build['key'], EvalRounds>();
try {
  for (let c = 0; c < CHILDREN; c++) {
    for (const build of c % 2 ? [...builds].reverse() : builds) {
      const env = { ...build.env, WEFT_BENCH_EVAL_URL: server.url, WEFT_BENCH_EVAL_PROJECT: build.project };
      const got = await runTs<EvalRounds>(new URL('./eval-child.ts', import.meta.url), [], [], env);
      const all = results.get(build.key);
      if (!all) results.set(build.key, got);
      else for (const k of Object.keys(got) as Array<keyof EvalRounds>) (all[k] as unknown) = k === 'tracedRuns' ? all.tracedRuns + got.tracedRuns : [...(all[k] as number[]), ...(got[k] as number[])];
    }
  }
  for (const build of builds) {
    const r = results.get(build.key)!;
    const stored = countCompleteCalls(server.dbPath, build.project, 'Evaluation.predict_and_score');
    if (stored !== r.tracedRuns * N) {
      console.log(`CHECK FAILED (${build.key}): stored ${stored} Evaluation.predict_and_score calls, expected ${r.tracedRuns * N}`);
      process.exitCode = 1;
    }
  }
} finally {
  await server.close().catch(() => undefined);
}


const head = results.get('head')!;
const rounds = head.evaluate.length;
const beyond = (r: EvalRounds) => over(r.evaluate, r.floor, r.floor);
printTable(
  `evaluate() overhead per row, ${num(N)} rows × 2 scorers, median of ${rounds} alternating rounds (${CHILDREN} processes × ${ROUNDS}, after ${WARM_UPS} warm-ups each; every row checked as stored) · ${contextLine()}`,
  ['measure', 'direct µs/row', 'evaluate() µs/row', 'overhead µs/row'],
  [['process CPU', num(median(head.direct), 2), num(median(head.evaluate), 2), num(median(minus(head.evaluate, head.direct)), 2)]],
);

const ratioRows = builds.map((b) => {
  const r = results.get(b.key)!;
  const x = beyond(r);
  return [`${b.key}: ${b.label}`, num(median(r.floor), 1), num(median(r.evaluate), 1), num(median(minus(r.evaluate, r.floor)), 1), `${median(x).toFixed(2)}x`, spread(x), b.key === 'head' ? verdict(median(x) <= TARGET, `<= ${TARGET}x`) : ''];
});
if (baseDist) {
  const h = beyond(head);
  const b = beyond(results.get('base')!);
  ratioRows.push(['head - base (per round)', '', '', num(median(minus(minus(head.evaluate, head.floor), minus(results.get('base')!.evaluate, results.get('base')!.floor))), 1), `${median(minus(h, b)).toFixed(2)}x`, spread(minus(h, b)), '']);
}
printTable(
  'evaluate() beyond the op() floor (the same 4 calls per row traced by plain op()s and flushed), process CPU µs/row, per-round ratios',
  ['build', 'floor', 'evaluate()', 'beyond', 'x floor (median)', 'spread', 'target'],
  ratioRows,
);
const x = beyond(head);
console.log(`evaluate() beyond the op() floor: ${num(median(minus(head.evaluate, head.floor)), 1)} us/row = ${median(x).toFixed(2)}x floor (median of ${rounds} alternating rounds, spread ${spread(x)}), target <= ${TARGET}x`);

const share = (part: number[]) => `${(median(over(part, new Array(rounds).fill(0), head.floor))).toFixed(2)}x`;
printTable(
  'where it goes, process CPU µs/row (head, same rounds; x floor = median of the per-round ratios)',
  ['part', 'µs/row', 'x floor'],
  [
    ['evaluate() with tracing off (its own machinery: workers, outcomes, summary), minus direct', num(median(head.off) - median(head.direct), 2), share(head.off.map((o) => o - median(head.direct)))],
    ['the floor: the same 4 calls per row traced by op() and exported, minus direct', num(median(minus(head.floor, head.direct)), 2), share(minus(head.floor, head.direct))],
    ['  the 2 feedback items per row evaluate() must write, serialized and POSTed with no tracer (their floor)', num(median(head.feedback), 2), share(head.feedback)],
    ['evaluate() beyond the floor (feedback, larger inputs and outputs, root and summarize calls, read-back)', num(median(minus(head.evaluate, head.floor)), 2), share(minus(head.evaluate, head.floor))],
    ['  not in it: publishing a new dataset and Evaluation object (a first run with these rows), amortized', num(median(head.publish), 2), share(head.publish)],
  ],
);
