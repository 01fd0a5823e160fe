// A throwaway PostgreSQL cluster for a benchmark (scripts/pg-cluster.sh, durable settings: fsync and synchronous_commit on, as a deployment would run), with fresh databases on it.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const SCRIPT = fileURLToPath(new URL('../../scripts/pg-cluster.sh', import.meta.url));

/** A running cluster. */
export interface BenchCluster {
  /** The cluster's `postgres` database URL. */
  url: string;
  /** A new empty database on the cluster; answers its URL. */
  freshDatabase(): Promise<string>;
  /** The server's version, e.g. `18.1`. */
  version(): Promise<string>;
  /** Stops the cluster and deletes its directory. */
  stop(): void;
}

/** Runs one statement on a new connection to `url`; answers the rows. */
export async function pgOnce<R>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as R[];
  } finally {
    await client.end();
  }
}

/** Starts a durable throwaway cluster. */
export function startBenchCluster(): BenchCluster {
  const out = execFileSync('bash', [SCRIPT, 'start'], { encoding: 'utf8', env: { ...process.env, PG_CLUSTER_DURABLE: '1' } });
  const vars = Object.fromEntries([...out.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
  const url = vars['WEFT_TEST_PG_URL']!;
  let created = 0;
  return {
    url,
    async freshDatabase() {
      const name = `bench_${created++}`;
      await pgOnce(url, `CREATE DATABASE ${name}`);
      const db = new URL(url);
      db.pathname = `/${name}`;
      return db.toString();
    },
    async version() {
      const rows = await pgOnce<{ server_version: string }>(url, 'SHOW server_version');
      return String(rows[0]?.server_version ?? '').split(' ')[0] ?? '';
    },
    stop() {
      execFileSync('bash', [SCRIPT, 'stop', vars['WEFT_PG_DIR']!]);
    },
  };
}

/** The median of some numbers. */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
