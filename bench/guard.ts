// `npm run bench -- --guard <base>`: HEAD against a base commit, each installed as users install it, alternating in the same rounds; prints HEAD/base per figure and exits 1 when HEAD is dearer by more than 10% or lost a call.
// Figures (each from a fresh process per build per round, the builds' order swapped every round):
// - inline and burst, ESM and CommonJS: weft-trace packed with `npm pack` from the revision's own build and installed
//   into an app (lib/packed.ts), loaded there by plain `node` as `import('weft-trace')` and as `require('weft-trace')`,
//   `init()`'s defaults, exporting to a loopback sink (burst-child.mjs): the p50 ns of one traced sync call
//   `op((x) => x)` with a flush between samples (inline: the queue stays small), then BENCH_BURST_CALLS (200,000)
//   calls one after another with no turn of the event loop (burst: p50 and mean per call, calls exported / made, and
//   the process CPU per exported call until its flush resolved); the OTel span twin (BatchSpanProcessor, OTLP/HTTP
//   exporter, the SDK's defaults) in its own process each round, for the weft / OTel lines;
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
import { BURST_CALLS as BURST, runBurst, type BurstResult } from './lib/burst.js';
import { packedApp, type PackedApp } from './lib/packed.js';

/** A median cost ratio above this fails the guard. */
const LIMIT = 1.1;
const ROUNDS = Number(process.env.GUARD_ROUNDS) || (QUICK ? 3 : 5);
/** Seconds of each ingest run. */
const INGEST_S = Number(process.env.GUARD_INGEST_S) || (QUICK ? 3 : 5);
const WRITERS = [8, 128] as const;

const ENTRIES = ['esm', 'cjs'] as const;
type Entry = (typeof ENTRIES)[number];

interface Figures {
  burst: Record<Entry, BurstResult>;
  allInNs: number;
  /** calls/s per writer count */
  ingest: Record<number, number>;
  lost: string[];
}

async function measure(build: BenchBuild, app: PackedApp): Promise<Figures> {
  const env = { WEFT_BENCH_DIST: build.dir, WEFT_BENCH_LABEL: build.label };
  const lost: string[] = [];
  const burst = {} as Record<Entry, BurstResult>;
  for (const entry of ENTRIES) {
    const b = (burst[entry] = await runBurst(app.dir, entry));
    if (b.received !== b.made) lost.push(`${entry} inline and burst: ${b.received}/${b.made} received`);
  }
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
  return { burst, allInNs: nested.cpuNsPerCall, ingest, lost };
}

/** Calls of a burst the far end received: every call received, less those made before the burst (flushed, so all received when nothing was lost). */
export function burstExported(b: BurstResult): number {
  return b.received - (b.made - b.burstCalls);
}

/** Process CPU per call of the burst that reached the far end, ns (OpenTelemetry drops what its queue cannot hold). */
function cpuPerExported(b: BurstResult): number {
  return (b.burstCpuNsPerCall * b.burstCalls) / Math.max(1, burstExported(b));
}

