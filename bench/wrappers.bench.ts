// Wrapper CPU: process CPU per streamed chat completion of 500 chunks through the real openai SDK: unwrapped, unwrapped asking for usage (as wrapOpenAI does), the floor of any wrapper (usage asked for, each chunk observed, no weft code), and wrapOpenAI exporting to the local server; the fake API and the server run in child processes.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import OpenAI from 'openai';
import { forkTs } from './lib/child.js';
import { openAIStandIn } from './lib/openai-stand-in.js';
import { contextLine } from './lib/context-line.js';
import { startChildServer } from './lib/server.js';
import { num, printTable, QUICK, verdict } from './lib/table.js';
import { weft } from './lib/weft.js';

const CHUNKS = 500;
const ROUNDS = QUICK ? 20 : 300;
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

/**
 * One turn of the event loop, inside each timed window: weft serializes a call's events on the turn after it
 * ends (`setImmediate`), which must count in the window of the call that caused it, not the next case's.
 */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

setFlagsFromString('--expose-gc');
const gcHook = runInNewContext('gc') as (options: { type: 'minor' }) => void;
/**
 * A young-generation collection before each sample, outside its window: each case then starts from an empty
 * young generation and pays for its own garbage, not the debt of the case before it. (A full collection
 * instead slowed every case by 1.6x and the wrapped ones more: it flushes compiled code and feedback.)
 */
const gc = (): void => gcHook({ type: 'minor' });

/** CPU µs (user + system) of one streamed completion read to the end (and the event-loop turn after it). */
async function cpuOf(create: () => Promise<AsyncIterable<unknown>>): Promise<number> {
  gc();
  const t = process.cpuUsage();
  let n = 0;
  for await (const _ of await create()) n++;
  if (n < CHUNKS) throw new Error(`expected ${CHUNKS}+ chunks, got ${n}`);
  await nextTurn();
  const d = process.cpuUsage(t);
  return d.user + d.system;
}

/**
 * weft's own part, with less noise: the same 500 chunks (with the usage weft asks for) from an in-process
 * stand-in of the SDK's stream (an async generator of `JSON.parse`d lines, no sockets, no SSE decoding),
 * read plain and through `wrapOpenAI` (it wraps any object with `chat.completions.create`). 5 streams per sample.
 */
const inProcess = openAIStandIn(CHUNKS);
const inProcessTraced = weft.wrapOpenAI(inProcess);
const STAND_IN_STREAMS = 5;
async function cpuOfStandIn(client: typeof inProcess): Promise<number> {
  gc();
  const t = process.cpuUsage();
  for (let k = 0; k < STAND_IN_STREAMS; k++) for await (const _ of await client.chat.completions.create(body)) void _;
  await nextTurn();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / STAND_IN_STREAMS;
}

/**
 * The floor any wrapper meeting issue 17 pays, with no weft code: the SDK asked for usage, each chunk observed by
 * one `then` on the SDK iterator's promise (what reading a chunk's value takes; with `AsyncLocalStorage`'s promise
 * hooks on, each such promise pays them), the `usage: null` the API then adds hidden (`delete`) and the usage chunk
 * skipped, so the caller reads what the unwrapped SDK yields. Nothing is recorded.
 */
class FloorObserver implements AsyncIterableIterator<unknown> {
  constructor(private readonly it: AsyncIterator<unknown>) {}
  [Symbol.asyncIterator](): this {
    return this;
  }
  next(): Promise<IteratorResult<unknown>> {
    return this.it.next().then(this.onNext);
  }
  private readonly onNext = (r: IteratorResult<unknown>): IteratorResult<unknown> | Promise<IteratorResult<unknown>> => {
    if (r.done) return r;
    const c = r.value as { usage?: unknown; choices?: unknown[] };
    if (c.usage === null) delete c.usage;
    else if (c.usage !== undefined && c.choices?.length === 0) return this.next();
    return r;
  };
}
const floorCreate = async (): Promise<AsyncIterable<unknown>> =>
  new FloorObserver((await raw.chat.completions.create(bodyWithUsage))[Symbol.asyncIterator]());

const CASES = {
  plainBare: () => raw.chat.completions.create(body),
  usageBare: () => raw.chat.completions.create(bodyWithUsage),
  plain: () => raw.chat.completions.create(body),
  usage: () => raw.chat.completions.create(bodyWithUsage),
  traced: () => wrapped.chat.completions.create(body),
  floor: floorCreate,
  standIn: () => cpuOfStandIn(inProcess),
  standInTraced: () => cpuOfStandIn(inProcessTraced),
};
type Case = keyof typeof CASES;
/**
 * First the unwrapped SDK before weft has traced anything: on Node 20 `AsyncLocalStorage` turns on promise hooks
 * for the whole process at its first `run()` (weft's first call) and they stay on, so from then on the unwrapped
 * SDK pays a hook per promise too. Then the SDK cases, then the stand-in pair (its allocation-heavy samples
 * would leave GC debt to whichever SDK case came next).
 */
