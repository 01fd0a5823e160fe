/**
 * Starting the playground's worker (`worker/playground-worker.ts`, built as `dist/playground-worker.js`) for one
 * job, and its JSONL lines as a stream the route answers with: the lines as the worker writes them, then an `error`
 * line when it exits without a last line of its own (a crash: its stderr's end). The worker is killed when the page
 * goes away (the stream is cancelled).
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkerJob } from './playground-job.js';

const WORKER_FILE = 'playground-worker.js';

function moduleDir(): string {
  return typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url));
}

/** The built worker: beside this module in `dist/`, else in a `dist/` above it (running from `src/`); undefined when not built. */
export function findWorker(from: string = moduleDir()): string | undefined {
  let dir = from;
  for (let up = 0; up < 6; up += 1) {
    for (const candidate of [path.join(dir, WORKER_FILE), path.join(dir, 'dist', WORKER_FILE)]) if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  return undefined;
}

/**
 * Runs `job` in a worker process; the returned stream carries its stdout (JSONL). A worker that ends without a final
 * `end`, `evaluated` or `error` line adds an `error` line with the end of its stderr.
 * @throws {Error} when the worker is not built (`npm run build`).
 */
export function runWorker(job: WorkerJob, env: NodeJS.ProcessEnv = process.env): ReadableStream<Uint8Array> {
  const file = findWorker();
  if (file === undefined) throw new Error(`the playground worker (${WORKER_FILE}) is not built: run npm run build`);
  const child = spawn(process.execPath, [file], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(JSON.stringify(job));
  let stderr = '';
  let last = '';
  child.stderr.on('data', (b: Buffer) => { stderr = (stderr + b.toString()).slice(-2000); });
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      child.stdout.on('data', (b: Buffer) => {
        const s = b.toString();
        last = (last + s).slice(-500);
        controller.enqueue(new Uint8Array(b));
      });
      child.on('close', (code) => {
        const final = last.trimEnd().split('\n').pop() ?? '';
        if (!/^\{"type":"(end|evaluated|error)"/.test(final)) {
          const why = stderr.trim().split('\n').slice(-3).join(' ') || `the worker exited with ${String(code)}`;
          controller.enqueue(encoder.encode(`${JSON.stringify({ type: 'error', message: why })}\n`));
        }
        controller.close();
      });
    },
    cancel() {
      child.kill('SIGKILL');
    },
  });
}