/** Builds and packs both revisions and runs the rounds; resolves with the exit code (0: no figure worse than the limit). */
export async function guard(baseRev: string, headRev = process.env.BENCH_SOURCE ?? 'HEAD'): Promise<number> {
  const head = await buildForBench(headRev, 'dist');
  const base = await buildForBench(baseRev, 'dist-base');
  const apps = { head: packedApp(headRev), base: packedApp(baseRev) };
  console.log(`guard: ${head.label}, ${apps.head.label} (HEAD) against ${base.label}, ${apps.base.label} (base), ${ROUNDS} rounds alternating`);
  const rounds: { head: Figures; base: Figures; otel: BurstResult; otelAll: BurstResult }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const baseFirst = r % 2 === 0;
    const a = baseFirst ? await measure(base, apps.base) : await measure(head, apps.head);
    const b = baseFirst ? await measure(head, apps.head) : await measure(base, apps.base);
    const otel = await runBurst(apps.head.dir, 'esm', 'otel');
    const otelAll = await runBurst(apps.head.dir, 'esm', 'otel', 2 * BURST); // a queue that holds the whole burst: every span exported
    rounds.push(baseFirst ? { base: a, head: b, otel, otelAll } : { head: a, base: b, otel, otelAll });
    process.stdout.write(`round ${r + 1}/${ROUNDS} done\n`);
  }

  const fmt = (xs: number[]): string => `${median(xs).toFixed(2)}x (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})`;
  type Row = { label: string; unit: string; head: number[]; base: number[]; cost: number[] };
  const nsRow = (label: string, of: (f: Figures) => number): Row => {
    const h = rounds.map((r) => of(r.head));
    const b = rounds.map((r) => of(r.base));
    return { label, unit: 'ns', head: h, base: b, cost: h.map((x, i) => x / b[i]!) };
  };
  const rows: Row[] = [
    ...ENTRIES.flatMap((e) => [
      nsRow(`${e}: sync call p50, inline (flushed between samples)`, (f) => f.burst[e].inlineP50Ns),
      nsRow(`${e}: sync call p50, burst of ${num(BURST)}`, (f) => f.burst[e].burstP50Ns),
      nsRow(`${e}: sync call mean, burst of ${num(BURST)}`, (f) => f.burst[e].burstMeanNs),
      nsRow(`${e}: all-in CPU per exported call, burst`, (f) => cpuPerExported(f.burst[e])),
    ]),
    nsRow('all-in CPU per exported call, nested', (f) => f.allInNs),
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
  const share = (b: BurstResult): string => `${num(burstExported(b))} / ${num(b.burstCalls)}`;
  for (const e of ENTRIES) console.log(`${e} burst, calls exported / made (last round): HEAD ${share(rounds.at(-1)!.head.burst[e])}, base ${share(rounds.at(-1)!.base.burst[e])}`);
  for (const [label, key] of [['defaults (maxQueueSize 2,048)', 'otel'], [`maxQueueSize ${num(2 * BURST)}, every span exported`, 'otelAll']] as const) {
    const otel = (of: (o: BurstResult) => number): string => num(median(rounds.map((r) => of(r[key]))));
    console.log(
      `OpenTelemetry twin, BatchSpanProcessor + OTLP/HTTP exporter, ${label} (median of rounds): inline p50 ${otel((o) => o.inlineP50Ns)} ns, burst p50 ${otel((o) => o.burstP50Ns)} ns, ` +
        `burst mean ${otel((o) => o.burstMeanNs)} ns, CPU per exported span ${otel(cpuPerExported)} ns, spans exported / made in the burst (last round) ${share(rounds.at(-1)![key])}`,
    );
  }
  const vsOtel = (k: 'head' | 'base', e: Entry, of: (b: BurstResult) => number, key: 'otel' | 'otelAll' = 'otel'): string => fmt(rounds.map((r) => of(r[k].burst[e]) / of(r[key])));
  for (const e of ENTRIES) {
    console.log(`${e}: inline p50 / the OTel span: HEAD ${vsOtel('head', e, (b) => b.inlineP50Ns)}, base ${vsOtel('base', e, (b) => b.inlineP50Ns)} (issue 37's target: <= 0.45x)`);
    console.log(
      `${e}: burst CPU per exported call / OTel's per exported span: HEAD ${vsOtel('head', e, cpuPerExported, 'otelAll')}, base ${vsOtel('base', e, cpuPerExported, 'otelAll')} against OTel exporting every span (issue 47's target: <= 1.00x); ` +
        `HEAD ${vsOtel('head', e, cpuPerExported)} against OTel's defaults, which drop most of the burst`,
    );
  }
  console.log(`CommonJS / ESM, HEAD: inline ${fmt(rounds.map((r) => r.head.burst.cjs.inlineP50Ns / r.head.burst.esm.inlineP50Ns))}, burst mean ${fmt(rounds.map((r) => r.head.burst.cjs.burstMeanNs / r.head.burst.esm.burstMeanNs))} (issue 47's target: <= 1.05x)`);
  console.log('(cost ratio: HEAD / base for ns, base / HEAD for calls/s, so above 1 means HEAD is worse; the median of the per-round ratios)');
  const lost = rounds.flatMap((r, i) => r.head.lost.map((l) => `round ${i + 1} HEAD ${l}`));
  if (lost.length > 0) console.log(`CHECK FAILED: HEAD lost calls\n  ${lost.join('\n  ')}`);
  const baseLost = rounds.flatMap((r, i) => r.base.lost.map((l) => `round ${i + 1} base ${l}`));
  if (baseLost.length > 0) console.log(`(the base lost calls, which does not fail the guard:\n  ${baseLost.join('\n  ')})`);
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
    sync: 'instructions per sync call in a burst, all-in (serialized, batched and sent to the sink)',
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
