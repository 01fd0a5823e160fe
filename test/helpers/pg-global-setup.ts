/**
 * Vitest global setup of the `postgres` project: uses the cluster at `WEFT_TEST_PG_URL` when set (CI starts one
 * with scripts/pg-cluster.sh), else starts a throwaway one with that script and stops it at teardown. Without
 * PostgreSQL's binaries it fails, saying how to install them; it never skips.
 * @module
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { PG_URL_ENV } from './pg.js';

const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/pg-cluster.sh');

/** Starts (or adopts) the cluster; returns the teardown. */
export default function setup(): (() => void) | undefined {
  if (process.env[PG_URL_ENV]) return undefined;
  let out: string;
  try {
    out = execFileSync('bash', [SCRIPT, 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const stderr = String((err as { stderr?: string }).stderr ?? '');
    throw new Error(
      `the postgres test project could not start a PostgreSQL cluster (scripts/pg-cluster.sh start):\n${stderr}\n` +
        'Install the server binaries (`apt-get install -y postgresql` on Debian/Ubuntu), or set WEFT_TEST_PG_URL to a ' +
        'superuser URL of a server you own, or run the SQLite tests only: `npx vitest run --project sqlite`.',
    );
  }
  const vars = Object.fromEntries([...out.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
  process.env[PG_URL_ENV] = vars[PG_URL_ENV];
  const dir = vars['WEFT_PG_DIR']!;
  return () => {
    execFileSync('bash', [SCRIPT, 'stop', dir], { stdio: 'inherit' });
  };
}
