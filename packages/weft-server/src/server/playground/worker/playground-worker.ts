/**
 * The playground's worker, one process per run (started by the server's playground routes): reads a job (JSON) on
 * stdin, records what it runs in the job's project through weft-trace (`init()` pointed back at the server, so
 * the calls take the same write path as any app's), and writes JSONL lines (`playground-job.ts` `WorkerLine`) on
 * stdout. Its own process because `init()` is process-wide (one project per process) and the server serves many.
 * @module
 */
import { text } from 'node:stream/consumers';
import { flush, init, op, withAttributes } from 'weft-trace';
import type { WorkerJob, WorkerLine } from '../playground-job.js';
import { callVariant } from './variant-call.js';
import { evaluateVariant } from './variant-evaluate.js';

const write = (line: WorkerLine): void => {
  process.stdout.write(`${JSON.stringify(line)}\n`);
};

async function run(job: Extract<WorkerJob, { kind: 'run' }>): Promise<void> {
  const started = Date.now();
  const { variant } = job;
  const playgroundRun = op(async () => callVariant(variant, variant.values, process.env, (t) => write({ type: 'delta', text: t })), {
    name: 'playground.run', callDisplayName: `playground: ${variant.provider} ${variant.model}`,
  });
  const marks = { 'weft.playground': true, ...(variant.source_call_id ? { 'weft.playground.source_call': variant.source_call_id } : {}) };
  const [out, call] = await withAttributes(marks, () => playgroundRun.invoke());
  await flush();
  write({ type: 'end', call_id: call?.id ?? null, trace_id: call?.traceId ?? null, text: out, latency_ms: Date.now() - started });
}

async function main(): Promise<void> {
  const job = JSON.parse(await text(process.stdin)) as WorkerJob;
  init({ project: job.project_id, baseUrl: job.base_url, ...(job.api_key ? { apiKey: job.api_key } : {}), printViewerLink: false });
  if (job.kind === 'run') await run(job);
  else await evaluateVariant(job, write);
  await flush();
}

main().then(
  () => process.exit(0),
  async (err: unknown) => {
    write({ type: 'error', message: err instanceof Error ? err.message : String(err) });
    await flush().catch(() => undefined);
    process.exit(1);
  },
);
