/**
 * The overview's SQL on PostgreSQL (the twin of overview-sql.ts's SQLite part): the stream query's status and latency,
 * `json_each` of the usage, `percentile_cont`.
 * @module
 */
import type pg from 'pg';
import { PG_DIALECT } from '../db/dialect.js';
import { pgRows } from '../db/pg-database.js';
import { type OverviewCallsRow, type OverviewEngine, type OverviewQuery, type OverviewRows, type OverviewUsageRow, overviewCallsSql, overviewUsageSql } from './overview-sql.js';
import { derivedSql } from './fields.js';
import { PG_LEAVES } from './pg-query-sql.js';

/** PostgreSQL's part of the overview's SQL. */
export const PG_OVERVIEW: OverviewEngine = {
  dialect: PG_DIALECT,
  status: derivedSql('summary.status', PG_LEAVES),
  latency: `${derivedSql('summary.latency_ms', PG_LEAVES)}::float8`,
  usageEach: (summary) => `LATERAL json_each(CASE WHEN json_typeof(${summary} -> 'usage') = 'object' THEN ${summary} -> 'usage' END) u`,
  usageNumber: (key) => `(CASE WHEN json_typeof(u.value -> '${key}') = 'number' THEN (u.value ->> '${key}')::float8 END)`,
  percentile: (column, p) => `percentile_cont(${p / 100}) WITHIN GROUP (ORDER BY ${column})`,
};

/** Runs the overview's two statements on PostgreSQL (both at once, on two pool connections). */
export async function pgOverviewRows(pool: pg.Pool, q: OverviewQuery): Promise<OverviewRows> {
  const calls = overviewCallsSql(PG_OVERVIEW, q);
  const usage = overviewUsageSql(PG_OVERVIEW, q);
  const [c, u] = await Promise.all([pgRows<OverviewCallsRow>(pool, calls.sql, calls.params), pgRows<OverviewUsageRow>(pool, usage.sql, usage.params)]);
  return { calls: c, usage: u };
}
