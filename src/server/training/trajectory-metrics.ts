/**
 * Metrics over the stored trajectories of a model, per split or overall, computed in SQL (two-pass std).
 * @module
 */
import type Database from 'better-sqlite3';
import type { Split, TrajectoryMetrics } from '../../schema/trajectories.js';

/** The trajectories of a model, of one split (`@split`) or of all (`@split` NULL). */
const SCOPE = `SELECT group_id, reward, message_count, metrics FROM trajectories
  WHERE model_id = @model AND (@split IS NULL OR split = @split)`;

/** Counts, reward mean / population std / min / max, mean per-group std, mean message count. */
const SUMMARY_SQL = `
  WITH t AS (${SCOPE}),
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
  FROM t`;

/** Mean of each `metrics` key over the values that are numbers or booleans (1/0). */
const METRIC_MEANS_SQL = `
  WITH t AS (${SCOPE})
  SELECT j.key AS key, avg(CASE j.type WHEN 'true' THEN 1.0 WHEN 'false' THEN 0.0 ELSE j.value END) AS mean
  FROM t, json_each(t.metrics) AS j
  WHERE j.type IN ('integer', 'real', 'true', 'false')
  GROUP BY j.key ORDER BY j.key`;

/** One row of {@link SUMMARY_SQL}. */
interface Summary {
  trajectory_count: number;
  group_count: number;
  reward_mean: number | null;
  reward_std: number | null;
  reward_min: number | null;
  reward_max: number | null;
  group_reward_std_mean: number | null;
  message_count_mean: number | null;
}

/**
 * Computes the metrics of a model's stored trajectories.
 *
 * @param db - the server's database.
 * @param modelId - the model.
 * @param split - one split, or `null` for all of them.
 * @returns counts (0 when none) and means (null when there is no trajectory); standard deviations are
 *   population ones (divide by n), so a group of one trajectory has std 0.
 */
export function trajectoryMetrics(db: Database.Database, modelId: string, split: Split | null): TrajectoryMetrics {
  const params = { model: modelId, split };
  const summary = db.prepare(SUMMARY_SQL).get(params) as Summary;
  const means = db.prepare(METRIC_MEANS_SQL).all(params) as { key: string; mean: number }[];
  return { ...summary, metric_means: Object.fromEntries(means.map((m) => [m.key, m.mean])) };
}
