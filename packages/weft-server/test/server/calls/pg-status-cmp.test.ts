// `summary.status` on PostgreSQL compares `summary.cancelled` and `summary.status_counts.error` with a number as SQLite
// does (issue 54, point 3): the comparison is written out inline (pg-query-sql.ts `cmp`) instead of calling weft_cmp,
// which cost most of the overview's live edges and of each rollup hour. For every kind of JSON value (numbers, booleans,
// strings, objects, arrays, null, missing, a \u0000 escape), read as the status reads it, the inline form answers what
// `weft_cmp(value, n) <op> 0` answers (SQLite's comparison, covered by the query parity tests), NULL included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { PG_LEAVES } from '../../../src/server/calls/query/pg-query-sql.js';
import { openPgDatabase } from '../../../src/server/db/pg-database.js';
import { freshPgDatabase, type FreshDatabase } from 'weft-test-kit/pg.js';

const VALUES = ['1', '1.0', '1e0', '0', '-1', '0.5', '2', '-0.0', 'true', 'false', 'null', '"1"', '""', '"x"', '"0"', '{}', '{"a":1}', '[]', '[1]', '"\\u0000"'];
const SUMMARIES = [
  ...VALUES.flatMap((v) => [`{"cancelled":${v}}`, `{"status_counts":{"error":${v}}}`, `{"status_counts":${v}}`]),
  '{}', '{"status_counts":{}}', 'null', '[]',
];

let database: FreshDatabase;
let client: pg.Client;

beforeAll(async () => {
  database = await freshPgDatabase('status-cmp');
  await (await openPgDatabase(database.url)).close();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
}, 60_000);

afterAll(async () => {
  await client?.end();
  await database?.drop();
});

describe('summary.status comparisons on PostgreSQL', () => {
  it('answer what weft_cmp answers for every kind of value', async () => {
    const checks = [[['cancelled'], '=', 1], [['status_counts', 'error'], '>', 0], [['cancelled'], '>', 0], [['status_counts', 'error'], '=', 1]] as const;
    let compared = 0;
    for (const summary of SUMMARIES) {
      for (const [keys, op, n] of checks) {
        const at = PG_LEAVES.at('s.summary', [...keys]);
        const { rows } = await client.query<{ inline: boolean | null; ref: boolean | null }>(
          `SELECT ${PG_LEAVES.cmp(at, op, n)} AS inline, weft_cmp(${at}, '${n}'::jsonb) ${op} 0 AS ref FROM (SELECT $1::json AS summary) s`, [summary]);
        expect(rows[0]!.inline, `${summary} ${keys.join('.')} ${op} ${n}`).toBe(rows[0]!.ref);
        compared += 1;
      }
    }
    expect(compared).toBe(SUMMARIES.length * checks.length);
  });
});
