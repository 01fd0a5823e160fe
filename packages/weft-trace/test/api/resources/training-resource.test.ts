// @weft-test: postgres
// client().trajectories and client().trainingJobs: validated before sending, Bearer auth, encoded path, parsed answers.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { APIConnectionError, APIError, Client, RequestValidationError } from '../../../src/index.js';
import { startFaultProxy } from 'weft-test-kit/fault-proxy.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { useTestClient } from 'weft-test-kit/client.js';
import { startCannedServer } from 'weft-test-kit/canned-server.js';
import { expectUuidv7 } from 'weft-test-kit/shapes.js';

const server = useTestServer({ apiKeys: ['train-key'] });
const client = useTestClient(server, { apiKey: 'train-key' });

const GROUPS = [{ trajectories: [{ reward: 1, messages_and_choices: [{ role: 'user', content: 'hi' }] }, { reward: 0 }] }];

describe('client().trajectories.log', () => {
  it('logs to a keyed server with Bearer auth and parses the metrics', async () => {
    const model = randomUUID();
    const res = await client().trajectories.log(model, { split: 'val', trajectory_groups: GROUPS });
    expect(res).toMatchObject({ model_id: model, split: 'val', logged: { trajectory_count: 2, group_count: 1 } });
    expect(res.metrics.val).toMatchObject({ reward_mean: 0.5, reward_std: 0.5, reward_min: 0, reward_max: 1, message_count_mean: 0.5 });
  });

  it('percent-encodes the model id as one path segment and refuses "", "." and ".."', async () => {
    const canned = await startCannedServer({});
    const c = new Client({ baseUrl: canned.url, apiKey: 'k', maxRetries: 0 });
    try {
      await c.trajectories.log('org/model v1?', { split: 'train', trajectory_groups: GROUPS }).catch(() => undefined);
      expect(canned.seen[0]?.url).toBe('/v1/preview/models/org%2Fmodel%20v1%3F/log');
      expect(canned.seen[0]?.headers.authorization).toBe('Bearer k');
      for (const bad of ['', '.', '..']) {
        await expect(c.trajectories.log(bad, { split: 'train', trajectory_groups: GROUPS })).rejects.toBeInstanceOf(RequestValidationError);
      }
      expect(canned.seen).toHaveLength(1);
    } finally {
      await c.close();
      await canned.close();
    }
  });

  it('refuses a bad split, no groups or a missing reward before sending', async () => {
    const bad = [
      { split: 'training' as 'train', trajectory_groups: GROUPS },
      { split: 'train' as const, trajectory_groups: [] },
      { split: 'train' as const, trajectory_groups: [{ trajectories: [{} as { reward: number }] }] },
    ];
    for (const body of bad) {
      await expect(client().trajectories.log('m', body)).rejects.toBeInstanceOf(RequestValidationError);
    }
  });

  it('refuses an answer without the metrics shape', async () => {
    const canned = await startCannedServer({ ok: true });
    const c = new Client({ baseUrl: canned.url, maxRetries: 0 });
    try {
      await expect(c.trajectories.log('m', { split: 'test', trajectory_groups: GROUPS })).rejects.toBeInstanceOf(APIError);
    } finally {
      await c.close();
      await canned.close();
    }
  });
});

describe('client().trainingJobs.create', () => {
  it('creates a queued job and returns its UUID', async () => {
    const job = await client().trainingJobs.create({ model_id: randomUUID(), trajectory_groups: GROUPS, experimental_config: { learning_rate: 1e-5, ppo: false } });
    expectUuidv7(job.id);
    expect(job.status).toBe('queued');
  });

  it('refuses each bad field before sending', async () => {
    const err = await client().trainingJobs
      .create({ model_id: 'm1', trajectory_groups: [], experimental_config: { learning_rate: 0, epsilon: 1.2 } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).detail.map((d) => d.loc.join('.'))).toEqual(
      expect.arrayContaining(['model_id', 'trajectory_groups', 'experimental_config.learning_rate', 'experimental_config.epsilon']),
    );
  });

  it('refuses an answer whose id is not a UUID', async () => {
    const canned = await startCannedServer({ id: 42 });
    const c = new Client({ baseUrl: canned.url, maxRetries: 0 });
    try {
      await expect(c.trainingJobs.create({ model_id: randomUUID(), trajectory_groups: GROUPS })).rejects.toThrow(/unexpected response shape/);
    } finally {
      await c.close();
      await canned.close();
    }
  });
});

describe('non-idempotent preview endpoints', () => {
  it('do not retry by default: an answer lost after the server stored the job is an error, and there is one job', async () => {
    const proxy = await startFaultProxy(server().url);
    const c = new Client({ baseUrl: proxy.url, apiKey: 'train-key', maxRetries: 5 });
    try {
      proxy.inject({ kind: 'drop-after-upstream' });
      const model = randomUUID();
      await expect(c.trainingJobs.create({ model_id: model, trajectory_groups: GROUPS })).rejects.toBeInstanceOf(APIConnectionError);
      await expect(c.trajectories.log(model, { split: 'train', trajectory_groups: GROUPS })).rejects.toBeInstanceOf(APIConnectionError);
      expect(proxy.counts.forwarded).toBe(2);
    } finally {
      await c.close();
      await proxy.close();
    }
  });
});
