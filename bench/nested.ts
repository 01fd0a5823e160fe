// All-in CPU per exported call on the nested workload of issue 31 (nested-child.ts), next to the untraced workload, the
// floor of serializing and sending weft's items (JSON.stringify + batched POST, no tracer), and OpenTelemetry with a
// BatchSpanProcessor and a discarding exporter in the same rounds. Each round runs every mode once, in a fresh
// process each, in an order that rotates; the figure per mode is the median over rounds, and each ratio is the
// median of the per-round ratios (the machine is shared: a ratio within one round is steadier than ns across rounds).
// Paired mode (`BENCH_BASE=<git ref> npm run bench`, or WEFT_BENCH_BASE_DIST set): the base build runs in the same
// rounds, and the table adds head / base.
import { type LoopResult, LOOP_ROOTS, type NestedResult, ROOTS } from './nested-child.js';
import { runTs } from './lib/child.js';
import { contextLine } from './lib/context-line.js';
import { num, printTable, QUICK, verdict } from './lib/table.js';
import { CODE_UNDER_TEST } from './lib/weft.js';

const ROUNDS = QUICK ? 3 : 5;
const baseDist = process.env.WEFT_BENCH_BASE_DIST;

interface Mode {
  key: string;
  label: string;
  args: string[];
  env?: Record<string, string>;
}
const modes: Mode[] = [
  { key: 'plain', label: 'untraced (the same async functions, no tracer)', args: ['plain'] },
  { key: 'floor', label: "floor: JSON.stringify of weft's items + batched POST to the sink, no tracer", args: ['floor'] },
  { key: 'otel', label: 'OpenTelemetry, BatchSpanProcessor, discarding exporter', args: ['otel'] },
  { key: 'otlp', label: 'OpenTelemetry, BatchSpanProcessor, OTLP/JSON over HTTP to the sink', args: ['otlp'] },
  { key: 'head', label: `weft, export to a 200 sink (${CODE_UNDER_TEST})`, args: ['weft'] },
  ...(baseDist ? [{ key: 'base', label: `weft, export to a 200 sink (base: ${process.env.WEFT_BENCH_BASE_LABEL ?? baseDist})`, args: ['weft'], env: { WEFT_BENCH_DIST: baseDist, WEFT_BENCH_LABEL: process.env.WEFT_BENCH_BASE_LABEL ?? baseDist } }] : []),
];

