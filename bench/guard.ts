// `npm run bench -- --guard <base>`: HEAD against a base commit, both built as they ship, alternating in the same rounds; prints HEAD/base per figure and exits 1 when HEAD is dearer by more than 10%.
// Figures (each from a fresh process per build per round, the builds' order swapped every round):
// - sync p50: ns of one traced sync call, `op((x) => x)` after init() exporting to a sink (sync-child.ts), and the OTel
//   span twin in the same process, for the "<= 0.45x an OTel span" line;
// - all-in CPU: process CPU per exported call of the nested workload, export and flush included (nested-child.ts);
// - ingest: calls/s of the built server under 8 and 128 concurrent writers (lib/ingest-load.ts).
// A ratio is taken within its round (the machine is shared), and the figure is the median of the rounds' ratios with
// their spread. Every ratio is a cost: HEAD / base for ns, base / HEAD for calls/s, so above 1 is always "HEAD is
// worse". Not a test: CI does not run it (the README's "Working on weft" says when to).
import { buildForBench, type BenchBuild } from './lib/build.js';
import { runTs } from './lib/child.js';
import { availableParallelism, loadavg } from 'node:os';
import { measureIngest } from './lib/ingest-load.js';
import { hasValgrind, instructionsPerCall, type InstructionWorkload } from './lib/instructions.js';
import { median } from './lib/pg-cluster.js';
import { num, printTable, QUICK } from './lib/table.js';
import type { NestedResult } from './nested-child.js';
import type { SyncResult } from './sync-child.js';

/** A median cost ratio above this fails the guard. */
const LIMIT = 1.1;
const ROUNDS = Number(process.env.GUARD_ROUNDS) || (QUICK ? 3 : 5);
/** Seconds of each ingest run. */
const INGEST_S = Number(process.env.GUARD_INGEST_S) || (QUICK ? 3 : 5);
const WRITERS = [8, 128] as const;

interface Figures {
  syncNs: number;
  otelNs: number;
  allInNs: number;
  /** calls/s per writer count */
  ingest: Record<number, number>;
  lost: string[];
}

async function measure(build: BenchBuild): Promise<Figures> {
  const env = { WEFT_BENCH_DIST: build.dir, WEFT_BENCH_LABEL: build.label, BENCH_MIN_MS: process.env.BENCH_MIN_MS ?? '300' };
  const lost: string[] = [];
  const sync = await runTs<SyncResult>(new URL('./sync-child.ts', import.meta.url), [], [], env);
  if (sync.received !== sync.made) lost.push(`sync: ${sync.received}/${sync.made} received`);
  const nested = await runTs<NestedResult>(new URL('./nested-child.ts', import.meta.url), ['weft'], [], env);
  if (nested.received !== nested.expected) lost.push(`all-in: ${nested.received}/${nested.expected} received`);
  const ingest: Record<number, number> = {};
  for (const writers of WRITERS) {
    try {
      ingest[writers] = (await measureIngest(build.dir, { writers, seconds: INGEST_S })).callsPerSec;
    } catch (err) {
      ingest[writers] = Number.NaN;
      lost.push(`ingest x${writers}: ${(err as Error).message}`); // a failed request or an answered call not stored
    }
  }
  return { syncNs: sync.weftNs, otelNs: sync.otelNs, allInNs: nested.cpuNsPerCall, ingest, lost };
}