const PHASES: Case[][] = [
  ['plainBare', 'usageBare'],
  ['plain', 'usage', 'floor', 'traced'],
  ['standIn', 'standInTraced'],
];
const run = (c: Case): Promise<number> => (c === 'standIn' || c === 'standInTraced' ? CASES[c]() : cpuOf(CASES[c]));

const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
const quantile = (xs: number[], q: number): number => sorted(xs)[Math.floor((xs.length - 1) * q)] ?? NaN;

const cpu = Object.fromEntries(Object.keys(CASES).map((c) => [c, []])) as unknown as Record<Case, number[]>;
for (const cases of PHASES) {
  for (let i = 0; i < WARMUP; i++) for (const c of cases) await run(c);
  for (let i = 0; i < ROUNDS; i++) {
    // each round runs the cases back to back, in turn forwards and backwards (ABC CBA), so drift in machine load and GC debt hit all alike
    for (const c of i % 2 === 0 ? cases : [...cases].reverse()) cpu[c].push(await run(c));
  }
}
const flushStart = process.cpuUsage();
await weft.flush();
const flushCpu = process.cpuUsage(flushStart);
const flushPerCall = (flushCpu.user + flushCpu.system) / ((ROUNDS + WARMUP) * (1 + STAND_IN_STREAMS));

const p = quantile(cpu.plain, 0.5);
/** The paired differences to the unwrapped call of the same round (each pair ran back to back), which cancel drift in machine load. */
const diffs = (c: Case, base: Case): number[] => cpu[c].map((t, i) => t - (cpu[base][i] ?? NaN));
const row = (label: string, c: Case, extra: number, base: Case = 'plain'): string[] => {
  const d = diffs(c, base);
  const added = quantile(d, 0.5) + extra;
  const spread = `${((quantile(d, 0.25) + extra) / p * 100).toFixed(1)}% .. ${((quantile(d, 0.75) + extra) / p * 100).toFixed(1)}%`;
  return [label, num((base === 'plain' ? p : quantile(cpu[base], 0.5)) + added), num(added), `${((added / p) * 100).toFixed(1)}%`, spread, c === 'traced' && base === 'plain' ? verdict(added / p < 0.05, '< 5%') : ''];
};
printTable(
  `Wrapper CPU per streamed completion of ${CHUNKS} chunks (${ROUNDS} rounds of the SDK cases back to back, alternating ABCD/DCBA, then ${ROUNDS} of the stand-in pair; added = median of the differences to the same round's unwrapped call, spread = their interquartile range; fake API and server in child processes) · ${contextLine()}`,
  ['case', 'CPU µs/stream', 'added µs', 'added / unwrapped', 'spread (IQR)', 'target'],
  [
    ['openai SDK, unwrapped', num(p), '', '', '', ''],
    row('openai SDK, unwrapped, asking for usage itself (what wrapOpenAI sends)', 'usage', 0),
    row('floor of any wrapper, no weft code: the SDK asking for usage, one `then` per chunk observing it, `usage: null` hidden', 'floor', 0),
    row('wrapOpenAI, export to local server', 'traced', flushPerCall),
    row('... weft\'s part through the SDK: wrapOpenAI minus the SDK asking for usage itself (same rounds)', 'traced', flushPerCall, 'usage'),
    row(`weft's part alone: wrapOpenAI over an in-process stand-in of the stream (same chunks; added to the stand-in's ${num(quantile(cpu.standIn, 0.5))} µs)`, 'standInTraced', flushPerCall, 'standIn'),
  ],
);
const bare = quantile(cpu.plainBare, 0.5);
const pctOfBare = (x: number): string => `${((x / bare) * 100).toFixed(1)}%`;
printTable(
  `The same against the unwrapped SDK before weft traced anything (no AsyncLocalStorage promise hooks yet; ${ROUNDS} rounds of the bare pair before all others, so these are differences of medians of different rounds, not paired)`,
  ['case', 'CPU µs/stream (median)', 'added µs', 'added / unwrapped before weft', 'target'],
  [
    ['openai SDK, unwrapped, before weft traced anything', num(bare), '', '', ''],
    ['... asking for usage itself', num(quantile(cpu.usageBare, 0.5)), num(quantile(cpu.usageBare, 0.5) - bare), pctOfBare(quantile(cpu.usageBare, 0.5) - bare), ''],
    ['openai SDK, unwrapped, once weft has traced a call (promise hooks on)', num(p), num(p - bare), pctOfBare(p - bare), ''],
    ['wrapOpenAI, export to local server', num(quantile(cpu.traced, 0.5) + flushPerCall), num(quantile(cpu.traced, 0.5) + flushPerCall - bare), pctOfBare(quantile(cpu.traced, 0.5) + flushPerCall - bare), verdict((quantile(cpu.traced, 0.5) + flushPerCall - bare) / bare < 0.05, '< 5%')],
  ],
);
console.log(`(the wrapOpenAI rows include the final flush's CPU spread over all wrapped calls: ${num(flushPerCall)} µs each; the last row's percentages are of the same run's unwrapped SDK call)`);
await weft.shutdown();
await server.close();
fakeChild.disconnect();
