// Wrapper CPU: process CPU per streamed chat completion of 500 chunks through the real openai SDK: unwrapped, unwrapped asking for usage (as wrapOpenAI does), and wrapOpenAI exporting to the local server; the fake API and the server run in child processes.
import OpenAI from 'openai';
import { forkTs } from './lib/child.js';
import { contextLine } from './lib/context-line.js';
import { startChildServer } from './lib/server.js';
import { num, printTable, QUICK, verdict } from './lib/table.js';
import { weft } from './lib/weft.js';

const CHUNKS = 500;
const ROUNDS = QUICK ? 20 : 150;
const WARMUP = 10;

const fakeChild = forkTs(new URL('./wrappers-fake.ts', import.meta.url));
const baseURL = await new Promise<string>((resolve) => fakeChild.once('message', (m) => resolve(String(m))));
const server = await startChildServer();
weft.init({ project: 'bench/wrappers', baseUrl: server.url });

const raw = new OpenAI({ apiKey: 'sk-bench', baseURL, maxRetries: 0, defaultHeaders: { 'x-fake-chunks': String(CHUNKS) } });
const wrapped = weft.wrapOpenAI(raw);
const body = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'count' }], stream: true as const };
/** What wrapOpenAI sends for `body`: usage asked for, so the API adds `"usage":null` to every chunk and a usage chunk. */
const bodyWithUsage = { ...body, stream_options: { include_usage: true } };

/** CPU µs (user + system) of one streamed completion read to the end. */
async function cpuOf(create: () => Promise<AsyncIterable<unknown>>): Promise<number> {
  const t = process.cpuUsage();
  let n = 0;
  for await (const _ of await create()) n++;
  if (n < CHUNKS) throw new Error(`expected ${CHUNKS}+ chunks, got ${n}`);
  const d = process.cpuUsage(t);
  return d.user + d.system;
}

const CASES = {
  plain: () => raw.chat.completions.create(body),
  usage: () => raw.chat.completions.create(bodyWithUsage),
  traced: () => wrapped.chat.completions.create(body),
};
type Case = keyof typeof CASES;
const ORDER: Case[] = ['plain', 'usage', 'traced'];

const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
const quantile = (xs: number[], q: number): number => sorted(xs)[Math.floor((xs.length - 1) * q)] ?? NaN;

for (let i = 0; i < WARMUP; i++) for (const c of ORDER) await cpuOf(CASES[c]);
const cpu: Record<Case, number[]> = { plain: [], usage: [], traced: [] };
for (let i = 0; i < ROUNDS; i++) {
  // each round runs the three cases back to back, in turn forwards and backwards (ABC CBA), so drift in machine load and GC debt hit all alike
  for (const c of i % 2 === 0 ? ORDER : [...ORDER].reverse()) cpu[c].push(await cpuOf(CASES[c]));
}
const flushStart = process.cpuUsage();
await weft.flush();
const flushCpu = process.cpuUsage(flushStart);
const flushPerCall = (flushCpu.user + flushCpu.system) / (ROUNDS + WARMUP);

const p = quantile(cpu.plain, 0.5);
/** The paired differences to the unwrapped call of the same round (each pair ran back to back), which cancel drift in machine load. */
const diffs = (c: Case): number[] => cpu[c].map((t, i) => t - (cpu.plain[i] ?? NaN));
const row = (label: string, c: Case, extra: number): string[] => {
  const d = diffs(c);
  const added = quantile(d, 0.5) + extra;
  const spread = `${((quantile(d, 0.25) + extra) / p * 100).toFixed(1)}% .. ${((quantile(d, 0.75) + extra) / p * 100).toFixed(1)}%`;
  return [label, num(p + added), num(added), `${((added / p) * 100).toFixed(1)}%`, spread, c === 'traced' ? verdict(added / p < 0.05, '< 5%') : ''];
};
printTable(
  `Wrapper CPU per streamed completion of ${CHUNKS} chunks (${ROUNDS} rounds of the three cases back to back, alternating ABC/CBA; added = median of the differences to the same round's unwrapped call, spread = their interquartile range; fake API and server in child processes) · ${contextLine()}`,
  ['case', 'CPU µs/stream', 'added µs', 'added / unwrapped', 'spread (IQR)', 'target'],
  [
    ['openai SDK, unwrapped', num(p), '', '', '', ''],
    row('openai SDK, unwrapped, asking for usage itself (what wrapOpenAI sends)', 'usage', 0),
    row('wrapOpenAI, export to local server', 'traced', flushPerCall),
  ],
);
console.log(`(the wrapOpenAI row includes the final flush's CPU spread over the ${ROUNDS + WARMUP} wrapped calls: ${num(flushPerCall)} µs each)`);
await weft.shutdown();
await server.close();
fakeChild.disconnect();
