// Child of cpu.ts: all-in process CPU per call (N calls + the final flush) for one mode: plain, weft or otel.
import { report } from './lib/child.js';
import { callInBursts, weftBehind } from './lib/drive.js';
import { setupOtel, otelSync } from './lib/otel.js';
import { startChildServer } from './lib/server.js';
import { countCompleteCalls } from './lib/stored.js';
import { QUICK } from './lib/table.js';
import { weft } from './lib/weft.js';
import { addWith, Tally } from './lib/work.js';

/** What the child reports. */
export interface CpuResult {
  mode: string;
  calls: number;
  cpuNsPerCall: number;
  /** Calls the backend received (server rows or exported spans); equals `calls` + warm-up when nothing was lost. */
  received: number;
  expected: number;
}

const mode = process.argv[2] ?? 'plain';
const N = QUICK ? 20_000 : 100_000;
const WARMUP = 5_000;
const tally = new Tally();

/** One mode's workload: the call, how to flush, what the backend received, whether the exporter is behind. */
interface Mode {
  fn: () => unknown;
  flush: () => Promise<unknown>;
  received: () => number;
  close: () => Promise<void>;
  behind?: () => boolean;
}

async function setup(): Promise<Mode> {
  if (mode === 'weft') {
    const server = await startChildServer();
    weft.init({ project: 'bench/cpu', baseUrl: server.url });
    const add = weft.op(addWith(tally), { name: 'add' });
    return {
      fn: () => add(1, 2),
      flush: () => weft.flush(),
      behind: weftBehind,
      received: () => countCompleteCalls(server.dbPath, 'bench/cpu', 'add'),
      close: async () => {
        await weft.shutdown();
        await server.close();
      },
    };
  }
  if (mode === 'otel') {
    const otel = setupOtel();
    const add = otelSync(otel.tracer, 'add', ['a', 'b'], addWith(tally));
    return { fn: () => add(1, 2), flush: otel.flush, received: otel.exported, close: otel.shutdown };
  }
  const add = addWith(tally);
  return { fn: () => add(1, 2), flush: async () => undefined, received: () => tally.n, close: async () => undefined };
}

const s = await setup();
await callInBursts(s.fn, WARMUP);
await s.flush();
const before = process.cpuUsage();
await callInBursts(s.fn, N, 100, s.behind); // waiting for the exporter costs no CPU
await s.flush();
const used = process.cpuUsage(before);
const result: CpuResult = { mode, calls: N, cpuNsPerCall: ((used.user + used.system) * 1000) / N, received: s.received(), expected: tally.n };
await s.close();
report(result);