/** Builds both revisions and runs the rounds; resolves with the exit code (0: no figure worse than the limit). */
export async function guard(baseRev: string, headRev = process.env.BENCH_SOURCE ?? 'HEAD'): Promise<number> {
  const head = await buildForBench(headRev, 'dist');
  const base = await buildForBench(baseRev, 'dist-base');
  console.log(`guard: ${head.label} (HEAD) against ${base.label} (base), ${ROUNDS} rounds alternating`);
  const rounds: { head: Figures; base: Figures }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const first = r % 2 === 0 ? base : head;
    const a = await measure(first);
    const b = await measure(first === base ? head : base);
    rounds.push(first === base ? { base: a, head: b } : { head: a, base: b });
    process.stdout.write(`round ${r + 1}/${ROUNDS} done\n`);
  }

  const fmt = (xs: number[]): string => `${median(xs).toFixed(2)}x (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})`;
  type Row = { label: string; unit: string; head: number[]; base: number[]; cost: number[] };
  const rows: Row[] = [
    { label: 'sync call p50, op((x) => x)', unit: 'ns', head: rounds.map((r) => r.head.syncNs), base: rounds.map((r) => r.base.syncNs), cost: rounds.map((r) => r.head.syncNs / r.base.syncNs) },
    { label: 'all-in CPU per exported call', unit: 'ns', head: rounds.map((r) => r.head.allInNs), base: rounds.map((r) => r.base.allInNs), cost: rounds.map((r) => r.head.allInNs / r.base.allInNs) },
    ...WRITERS.map((w) => ({
      label: `server ingest, ${w} writers`,
      unit: 'calls/s',
      head: rounds.map((r) => r.head.ingest[w]!),
      base: rounds.map((r) => r.base.ingest[w]!),
      cost: rounds.map((r) => r.base.ingest[w]! / r.head.ingest[w]!),
    })),
  ];
  printTable(
    `Guard: HEAD against ${baseRev} (${ROUNDS} rounds, fresh processes, order swapped each round) · ${new Date().toISOString()} · Node ${process.version} · ${availableParallelism()} CPUs · load ${loadavg()[0]!.toFixed(2)}`,
    ['figure', 'HEAD median', 'base median', 'HEAD / base', 'cost ratio median (min-max)', `<= ${LIMIT.toFixed(2)}`],
    rows.map((row) => [
      row.label,
      `${num(median(row.head), 0)} ${row.unit}`,
      `${num(median(row.base), 0)} ${row.unit}`,
      `${(median(row.head) / median(row.base)).toFixed(2)}x`,
      fmt(row.cost),
      median(row.cost) <= LIMIT ? 'ok' : 'WORSE',
    ]),
  );
  const vsOtel = (k: 'head' | 'base'): string => fmt(rounds.map((r) => r[k].syncNs / r[k].otelNs));
  console.log(`sync p50 / the OTel span in the same process: HEAD ${vsOtel('head')}, base ${vsOtel('base')} (issue 37's target: <= 0.45x)`);
  console.log('(cost ratio: HEAD / base for ns, base / HEAD for calls/s, so above 1 means HEAD is worse; the median of the per-round ratios)');
  const lost = rounds.flatMap((r, i) => [...r.head.lost.map((l) => `round ${i + 1} HEAD ${l}`), ...r.base.lost.map((l) => `round ${i + 1} base ${l}`)]);
  if (lost.length > 0) console.log(`CHECK FAILED: calls were lost\n  ${lost.join('\n  ')}`);
  const worse: string[] = rows.filter((row) => median(row.cost) > LIMIT).map((r) => r.label);
  if (process.env.GUARD_INSTRUCTIONS === '1') worse.push(...(await instructionRows(head, base)));
  if (worse.length > 0) console.log(`GUARD FAILED: ${worse.join('; ')} worse than ${LIMIT.toFixed(2)}x the base`);
  return worse.length > 0 || lost.length > 0 ? 1 : 0;
}

/** `GUARD_INSTRUCTIONS=1`: instructions per call of each build under callgrind (one run each: the count is deterministic to ~1%); returns the figures worse than the limit. */
async function instructionRows(head: BenchBuild, base: BenchBuild): Promise<string[]> {
  if (!(await hasValgrind())) {
    console.log('GUARD_INSTRUCTIONS=1: valgrind is not installed (Debian: apt-get install valgrind); no instruction counts');
    return [];
  }
  const labels: Partial<Record<InstructionWorkload, string>> = {
    inline: 'instructions per sync call on the caller\'s stack (events staged)',
    sync: 'instructions per sync call with its serialization and batching (no HTTP)',
    nested: 'instructions per exported call, nested, all-in',
  };
  const rows: string[][] = [];
  const worse: string[] = [];
  let headInline = 0;
  for (const workload of ['inline', 'sync', 'nested'] as const) {
    const h = await instructionsPerCall(head.dir, workload);
    const b = await instructionsPerCall(base.dir, workload);
    if (workload === 'inline') headInline = h;
    rows.push([labels[workload]!, num(h), num(b), `${(h / b).toFixed(3)}x`, h / b <= LIMIT ? 'ok' : 'WORSE']);
    if (h / b > LIMIT) worse.push(labels[workload]!);
  }
  const otel = await instructionsPerCall(head.dir, 'otel');
  rows.push(['the OpenTelemetry span twin of the inline row', num(otel), '', '', '']);
  printTable('Guard: instructions per call (valgrind --tool=callgrind; the load of the machine does not move them)', ['figure', 'HEAD', 'base', 'HEAD / base', `<= ${LIMIT.toFixed(2)}`], rows);
  console.log(`inline weft / OTel span, instructions: ${(headInline / otel).toFixed(2)}x (issue 37's target for the sync p50: <= 0.45x)`);
  return worse;
}
