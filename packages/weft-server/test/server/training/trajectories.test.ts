// @weft-test: postgres
// Trajectory logs on the real server through the typed client: metrics per split and overall vs simple-statistics.
import { randomUUID } from 'node:crypto';
import { max, mean, min, standardDeviation } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import type { TrajectoryGroup, TrajectoryMetrics } from 'weft-trace';
import { useTestServer } from 'weft-test-kit/server.js';
import { storeRows } from 'weft-test-kit/store-sql.js';
import { useTestClient } from 'weft-test-kit/client.js';
import { post } from 'weft-test-kit/server-http.js';

const server = useTestServer();
const client = useTestClient(server);

interface T {
  reward: number;
  messages: number;
  metrics?: Record<string, unknown>;
}

const group = (ts: T[]): TrajectoryGroup => ({
  trajectories: ts.map((t) => ({
    reward: t.reward,
    messages_and_choices: Array.from({ length: t.messages }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` })),
    metrics: t.metrics ?? {},
  })),
});

/** The expected metrics of a list of groups, computed here with simple-statistics. */
function expected(groups: T[][]): TrajectoryMetrics {
  const all = groups.flat();
  const rewards = all.map((t) => t.reward);
  const means: Record<string, number[]> = {};
  for (const t of all) {
    for (const [k, v] of Object.entries(t.metrics ?? {})) {
      if (typeof v === 'number' || typeof v === 'boolean') (means[k] ??= []).push(Number(v));
    }
  }
  return {
    trajectory_count: all.length,
    group_count: groups.length,
    reward_mean: mean(rewards),
    reward_std: standardDeviation(rewards),
    reward_min: min(rewards),
    reward_max: max(rewards),
    group_reward_std_mean: mean(groups.map((g) => standardDeviation(g.map((t) => t.reward)))),
    message_count_mean: mean(all.map((t) => t.messages)),
    metric_means: Object.fromEntries(Object.entries(means).map(([k, vs]) => [k, mean(vs)])),
  };
}

function expectClose(actual: TrajectoryMetrics, want: TrajectoryMetrics): void {
  expect(actual.trajectory_count).toBe(want.trajectory_count);
  expect(actual.group_count).toBe(want.group_count);
  for (const key of ['reward_mean', 'reward_std', 'reward_min', 'reward_max', 'group_reward_std_mean', 'message_count_mean'] as const) {
    expect(actual[key], key).toBeCloseTo(want[key] as number, 10);
  }
  expect(Object.keys(actual.metric_means).sort()).toEqual(Object.keys(want.metric_means).sort());
  for (const [k, v] of Object.entries(want.metric_means)) expect(actual.metric_means[k], k).toBeCloseTo(v, 10);
}

const TRAIN: T[][] = [
  [
    { reward: 1, messages: 3, metrics: { correct: true, tokens: 120, note: 'ignored' } },
    { reward: 0.25, messages: 5, metrics: { correct: false, tokens: 80 } },
    { reward: -0.5, messages: 2, metrics: { tokens: 100.5, nested: { x: 1 } } },
  ],
  [
    { reward: 0.75, messages: 4, metrics: { correct: true } },
    { reward: 0.7, messages: 4, metrics: { latency_ms: 30 } },
  ],
  [{ reward: 2, messages: 1 }],
];
const VAL: T[][] = [[{ reward: 0.4, messages: 6, metrics: { tokens: 50 } }, { reward: 0.1, messages: 2, metrics: { tokens: 10 } }]];

describe('POST /v1/preview/models/{model_id}/log', () => {
  it('answers the counts of the request and the model metrics per split and overall, matching simple-statistics', async () => {
    const model = randomUUID();
    const first = await client().trajectories.log(model, { split: 'train', trajectory_groups: TRAIN.map(group) });
    expect(first.model_id).toBe(model);
    expect(first.split).toBe('train');
    expect(first.logged).toEqual({ trajectory_count: 6, group_count: 3 });
    expectClose(first.metrics.train, expected(TRAIN));
    expectClose(first.metrics.overall, expected(TRAIN));
    expect(first.metrics.val).toMatchObject({ trajectory_count: 0, group_count: 0, reward_mean: null, reward_std: null, metric_means: {} });

    const second = await client().trajectories.log(model, { split: 'val', trajectory_groups: VAL.map(group) });
    expect(second.logged).toEqual({ trajectory_count: 2, group_count: 1 });
    expectClose(second.metrics.train, expected(TRAIN));
    expectClose(second.metrics.val, expected(VAL));
    expectClose(second.metrics.overall, expected([...TRAIN, ...VAL]));
    expect(second.metrics.test.trajectory_count).toBe(0);
  });

  it('accumulates across requests of one split and keeps models apart', async () => {
    const model = randomUUID();
    await client().trajectories.log(model, { split: 'test', trajectory_groups: [group(TRAIN[0]!)] });
    const res = await client().trajectories.log(model, { split: 'test', trajectory_groups: [group(TRAIN[1]!)] });
    expectClose(res.metrics.test, expected([TRAIN[0]!, TRAIN[1]!]));
    const other = await client().trajectories.log(randomUUID(), { split: 'test', trajectory_groups: [group(VAL[0]!)] });
    expectClose(other.metrics.overall, expected(VAL));
  });

  it('stores every trajectory with its split and group', async () => {
    const model = `model with spaces/${randomUUID()}`;
    await client().trajectories.log(model, { split: 'train', trajectory_groups: TRAIN.map(group) });
    const rows = await storeRows<{ split: string; group_id: string; reward: number }>(server(),
      'SELECT split, group_id, position, reward FROM trajectories WHERE model_id = ? ORDER BY group_id, position', [model]);
    expect(rows.map((r) => r.reward)).toEqual(TRAIN.flat().map((t) => t.reward));
    expect(new Set(rows.map((r) => r.group_id)).size).toBe(3);
    expect(new Set(rows.map((r) => r.split))).toEqual(new Set(['train']));
  });

  it('answers 422 {detail} for a split other than train, val or test, and stores nothing', async () => {
    const model = randomUUID();
    for (const split of ['training', 'TRAIN', '', null]) {
      const res = await post(server(), `/v1/preview/models/${model}/log`, { split, trajectory_groups: TRAIN.map(group) });
      expect(res.status).toBe(422);
      const { detail } = (await res.json()) as { detail: { loc: string[]; type: string }[] };
      expect(detail.map((d) => d.loc)).toContainEqual(['body', 'split']);
    }
    const [n] = await storeRows<{ n: number }>(server(), 'SELECT count(*) AS n FROM trajectories WHERE model_id = ?', [model]);
    expect(n!.n).toBe(0);
  });

  it('answers 422 for no groups, an empty group, a missing or non-numeric reward, and malformed JSON', async () => {
    const cases: [unknown, string[]][] = [
      [{ split: 'train', trajectory_groups: [] }, ['body', 'trajectory_groups']],
      [{ split: 'train' }, ['body', 'trajectory_groups']],
      [{ split: 'train', trajectory_groups: [{ trajectories: [] }] }, ['body', 'trajectory_groups', '0', 'trajectories']],
      [{ split: 'train', trajectory_groups: [{ trajectories: [{ messages_and_choices: [] }] }] }, ['body', 'trajectory_groups', '0', 'trajectories', '0', 'reward']],
      [{ split: 'val', trajectory_groups: [{ trajectories: [{ reward: 'high' }] }] }, ['body', 'trajectory_groups', '0', 'trajectories', '0', 'reward']],
      ['{"split":', ['body']],
    ];
    for (const [body, loc] of cases) {
      const res = await post(server(), `/v1/preview/models/${randomUUID()}/log`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      const { detail } = (await res.json()) as { detail: { loc: string[] }[] };
      expect(detail.map((d) => d.loc), JSON.stringify(body)).toContainEqual(loc);
    }
  });
});