const rounds: Map<string, NestedResult>[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const round = new Map<string, NestedResult>();
  for (let k = 0; k < modes.length; k++) {
    const mode = modes[(k + r) % modes.length]!;
    round.set(mode.key, await runTs<NestedResult>(new URL('./nested-child.ts', import.meta.url), mode.args, [], mode.env));
  }
  rounds.push(round);
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const ns = (key: string): number[] => rounds.map((r) => r.get(key)!.cpuNsPerCall);
const ratios = (key: string, over: string): number[] => rounds.map((r) => r.get(key)!.cpuNsPerCall / r.get(over)!.cpuNsPerCall);
const fmt = (xs: number[]): string => `${median(xs).toFixed(2)}x (${xs.map((x) => x.toFixed(2)).join(', ')})`;

const rows = modes.map((mode) => {
  const results = rounds.map((r) => r.get(mode.key)!);
  const lost = results.some((x) => x.received !== x.expected);
  const vsOtel = mode.key === 'otel' ? '1.00x' : fmt(ratios(mode.key, 'otel'));
  return [
    mode.label,
    num(median(ns(mode.key)), 0),
    num(Math.min(...ns(mode.key)), 0),
    vsOtel,
    mode.key === 'head' || mode.key === 'base' ? fmt(ratios(mode.key, 'otlp')) : '',
    mode.key === 'head' || mode.key === 'base' || mode.key === 'otlp' ? fmt(ratios(mode.key, 'floor')) : '',
    mode.key === 'head' && baseDist ? fmt(ratios('head', 'base')) : '',
    lost ? `LOST: ${results.map((x) => `${x.received}/${x.expected}`).join(', ')}` : `${num(results[0]!.received)} each`,
    mode.key === 'head' ? verdict(median(ratios('head', 'otel')) <= 1.0, '<= 1.00x OTel') : '',
  ];
});
printTable(
  `All-in CPU per exported call, nested workload (${num(ROOTS)} roots x 3 async ops, a turn every 16 roots, then flush; ${ROUNDS} rounds) · ${contextLine()}`,
  ['case', 'CPU ns/call median', 'best', 'x OTel discard (per-round)', 'x OTel OTLP/HTTP', 'x floor', 'x base (per-round)', 'received', 'target'],
  rows,
);
console.log('(ns: process CPU (user + system) per traced call, the far end in another process; ratios are medians of the ratios within each round.');
console.log(" The discarding exporter serializes nothing and sends nothing; OTLP/JSON over HTTP is what an OTel user's export costs, weft's twin.");
console.log(" The floor row is the least any exporter of weft's wire items pays on top of the untraced row: when it is above the OTel discard row, the 1.00x target sits below it.)");
console.log(`floor / OTel discard: ${fmt(ratios('floor', 'otel'))}; (floor - untraced) / (OTel discard - untraced): ${fmt(rounds.map((r) => (r.get('floor')!.cpuNsPerCall - r.get('plain')!.cpuNsPerCall) / (r.get('otel')!.cpuNsPerCall - r.get('plain')!.cpuNsPerCall)))}`);
if (rounds.some((r) => [...r.values()].some((x) => x.received !== x.expected))) {
  console.log('CHECK FAILED: some calls did not reach the far end');
  process.exitCode = 1;
}

// Issue 31 point 5: the event loop's p99 delay with export running vs the same producer with tracing disabled,
// alternating in the same rounds; the figure is the median of the per-round differences.
const loops: { off: LoopResult; on: LoopResult }[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const child = new URL('./nested-child.ts', import.meta.url);
  const first = await runTs<LoopResult>(child, [r % 2 ? 'loop-weft' : 'loop-off']);
  const second = await runTs<LoopResult>(child, [r % 2 ? 'loop-off' : 'loop-weft']);
  loops.push(r % 2 ? { on: first, off: second } : { off: first, on: second });
}
const diffs = loops.map((l) => l.on.p99Ms - l.off.p99Ms);
const perTurn = loops[0]!.on.callsPerTurn;
printTable(
  `Event-loop delay while exporting, nested workload (${num(LOOP_ROOTS)} roots, ${perTurn} traced calls per turn, pausing while > 20,000 events wait, then flush; ${ROUNDS} rounds alternating) · ${contextLine()}`,
  ['case', 'p99 ms median', 'p99 each round', 'max ms median', 'p99 - tracing off (per-round)', 'received', 'target'],
  [
    ['tracing disabled (init enabled: false)', num(median(loops.map((l) => l.off.p99Ms)), 2), loops.map((l) => num(l.off.p99Ms, 2)).join(', '), num(median(loops.map((l) => l.off.maxMs)), 1), '', '-', ''],
    [
      `weft exporting to a 200 sink (${CODE_UNDER_TEST})`,
      num(median(loops.map((l) => l.on.p99Ms)), 2),
      loops.map((l) => num(l.on.p99Ms, 2)).join(', '),
      num(median(loops.map((l) => l.on.maxMs)), 1),
      `+${num(median(diffs), 2)} ms (${diffs.map((d) => num(d, 2)).join(', ')})`,
      loops.every((l) => l.on.received === l.on.expected) ? `${num(loops[0]!.on.received)} each` : `LOST: ${loops.map((l) => `${l.on.received}/${l.on.expected}`).join(', ')}`,
      verdict(median(diffs) <= 1, '<= +1 ms'),
    ],
  ],
);
if (loops.some((l) => l.on.received !== l.on.expected)) {
  console.log('CHECK FAILED: some calls did not reach the far end');
  process.exitCode = 1;
}
