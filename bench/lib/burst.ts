// Runs one round of burst-child.mjs in a packed app with plain `node`, against a fresh loopback sink, and adds what the sink received.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSink } from './sink.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What one round reports (burst-child.mjs), plus the calls (or spans) the sink received. */
export interface BurstResult {
  entry: 'esm' | 'cjs';
  mode: 'weft' | 'otel';
  /** p50 ns per call, samples of 256 calls with a flush between samples (the queue stays small) */
  inlineP50Ns: number;
  /** p50 ns per call over the burst's samples of 256 calls */
  burstP50Ns: number;
  /** wall ns of the whole burst per call */
  burstMeanNs: number;
  /** process CPU from the burst's first call until its flush resolved, per call of the burst, ns */
  burstCpuNsPerCall: number;
  burstCalls: number;
  made: number;
  rssGrowthBytes: number;
  /** end items (weft) or spans (otel) the sink received: every call made, when nothing was lost */
  received: number;
}

/** Calls in one burst. BENCH_BURST_CALLS overrides. */
export const BURST_CALLS = Number(process.env.BENCH_BURST_CALLS) || 200_000;

/** One fresh `node` process running burst-child.mjs in `appDir` for `entry` and `mode` (`otelQueue`: the OTel twin's maxQueueSize, default its SDK's 2,048). */
export async function runBurst(appDir: string, entry: 'esm' | 'cjs', mode: 'weft' | 'otel' = 'weft', otelQueue?: number): Promise<BurstResult> {
  const sink = await startSink();
  const env = { ...process.env, BURST_ENTRY: entry, BURST_MODE: mode, BURST_SINK: sink.url, BURST_CALLS: String(BURST_CALLS), BURST_ROOT: ROOT, BURST_OTEL_QUEUE: String(otelQueue ?? '') };
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, ['burst-child.mjs'], { cwd: appDir, env, maxBuffer: 1 << 20 }, (err, out, errOut) => {
      if (err) reject(new Error(`burst-child (${entry}, ${mode}) in ${appDir} failed: ${err.message}\n${errOut}`));
      else resolve(out);
    });
  });
  const received = await sink.received();
  const line = stdout.trim().split('\n').pop() ?? '';
  return { ...(JSON.parse(line) as Omit<BurstResult, 'received'>), received };
}
