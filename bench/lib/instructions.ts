// Instructions per call counted by valgrind's callgrind: a figure the load of a shared machine does not move, for the guard.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSink } from './sink.js';

const CHILD = fileURLToPath(new URL('../instructions-child.mjs', import.meta.url));
/**
 * V8 without background threads (compilation and GC on the main thread, in an order that does not depend on timing):
 * without it, the same build's count moved by 20% between runs as valgrind scheduled V8's threads differently.
 */
const V8_FLAGS = ['--predictable'];

/** The workloads of `instructions-child.mjs`, and the two sizes whose difference is divided by the calls between them. */
export const INSTRUCTION_WORKLOADS = {
  /** one traced sync call of a burst with its serialization, batching and sending; sizes in calls */
  sync: { small: 0, large: 20_000, callsPer: 1 },
  /** what the caller's stack pays for one traced sync call (its events only staged); sizes in calls */
  inline: { small: 0, large: 5_000, callsPer: 1 },
  /** the same for an OpenTelemetry span (BatchSpanProcessor, discarding exporter); the dist is not used */
  otel: { small: 0, large: 5_000, callsPer: 1 },
  /** one exported call of the nested workload, all in (3 calls per root); sizes in roots */
  nested: { small: 0, large: 2_000, callsPer: 3 },
} as const;
export type InstructionWorkload = keyof typeof INSTRUCTION_WORKLOADS;

/** Whether valgrind is on this machine (Debian's package; not something the project installs). */
export function hasValgrind(): Promise<boolean> {
  return new Promise((resolve) => execFile('valgrind', ['--version'], (err) => resolve(!err)));
}

/** Instructions callgrind counted for one run of the child (node's start-up included). */
function countRun(dist: string, workload: InstructionWorkload, size: number, sinkUrl: string): Promise<number> {
  const args = ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, ...V8_FLAGS, CHILD, dist, workload, String(size), sinkUrl];
  return new Promise((resolve, reject) => {
    execFile('valgrind', args, { maxBuffer: 16 << 20 }, (err, _stdout, stderr) => {
      const m = /Collected : (\d+)/.exec(stderr);
      if (err || !m) reject(new Error(`valgrind ${workload} ${size} failed: ${err?.message ?? stderr.slice(-500)}`));
      else resolve(Number(m[1]));
    });
  });
}

/**
 * Instructions per call of `workload` for the SDK build in `dist`: (count at the large size - count at the small size)
 * / calls between them, so node's start-up and the warm-up cancel out. Deterministic up to V8's own variation (GC
 * and JIT timing move it by about 1%). About 1-2 min per call of this function on a 2-core machine.
 */
export async function instructionsPerCall(dist: string, workload: InstructionWorkload): Promise<number> {
  const w = INSTRUCTION_WORKLOADS[workload];
  const sink = await startSink();
  try {
    const [small, large] = await Promise.all([countRun(dist, workload, w.small, sink.url), countRun(dist, workload, w.large, sink.url)]);
    return (large - small) / ((w.large - w.small) * w.callsPer);
  } finally {
    await sink.received();
  }
}
