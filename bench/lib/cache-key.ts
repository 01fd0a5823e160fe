// Generated benchmark databases, cached under the temp dir and keyed by the server's schema (its migrations) and the generator version.
import { createHash } from 'node:crypto';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { weftServer } from './weft.js';

/**
 * A path under the OS temp dir for a generated database, e.g. `/tmp/weft-bench-calls-1000000-<hash>.db`;
 * the hash covers the name of every migration (those a fresh store applies) and `generatorVersion`.
 */
function cachedDbPath(kind: string, rows: number, generatorVersion: number): string {
  const fresh = weftServer.openStore(':memory:');
  const schema = fresh.appliedMigrations.join('\n');
  void fresh.close();
  const hash = createHash('sha256').update(`${generatorVersion}\n${schema}`).digest('hex').slice(0, 12);
  return join(tmpdir(), `weft-bench-${kind}-${rows}-${hash}.db`);
}

/**
 * The cached database `kind`/`rows`/`generatorVersion`, made by `fill(path)` when missing (into a
 * `.partial` file renamed at the end, so an interrupted run never leaves a half-filled cache).
 * @returns its path, and how long generating it took when it was made now.
 */
export function cachedDatabase(kind: string, rows: number, generatorVersion: number, fill: (path: string) => void): { path: string; generatedSeconds?: number } {
  const path = cachedDbPath(kind, rows, generatorVersion);
  if (existsSync(path)) return { path };
  const t0 = performance.now();
  const partial = `${path}.partial`;
  rmSync(partial, { force: true });
  try {
    fill(partial);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
  renameSync(partial, path);
  return { path, generatedSeconds: (performance.now() - t0) / 1000 };
}
