// Issue 52 part 4: process CPU per call of the nested workload (a root op awaiting two child ops) into a sink in
// another process, with sampling off, on and sending everything (rate 1), on and leaving everything out by the rate
// (rate 0: dropped at the call's start), and on with a tail rule holding every trace until its end (rate 0,
// keepErrors); rounds rotate the modes, figures are medians of each mode's ratio to "off" within its round.
import { contextLine } from './lib/context-line.js';
import { startSink } from './lib/sink.js';
import { CODE_UNDER_TEST, weft } from './lib/weft.js';

const ROOTS = Number(process.env.BENCH_QUICK ? 1_000 : 3_000);
const ROUNDS = Number(process.env.BENCH_QUICK ? 3 : 5);
const MODES = {
  off: undefined,
  'rate 1': { rate: 1 },
  'rate 0': { rate: 0, keepErrors: false },
  'rate 0 + keepErrors (held)': { rate: 0 },
} as const;
type Mode = keyof typeof MODES;

const child = weft.op(async function child(x: number) {
  return x + 1;
});
const root = weft.op(async function root(x: number) {
  return (await child(x)) + (await child(x + 1));
});

async function cpuPerCall(mode: Mode, url: string): Promise<number> {
  weft.init({ project: 'bench/sampling', baseUrl: url, printViewerLink: false, ...(MODES[mode] ? { sampling: MODES[mode] } : {}) });
  const t0 = process.cpuUsage();
  for (let i = 0; i < ROOTS; i++) {
    await root(i);
    if (i % 16 === 15) await new Promise((r) => setImmediate(r));
  }
  await weft.flush();
  const t = process.cpuUsage(t0);
  return ((t.user + t.system) * 1000) / (ROOTS * 3);
}

const sink = await startSink();
const names = Object.keys(MODES) as Mode[];
const ratios = new Map<Mode, number[]>(names.map((m) => [m, []]));
const ns = new Map<Mode, number[]>(names.map((m) => [m, []]));
for (const m of names) await cpuPerCall(m, sink.url); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  const order = names.map((_, i) => names[(i + r) % names.length]!);
  const got = new Map<Mode, number>();
  for (const m of order) got.set(m, await cpuPerCall(m, sink.url));
  for (const m of names) {
    ns.get(m)!.push(got.get(m)!);
    ratios.get(m)!.push(got.get(m)! / got.get('off')!);
  }
}
await weft.shutdown();
await sink.received();
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
console.log(`\n## sampling: CPU per call, nested workload (${ROOTS} roots x 3 calls), ${ROUNDS} rounds\n${contextLine()}; ${CODE_UNDER_TEST}\n`);
console.log('| mode | ns/call (median) | / off (median of per-round ratios) |\n|---|---|---|');
for (const m of names) console.log(`| ${m} | ${Math.round(median(ns.get(m)!))} | ${median(ratios.get(m)!).toFixed(2)}x |`);
