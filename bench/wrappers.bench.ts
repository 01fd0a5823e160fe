// Wrapper CPU: process CPU per streamed chat completion of 500 chunks through the real openai SDK, unwrapped vs wrapOpenAI (exporting to the local server); the fake API and the server run in child processes.
import OpenAI from 'openai';
import { forkTs } from './lib/child.js';
import { contextLine } from './lib/context-line.js';
import { startChildServer } from './lib/server.js';
import { num, printTable, QUICK } from './lib/table.js';
import { weft } from './lib/weft.js';

const CHUNKS = 500;
const ROUNDS = QUICK ? 16 : 60;
const WARMUP = 10;

const fakeChild = forkTs(new URL('./wrappers-fake.ts', import.meta.url));
const baseURL = await new Promise<string>((resolve) => fakeChild.once('message', (m) => resolve(String(m))));
const server = await startChildServer();
weft.init({ project: 'bench/wrappers', baseUrl: server.url });

const raw = new OpenAI({ apiKey: 'sk-bench', baseURL, maxRetries: 0, defaultHeaders: { 'x-fake-chunks': String(CHUNKS) } });
const wrapped = weft.wrapOpenAI(raw);
const body = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'count' }], stream: true as const };

/** CPU µs (user + system) of one streamed completion read to the end. */
async function cpuOf(client: OpenAI): Promise<number> {
  const t = process.cpuUsage();
  let n = 0;
  for await (const _ of await client.chat.completions.create(body)) n++;
  if (n < CHUNKS) throw new Error(`expected ${CHUNKS}+ chunks, got ${n}`);
  const d = process.cpuUsage(t);
  return d.user + d.system;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

for (let i = 0; i < WARMUP; i++) {
  await cpuOf(raw);
  await cpuOf(wrapped);
}
const plain: number[] = [];
const traced: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  // alternate (ABBA), so drift in machine load and GC debt hit both alike
  if (i % 2 === 0) {
    plain.push(await cpuOf(raw));
    traced.push(await cpuOf(wrapped));
  } else {
    traced.push(await cpuOf(wrapped));
    plain.push(await cpuOf(raw));
  }
}
const flushStart = process.cpuUsage();
await weft.flush();
const flushCpu = process.cpuUsage(flushStart);
const flushPerCall = (flushCpu.user + flushCpu.system) / (ROUNDS + WARMUP);

const p = median(plain);
// the median of paired differences (each pair ran back to back), which cancels drift in machine load
const added = median(traced.map((t, i) => t - (plain[i] ?? NaN))) + flushPerCall;
const w = p + added - flushPerCall;
printTable(
  `Wrapper CPU per streamed completion of ${CHUNKS} chunks (median of ${ROUNDS} pairs run back to back, alternating ABBA; added = median of the pair differences; fake API and server in child processes) · ${contextLine()}`,
  ['case', 'CPU µs/stream', 'added µs', 'added / unwrapped', 'target'],
  [
    ['openai SDK, unwrapped', num(p), '', '', ''],
    ['wrapOpenAI, export to local server', num(w + flushPerCall), num(added), `${((added / p) * 100).toFixed(1)}%`, added / p < 0.05 ? '< 5% met' : '< 5% NOT met'],
  ],
);
console.log(`(the wrapped row includes the final flush's CPU spread over the ${ROUNDS + WARMUP} wrapped calls: ${num(flushPerCall)} µs each)`);
await weft.shutdown();
await server.close();
fakeChild.disconnect();
