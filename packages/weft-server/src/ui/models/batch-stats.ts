/**
 * A model's stored groups cut into logged batches (one log request: a split and a logging time, the step), and
 * the metrics of each batch, as the log endpoint computes them over a set of trajectories.
 * @module
 */
import type { StoredGroup } from './models-api';

/** One logged batch: its split, step (logging time), groups, and metrics over its trajectories. */
export interface Batch {
  split: StoredGroup['split'];
  loggedAt: string;
  groups: StoredGroup[];
  trajectoryCount: number;
  rewardMean: number;
  rewardStd: number;
  rewardMin: number;
  rewardMax: number;
  /** Mean over groups of each group's reward std. */
  groupStdMean: number;
  /** Mean of each numeric or boolean (1/0) `metrics` key. */
  metricMeans: Record<string, number>;
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const std = (xs: number[]): number => {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
};

function batchOf(groups: StoredGroup[]): Batch {
  const rewards = groups.flatMap((g) => g.trajectories.map((t) => t.reward));
  const sums: Record<string, number[]> = {};
  for (const t of groups.flatMap((g) => g.trajectories)) {
    for (const [k, v] of Object.entries(t.metrics ?? {})) {
      if (typeof v === 'number' || typeof v === 'boolean') (sums[k] ??= []).push(Number(v));
    }
  }
  return {
    split: groups[0]!.split,
    loggedAt: groups[0]!.logged_at,
    groups,
    trajectoryCount: rewards.length,
    rewardMean: mean(rewards),
    rewardStd: std(rewards),
    rewardMin: Math.min(...rewards),
    rewardMax: Math.max(...rewards),
    groupStdMean: mean(groups.map((g) => std(g.trajectories.map((t) => t.reward)))),
    metricMeans: Object.fromEntries(Object.entries(sums).map(([k, xs]) => [k, mean(xs)])),
  };
}

/** The batches of `groups` (in logging order), each split apart. */
export function batchesOf(groups: StoredGroup[]): Batch[] {
  const by = new Map<string, StoredGroup[]>();
  for (const g of groups) {
    const key = `${g.logged_at} ${g.split}`;
    const list = by.get(key);
    if (list) list.push(g);
    else by.set(key, [g]);
  }
  return [...by.values()].map(batchOf);
}
