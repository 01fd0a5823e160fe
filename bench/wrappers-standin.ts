// The stand-in workload of wrappers.bench.ts alone, for profiling: `node --import tsx --cpu-prof bench/wrappers-standin.ts`
// (WEFT_BENCH_DIST picks a build, else src/ through tsx). CHUNKS per stream (default 500), N rounds (default 400) of a plain
// and a wrapOpenAI stream alternating (MODE=traced: wrapped only); prints the medians in µs of CPU per stream.
import { openAIStandIn } from './lib/openai-stand-in.js';
import { startChildServer } from './lib/server.js';
import { weft } from './lib/weft.js';

const CHUNKS = Number(process.env.CHUNKS ?? 500);
const N = Number(process.env.N ?? 400);
const MODE = process.env.MODE ?? 'both';

const server = await startChildServer();
weft.init({ project: 'bench/wrappers-standin', baseUrl: server.url });
const plain = openAIStandIn(CHUNKS);
const traced = weft.wrapOpenAI(plain);
const body = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'count' }], stream: true as const };
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** CPU µs of one stream read to its end (and the event-loop turn after it, where weft serializes the call). */
async function one(client: typeof plain): Promise<number> {
  const t = process.cpuUsage();
  for await (const _ of await client.chat.completions.create(body)) void _;
  await nextTurn();
  const d = process.cpuUsage(t);
  return d.user + d.system;
}

for (let i = 0; i < 50; i++) {
  await one(plain);
  await one(traced);
}
await weft.flush();
const a: number[] = [];
const b: number[] = [];
const diff: number[] = [];
for (let i = 0; i < N; i++) {
  if (MODE === 'traced') {
    b.push(await one(traced));
    continue;
  }
  // alternate the order (AB, BA) so drift hits both alike
  const x = i % 2 ? await one(plain) : 0;
  const y = await one(traced);
  const x2 = i % 2 ? x : await one(plain);
  a.push(x2);
  b.push(y);
  diff.push(y - x2);
}
const median = (xs: number[]): number => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)] ?? NaN;
const f0 = process.cpuUsage();
await weft.flush();
const f = process.cpuUsage(f0);
console.log(JSON.stringify({ chunks: CHUNKS, plain: median(a), traced: median(b), added: median(diff), flushPerCall: (f.user + f.system) / N }));
await weft.shutdown();
await server.close();
