// Profiles the traced sync path (op() calls plus their export to a local server) with `node --cpu-prof` and prints the top self-time functions.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildForBench } from './lib/build.js';
import { sourceModule } from './lib/bundle-modules.js';
import { forkTs } from './lib/child.js';
import { startChildServer } from './lib/server.js';
import { countCompleteCalls } from './lib/stored.js';
import { num, printTable, QUICK } from './lib/table.js';

const CALLS = QUICK ? 50_000 : 200_000;
const TOP = Number(process.env.BENCH_PROFILE_TOP) || 25;

/** The part of a .cpuprofile this script reads. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The measured stretch of the workload, in µs of the monotonic clock the profile's timestamps use. */
interface Window {
  from: number;
  to: number;
}
const WINDOW_FILE = 'window.json';
const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** Child: warm-up, then N traced sync calls in bursts of 1,000 (pausing while the exporter is behind) and a flush, under --cpu-prof; writes that stretch's window. */
async function workload(dir: string): Promise<void> {
  // Loaded here, not at the top: the parent sets WEFT_BENCH_DIST (the build to load) only after starting.
  const { weft } = await import('./lib/weft.js');
  const { callInBursts, weftBehind } = await import('./lib/drive.js');
  const server = await startChildServer();
  weft.init({ project: 'bench/profile', baseUrl: server.url });
  let made = 0;
  const add = weft.op(function add(a: number, b: number) {
    made++;
    return a + b;
  });
  await callInBursts(() => add(1, 2), 5_000, 1_000); // warm-up: JIT, connections; loading stays out of the window
  await weft.flush();
  const from = monotonicUs();
  await callInBursts(() => add(1, 2), CALLS, 1_000, weftBehind);
  await weft.flush();
  writeFileSync(join(dir, WINDOW_FILE), JSON.stringify({ from, to: monotonicUs() } satisfies Window));
  const stored = countCompleteCalls(server.dbPath, 'bench/profile', 'add');
  await weft.shutdown();
  await server.close();
  if (stored !== made) throw new Error(`${made} calls made, ${stored} stored`);
}

/** Self time of one function (or module), in ms. */
interface SelfTime {
  name: string;
  where: string;
  ms: number;
}

/** Self time per function (name, source module) within `window`, in ms, largest first; idle time left out. */
function selfTimes(profile: CpuProfile, window: Window, distDir: string): SelfTime[] {
  const byNode = new Map<number, number>();
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (t >= window.from && t <= window.to) byNode.set(id, (byNode.get(id) ?? 0) + delta);
  });
  const byFunction = new Map<string, SelfTime>();
  for (const node of profile.nodes) {
    const us = byNode.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') continue;
    const where = sourceModule(url, lineNumber, distDir);
    const key = `${functionName}@${where}`;
    const entry = byFunction.get(key) ?? { name: functionName || '(anonymous)', where, ms: 0 };
    entry.ms += us / 1000;
    byFunction.set(key, entry);
  }
  return [...byFunction.values()].sort((a, b) => b.ms - a.ms);
}

/** The same times summed per source module. */
function byModule(times: readonly SelfTime[]): SelfTime[] {
  const sums = new Map<string, number>();
  for (const t of times) sums.set(t.where, (sums.get(t.where) ?? 0) + t.ms);
  return [...sums].map(([where, ms]) => ({ name: where, where, ms })).sort((a, b) => b.ms - a.ms);
}

async function main(): Promise<void> {
  if (!process.env.WEFT_BENCH_DIST) {
    const built = await buildForBench(process.env.BENCH_SOURCE ?? 'HEAD');
    process.env.WEFT_BENCH_DIST = built.dir;
    process.env.WEFT_BENCH_LABEL = built.label;
  }
  const dir = mkdtempSync(join(tmpdir(), 'weft-profile-'));
  const child = forkTs(new URL(import.meta.url), ['--workload', dir], ['--cpu-prof', '--cpu-prof-dir', dir]);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`profiled workload exited with code ${code}`);
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile written in ${dir}`);
  const window = JSON.parse(readFileSync(join(dir, WINDOW_FILE), 'utf8')) as Window;
  const times = selfTimes(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile, window, process.env.WEFT_BENCH_DIST);
  const total = times.reduce((s, t) => s + t.ms, 0);
  const figures = (t: SelfTime): string[] => [num(t.ms, 1), `${((100 * t.ms) / total).toFixed(1)}%`, num((t.ms * 1e6) / CALLS, 1)];
  printTable(
    `Top ${TOP} self-time functions: ${num(CALLS)} traced sync calls + flush (${process.env.WEFT_BENCH_LABEL}); profile: ${join(dir, file)}`,
    ['function', 'module', 'self ms', 'share', 'ns per call'],
    times.slice(0, TOP).map((t) => [t.name, t.where, ...figures(t)]),
  );
  printTable('Self time per source module', ['module', 'self ms', 'share', 'ns per call'], byModule(times).slice(0, TOP).map((t) => [t.where, ...figures(t)]));
  console.log(`busy time sampled: ${num(total)} ms = ${num((total * 1e6) / CALLS)} ns per call (wall ${num((window.to - window.from) / 1000)} ms; the server runs in another process)`);
}

const at = process.argv.indexOf('--workload');
await (at >= 0 ? workload(process.argv[at + 1] ?? tmpdir()) : main());
