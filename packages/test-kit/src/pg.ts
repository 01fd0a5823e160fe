/**
 * Test helper: fresh PostgreSQL databases on the test cluster (`WEFT_TEST_PG_URL`, started by `pg-global-setup.ts`
 * or given). Which store the suite runs on is `test-store.ts` (it loads no pg driver).
 * @module
 */
import pg from 'pg';

/** Environment variable holding the URL of the test cluster's maintenance database (superuser). */
export const PG_URL_ENV = 'WEFT_TEST_PG_URL';
/** Environment variable naming the database migrated once per run that {@link freshPgDatabase} copies (set by pg-global-setup.ts). */
export const PG_TEMPLATE_ENV = 'WEFT_TEST_PG_TEMPLATE';

/** The test cluster's URL. @throws Error when the postgres project's global setup did not set it. */
export function testClusterUrl(): string {
  const url = process.env[PG_URL_ENV];
  if (!url) throw new Error(`${PG_URL_ENV} is not set: run the PostgreSQL tests through vitest's "postgres" project (its global setup starts a cluster), or set it to a server you own`);
  return url;
}

let created = 0;

/** Runs one statement on the maintenance database. */
export async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: testClusterUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** An empty database on the test cluster, and a way to drop it. */
export interface FreshDatabase {
  /** Its URL, for `startServer({ db })` or `weft serve --db`. */
  url: string;
  /** Drops it, disconnecting whoever is still connected. Idempotent. */
  drop(): Promise<void>;
}

/**
 * Creates a new database with no rows (so a test sees only its own rows): a copy of the run's template, migrated
 * once by pg-global-setup.ts (`CREATE DATABASE ... TEMPLATE`, a file copy: no migration per server), or, with
 * `{ migrated: false }` or no template, an empty one that the first server to open it migrates.
 * @param label - a readable part of the name (letters, digits, `_`).
 */
export async function freshPgDatabase(label = 't', opts: { migrated?: boolean } = {}): Promise<FreshDatabase> {
  const name = `weft_${label.replace(/\W/g, '_').slice(0, 20)}_${process.pid}_${created++}_${Date.now().toString(36)}`.toLowerCase();
  const template = opts.migrated === false ? undefined : process.env[PG_TEMPLATE_ENV];
  await admin(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const url = new URL(testClusterUrl());
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  return { url: url.toString(), drop: () => (dropped ??= admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)) };
}
