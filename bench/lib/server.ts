// Runs the local server in a child process (so its CPU is not the benchmark's) and counts what it stored.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forkTs } from './child.js';

/** A server running in a child process. */
export interface ChildServer {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The SQLite file it writes. */
  dbPath: string;
  /** The child's process id (e.g. to read its peak RSS from /proc). */
  pid: number;
  /** Stops the child (SIGTERM) and waits for it to exit. */
  close(): Promise<void>;
}

/** A fresh directory under the OS temp dir for one run's databases. */
export function benchTempDir(): string {
  return mkdtempSync(join(tmpdir(), 'weft-bench-'));
}

/**
 * Starts the equivalent of `weft serve` (startServer on port 0) in a child process over `dbPath`.
 * @param dbPath - SQLite file; created and migrated when missing. Default: a new file in a temp dir
 *   that `close()` deletes again.
 * @param dist - the tsup build the child runs (a `buildForBench` dir); default: this process's WEFT_BENCH_DIST.
 * @param env - more environment of the child (`WEFT_BENCH_ROLLUPS: '1'` runs the rollup jobs, as `weft serve`).
 */
export function startChildServer(dbPath?: string, dist?: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const tempDir = dbPath ? undefined : benchTempDir();
  const file = dbPath ?? join(tempDir ?? '', 'calls.db');
  const childEnv = { ...env, ...(dist ? { WEFT_BENCH_DIST: dist } : {}) };
  return spawnServer(file, () => tempDir && rmSync(tempDir, { recursive: true, force: true }), './server-child.ts', Object.keys(childEnv).length > 0 ? childEnv : undefined);
}

/**
 * Starts the ingest floor behind a bare node:http server (`http-floor-child.ts`) in a child process: what HTTP framing
 * adds to the floor, with no weft code. On `pgUrl` (a database migrated by a weft server), else on a new SQLite file in
 * a temp dir that `close()` deletes.
 */
export function startHttpFloor(pgUrl?: string): Promise<ChildServer> {
  if (pgUrl) return spawnServer(pgUrl, () => {}, './http-floor-child.ts');
  const tempDir = benchTempDir();
  return spawnServer(join(tempDir, 'floor.db'), () => rmSync(tempDir, { recursive: true, force: true }), './http-floor-child.ts');
}

function spawnServer(dbPath: string, cleanup: () => void, entry = './server-child.ts', env?: Record<string, string>): Promise<ChildServer> {
  // WEFT_BENCH_SERVER_PROF=<dir>: the server child writes a V8 CPU profile there when it stops (node --cpu-prof)
  const profDir = process.env.WEFT_BENCH_SERVER_PROF;
  const child = forkTs(new URL(entry, import.meta.url), [dbPath], profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : [], env);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench server exited early with code ${code}`)));
    child.once('message', (msg) => {
      const { url } = msg as { url: string };
      resolve({
        url,
        dbPath,
        pid: child.pid ?? 0,
        close: async () => {
          child.kill('SIGTERM');
          await exited;
          cleanup();
        },
      });
    });
  });
}

