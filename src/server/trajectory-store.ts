/**
 * SQLite persistence of logged trajectories (spec endpoint 1): one row per trajectory, with its group and split.
 * @module
 */
import type Database from 'better-sqlite3';
import { newId } from '../internal/ids.js';
import type { z } from 'zod';
import type { TrajectoryLogReq, TrajectoryLogRes } from '../schema/trajectories.js';
import { trajectoryMetrics } from './trajectory-metrics.js';

/** A validated log body (zod output). */
export type TrajectoryLog = z.output<typeof TrajectoryLogReq>;

const INSERT_SQL = `INSERT INTO trajectories
  (model_id, split, group_id, position, reward, message_count, metrics, trajectory, logged_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** Trajectories of every model in one SQLite database (the `trajectories` table of migration 4). */
export class TrajectoryStore {
  constructor(private readonly db: Database.Database) {}

  /**
   * Stores the groups of a log request (each group gets a new UUIDv7 group id) and computes the model's
   * metrics afterwards, all in one transaction.
   *
   * @param modelId - the model the trajectories were produced by (the path parameter).
   * @param log - split and trajectory groups.
   * @returns the counts of this request and the model's metrics per split and overall.
   * @see spec endpoint 1, "Log trajectories"
   */
  log(modelId: string, log: TrajectoryLog): TrajectoryLogRes {
    return this.db.transaction((): TrajectoryLogRes => {
      const insert = this.db.prepare(INSERT_SQL);
      const now = new Date().toISOString();
      let count = 0;
      for (const group of log.trajectory_groups) {
        const groupId = newId();
        group.trajectories.forEach((t, i) => {
          const messages = t.messages_and_choices?.length ?? 0;
          insert.run(modelId, log.split, groupId, i, t.reward, messages, JSON.stringify(t.metrics ?? {}), JSON.stringify(t), now);
          count++;
        });
      }
      const metricsOf = (split: TrajectoryLog['split'] | null) => trajectoryMetrics(this.db, modelId, split);
      return {
        model_id: modelId,
        split: log.split,
        logged: { trajectory_count: count, group_count: log.trajectory_groups.length },
        metrics: { train: metricsOf('train'), val: metricsOf('val'), test: metricsOf('test'), overall: metricsOf(null) },
      };
    })();
  }
}
