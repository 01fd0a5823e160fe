// Cache keys for generated benchmark databases: change when the server's schema (its migrations) or the generator changes.
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { weftServer } from './weft.js';

/**
 * A path under the OS temp dir for a generated database, e.g. `/tmp/weft-bench-calls-1000000-<hash>.db`;
 * the hash covers every migration's SQL and `generatorVersion`.
 */
export function cachedDbPath(kind: string, rows: number, generatorVersion: number): string {
  const schema = weftServer.MIGRATIONS.map((m) => `${m.id}:${m.sql}`).join('\n');
  const hash = createHash('sha256').update(`${generatorVersion}\n${schema}`).digest('hex').slice(0, 12);
  return join(tmpdir(), `weft-bench-${kind}-${rows}-${hash}.db`);
}
