/**
 * Metrics over the stored trajectories of a model in PostgreSQL, per split or overall: the SQL of the SQLite
 * store's `trajectoryMetrics` (two-pass std), with its means (Kahan-Babuska-Neumaier sums in `(group_id, position)`
 * order, `weft_kbn_sum` of PG migration 2) so both stores answer the same numbers.
 * @module
 */
import type { Split, TrajectoryMetrics } from '../../schema/trajectories.js';
import { type PgQueryable, pgRows } from '../db/pg-database.js';
import { readableJson } from '../db/pg-json.js';

/** The trajectories of a model, of one split (`$2`) or of all (`$2` NULL). */
const SCOPE = `SELECT group_id, position, reward, message_count, metrics FROM trajectories
  WHERE model_id = $1 AND ($2::text IS NULL OR split = $2::text)`;

/** SQLite's `avg(x)` over rows in scan order: the compensated sum divided by the count, NULL without values. */
const avg = (x: string, order: string): string => `CASE WHEN count(${x}) > 0 THEN weft_kbn_sum((${x})::float8 ORDER BY ${order}) / count(${x}) END`;

/** Counts, reward mean / population std / min / max, mean per-group std, mean message count. */
const SUMMARY_SQL = `
  WITH t AS (${SCOPE}),
       g AS (SELECT group_id, ${avg('reward', 'position')} AS m FROM t GROUP BY group_id),
       gs AS (SELECT group_id, sqrt(${avg('(t.reward - g.m) * (t.reward - g.m)', 't.position')}) AS sd FROM t JOIN g USING (group_id) GROUP BY group_id),
       a AS (SELECT ${avg('reward', 'group_id, position')} AS m FROM t)
  SELECT count(*)::int AS trajectory_count,
         (SELECT count(*)::int FROM g) AS group_count,
         (SELECT m FROM a) AS reward_mean,
         sqrt(${avg('(reward - (SELECT m FROM a)) * (reward - (SELECT m FROM a))', 'group_id, position')}) AS reward_std,
         min(reward) AS reward_min,
         max(reward) AS reward_max,
         (SELECT ${avg('sd', 'group_id')} FROM gs) AS group_reward_std_mean,
         ${avg('message_count', 'group_id, position')} AS message_count_mean
  FROM t`;

/** Mean of each `metrics` key over the values that are numbers or booleans (1/0), keys in code point order. */
const METRIC_MEANS_SQL = `
  WITH t AS (${SCOPE}),
       v AS (SELECT t.group_id, t.position, j.ord, j.key COLLATE "C" AS key,
               CASE json_typeof(j.value) WHEN 'boolean' THEN (CASE j.value::text WHEN 'true' THEN 1 ELSE 0 END)
                 ELSE (j.value #>> '{}')::float8 END AS x
             FROM t, json_each(${readableJson('t.metrics')}) WITH ORDINALITY AS j(key, value, ord)
             WHERE json_typeof(j.value) IN ('number', 'boolean'))
  SELECT key, ${avg('x', 'group_id, position, ord')} AS mean FROM v GROUP BY key ORDER BY key`;

/**
 * Computes the metrics of a model's stored trajectories; the contract of the SQLite `trajectoryMetrics`.
 *
 * @param db - the pool, or the client of the transaction that just stored trajectories.
 * @param split - one split, or `null` for all of them.
 * @returns counts (0 when none) and means (null when there is no trajectory); population standard deviations.
 */
export async function pgTrajectoryMetrics(db: PgQueryable, modelId: string, split: Split | null): Promise<TrajectoryMetrics> {
  const params = [modelId, split];
  const [summary] = await pgRows<Record<string, number | null>>(db, SUMMARY_SQL, params);
  const means = await pgRows<{ key: string; mean: number }>(db, METRIC_MEANS_SQL, params);
  return { ...summary, metric_means: Object.fromEntries(means.map((m) => [m.key, m.mean])) } as TrajectoryMetrics;
}
