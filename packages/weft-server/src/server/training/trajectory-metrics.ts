/**
 * Metrics over the stored trajectories of a model, per split or overall, computed in SQL (two-pass std). The SQL is
 * each engine's leaf: PostgreSQL's means are SQLite's `avg()` (Kahan-Babuska-Neumaier sums in SQLite's scan order,
 * `(group_id, position)`, by `weft_kbn_sum` of PG migration 2), so both stores answer the same numbers.
 * @module
 */
import type { Split, TrajectoryMetrics } from 'weft-trace/wire';
import type { Dialect } from '../db/dialect.js';
import { readableJson } from '../db/pg-json.js';
import { all, get, type Steps } from '../db/sql-steps.js';

/** The trajectories of a model (the first `?`), of one split (the second and third `?`) or of all (NULL). */
const scope = (columns: string, split: string): string => `SELECT ${columns} FROM trajectories
  WHERE model_id = ? AND (${split} IS NULL OR split = ${split})`;

/** PostgreSQL's equivalent of SQLite's `avg(x)` over rows in scan order: the compensated sum divided by the count. */
const avg = (x: string, order: string): string => `CASE WHEN count(${x}) > 0 THEN weft_kbn_sum((${x})::float8 ORDER BY ${order}) / count(${x}) END`;

const SQLITE_SCOPE = scope('group_id, reward, message_count, metrics', '?');
const PG_SCOPE = scope('group_id, position, reward, message_count, metrics', '?::text');

/**
 * Per engine: `summary`, counts, reward mean / population std / min / max, mean per-group std, mean message count;
 * `means`, the mean of each `metrics` key over the values that are numbers or booleans (1/0), keys in code point order.
 */
const LEAVES = {
  sqlite: {
    summary: `
      WITH t AS (${SQLITE_SCOPE}),
           g AS (SELECT group_id, avg(reward) AS m FROM t GROUP BY group_id),
           gs AS (SELECT sqrt(avg((t.reward - g.m) * (t.reward - g.m))) AS sd FROM t JOIN g USING (group_id) GROUP BY group_id),
           a AS (SELECT avg(reward) AS m FROM t)
      SELECT count(*) AS trajectory_count,
             (SELECT count(*) FROM g) AS group_count,
             (SELECT m FROM a) AS reward_mean,
             sqrt(avg((reward - (SELECT m FROM a)) * (reward - (SELECT m FROM a)))) AS reward_std,
             min(reward) AS reward_min,
             max(reward) AS reward_max,
             (SELECT avg(sd) FROM gs) AS group_reward_std_mean,
             avg(message_count) AS message_count_mean
      FROM t`,
    means: `
      WITH t AS (${SQLITE_SCOPE})
      SELECT j.key AS key, avg(CASE j.type WHEN 'true' THEN 1.0 WHEN 'false' THEN 0.0 ELSE j.value END) AS mean
      FROM t, json_each(t.metrics) AS j
      WHERE j.type IN ('integer', 'real', 'true', 'false')
      GROUP BY j.key ORDER BY j.key`,
  },
  postgres: {
    summary: `
      WITH t AS (${PG_SCOPE}),
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
      FROM t`,
    means: `
      WITH t AS (${PG_SCOPE}),
           v AS (SELECT t.group_id, t.position, j.ord, j.key COLLATE "C" AS key,
                   CASE json_typeof(j.value) WHEN 'boolean' THEN (CASE j.value::text WHEN 'true' THEN 1 ELSE 0 END)
                     ELSE (j.value #>> '{}')::float8 END AS x
                 FROM t, json_each(${readableJson('t.metrics')}) WITH ORDINALITY AS j(key, value, ord)
                 WHERE json_typeof(j.value) IN ('number', 'boolean'))
      SELECT key, ${avg('x', 'group_id, position, ord')} AS mean FROM v GROUP BY key ORDER BY key`,
  },
} as const;

/**
 * Computes the metrics of a model's stored trajectories.
 *
 * @param modelId - the model.
 * @param split - one split, or `null` for all of them.
 * @returns counts (0 when none) and means (null when there is no trajectory); standard deviations are
 *   population ones (divide by n), so a group of one trajectory has std 0.
 */
export function* trajectoryMetrics(d: Dialect, modelId: string, split: Split | null): Steps<TrajectoryMetrics> {
  const params = [modelId, split, split];
  const summary = yield* get<TrajectoryMetrics>(LEAVES[d.engine].summary, params);
  const means = yield* all<{ key: string; mean: number }>(LEAVES[d.engine].means, params);
  return { ...summary!, metric_means: Object.fromEntries(means.map((m) => [m.key, m.mean])) };
}
