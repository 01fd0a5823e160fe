// @weft-test: postgres
// Training jobs on the real server through the typed client: stored as queued; every bad field gets a 422 item.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TrajectoryGroup } from 'weft-trace';
import { useTestServer } from 'weft-test-kit/server.js';
import { storeRows } from 'weft-test-kit/store-sql.js';
import { useTestClient } from 'weft-test-kit/client.js';
import { post } from 'weft-test-kit/server-http.js';
import { expectIsoUtc, expectUuidv7 } from 'weft-test-kit/shapes.js';
import { NotFoundError } from 'weft-trace';
import { groupLines, openAiSftLines } from 'weft-trace/wire';

const server = useTestServer();
const client = useTestClient(server);

const GROUPS: TrajectoryGroup[] = [
  { trajectories: [{ reward: 1, messages_and_choices: [{ role: 'user', content: 'hi' }] }, { reward: 0 }] },
  { trajectories: [{ reward: 0.5 }] },
];

interface JobRow {
  model_id: string;
  status: string;
  experimental_config: string | null;
  group_count: number;
  trajectory_count: number;
  trajectory_groups: string;
}

const jobRow = async (id: string): Promise<JobRow | undefined> =>
  (await storeRows<JobRow>(server(), 'SELECT * FROM training_jobs WHERE id = ?', [id]))[0];

describe('POST /v1/preview/training-jobs', () => {
  it('stores the job as queued with its groups and config and returns its UUID id', async () => {
    const model = randomUUID();
    const config = { learning_rate: 2e-5, epsilon: 0.2, epsilon_high: 0.28, advantage_balance: -0.5, ppo: true, scale_rewards: false };
    const job = await client().trainingJobs.create({ model_id: model, trajectory_groups: GROUPS, experimental_config: config });
    expectUuidv7(job.id);
    expect(job).toMatchObject({ model_id: model, status: 'queued' });
    expectIsoUtc(job.created_at);
    const row = (await jobRow(job.id))!;
    expect(row).toMatchObject({ model_id: model, status: 'queued', group_count: 2, trajectory_count: 3 });
    expect(JSON.parse(row.experimental_config!)).toEqual(config);
    expect(JSON.parse(row.trajectory_groups)).toEqual(GROUPS);
  });

  it('accepts a job without experimental_config, and gives every job its own id', async () => {
    const model = randomUUID();
    const a = await client().trainingJobs.create({ model_id: model, trajectory_groups: GROUPS });
    const b = await client().trainingJobs.create({ model_id: model, trajectory_groups: GROUPS, experimental_config: null });
    expect(a.id).not.toBe(b.id);
    expect((await jobRow(a.id))?.experimental_config).toBeNull();
  });

  it('answers 422 with one detail item per bad field', async () => {
    const res = await post(server(), '/v1/preview/training-jobs', {
      model_id: 'not-a-uuid',
      trajectory_groups: [],
      experimental_config: {
        learning_rate: 0,
        epsilon: 1,
        epsilon_high: 0,
        advantage_balance: 1.5,
        svc_k2_tau: -1,
        max_negative_advantage_importance_sampling_weight: 0,
        ppo: 'yes',
        mask_prob_ratio: 1,
        precalculate_logprobs: 'no',
        scale_rewards: null,
        learning_rat: 0.1,
      },
    });
    expect(res.status).toBe(422);
    const { detail } = (await res.json()) as { detail: { loc: string[]; msg: string; type: string }[] };
    const locs = detail.map((d) => d.loc.join('.'));
    const cfg = (k: string) => `body.experimental_config.${k}`;
    expect(locs).toEqual(expect.arrayContaining([
      'body.model_id', 'body.trajectory_groups',
      cfg('learning_rate'), cfg('epsilon'), cfg('epsilon_high'), cfg('advantage_balance'), cfg('svc_k2_tau'),
      cfg('max_negative_advantage_importance_sampling_weight'), cfg('ppo'), cfg('mask_prob_ratio'),
      cfg('precalculate_logprobs'), cfg('learning_rat'),
    ]));
    expect(locs).not.toContain(cfg('scale_rewards'));
    expect(detail.find((d) => d.loc.join('.') === 'body.model_id')?.type).toBe('uuid_format');
    expect(detail.find((d) => d.loc.join('.') === cfg('learning_rat'))?.type).toBe('extra_forbidden');
  });

  it('checks each documented range at its bounds', async () => {
    const ok = async (experimental_config: Record<string, unknown>) =>
      (await post(server(), '/v1/preview/training-jobs', { model_id: randomUUID(), trajectory_groups: GROUPS, experimental_config })).status;
    expect(await ok({ learning_rate: 1e-9, epsilon: 0.999, epsilon_high: 0.999, advantage_balance: -1 })).toBe(200);
    expect(await ok({ advantage_balance: 1, svc_k2_tau: 1e-6, max_negative_advantage_importance_sampling_weight: 10 })).toBe(200);
    expect(await ok({ learning_rate: -1e-5 })).toBe(422);
    expect(await ok({ epsilon: 0 })).toBe(422);
    expect(await ok({ epsilon_high: 1 })).toBe(422);
    expect(await ok({ advantage_balance: -1.01 })).toBe(422);
    expect(await ok({ epsilon: 0.3, epsilon_high: 0.2 })).toBe(422);
  });

  it('answers 422 for an empty group, a trajectory without reward, and a missing model_id', async () => {
    const cases: [unknown, string[]][] = [
      [{ model_id: randomUUID(), trajectory_groups: [{ trajectories: [] }] }, ['body', 'trajectory_groups', '0', 'trajectories']],
      [{ model_id: randomUUID(), trajectory_groups: [{ trajectories: [{}] }] }, ['body', 'trajectory_groups', '0', 'trajectories', '0', 'reward']],
      [{ trajectory_groups: GROUPS }, ['body', 'model_id']],
    ];
    for (const [body, loc] of cases) {
      const res = await post(server(), '/v1/preview/training-jobs', body);
      expect(res.status).toBe(422);
      const { detail } = (await res.json()) as { detail: { loc: string[] }[] };
      expect(detail.map((d) => d.loc)).toContainEqual(loc);
    }
  });
});

describe('training reads (extension): jobs read back, stored groups, models, and their export formats', () => {
  const TOOL = { type: 'function', function: { name: 'calc', parameters: { type: 'object' } } };
  const CALL = { id: 'c1', type: 'function', function: { name: 'calc', arguments: '{"e":"2+2"}' } };
  const good = {
    reward: 1,
    tools: [TOOL],
    messages_and_choices: [
      { role: 'user', content: '2+2?' },
      { index: 0, message: { role: 'assistant', content: null, refusal: null, tool_calls: [CALL] }, finish_reason: 'tool_calls', logprobs: null },
      { role: 'tool', tool_call_id: 'c1', content: '4' },
      { index: 0, message: { role: 'assistant', content: '4', refusal: null, annotations: [] }, finish_reason: 'stop' },
    ],
  };
  const bad = { reward: 0, messages_and_choices: [{ role: 'user', content: '2+2?' }, { index: 0, message: { role: 'assistant', content: '5' }, finish_reason: 'stop' }] };
  const unanswered = { reward: 2, messages_and_choices: [{ role: 'user', content: '3+3?' }] };

  it('a job is read back with its status, counts and creation time, listed per model; an unknown id is 404', async () => {
    const model = randomUUID();
    const created = await client().trainingJobs.create({ model_id: model, trajectory_groups: GROUPS, experimental_config: { learning_rate: 1e-5 } });
    const job = await client().trainingJobs.retrieve(created.id);
    expect(job).toEqual({
      id: created.id, model_id: model, status: 'queued', created_at: created.created_at, group_count: 2, trajectory_count: 3,
      experimental_config: { learning_rate: 1e-5 }, status_detail: expect.stringContaining('never runs them'),
    });
    const second = await client().trainingJobs.create({ model_id: model, trajectory_groups: GROUPS });
    expect((await client().trainingJobs.list(model)).jobs.map((j) => [j.id, j.experimental_config])).toEqual([[created.id, { learning_rate: 1e-5 }], [second.id, null]]);
    await expect(client().trainingJobs.retrieve(randomUUID())).rejects.toBeInstanceOf(NotFoundError);
    expect((await post(server(), '/v1/preview/training-jobs/read', {})).status).toBe(422);
  });

  it('logged groups read back per split in logging order, models listed; exported as groups and as OpenAI fine-tuning lines', async () => {
    const model = `m-${randomUUID()}`;
    await client().trajectories.log(model, { split: 'train', trajectory_groups: [{ trajectories: [bad, good] }, { trajectories: [unanswered] }] });
    await client().trajectories.log(model, { split: 'val', trajectory_groups: [{ trajectories: [good] }] });
    const all = await client().trajectories.query(model);
    expect(all.groups.map((g) => [g.split, g.trajectories.map((t) => t.reward)])).toEqual([['train', [0, 1]], ['train', [2]], ['val', [1]]]);
    expect(all.groups[0]!.trajectories[1]).toEqual(good);
    expect(all.groups[0]!.logged_at).toBe(all.groups[1]!.logged_at);
    expectIsoUtc(all.groups[2]!.logged_at);
    const train = (await client().trajectories.query(model, { split: 'train' })).groups;
    expect(train).toHaveLength(2);
    expect((await post(server(), `/v1/preview/models/${model}/trajectories/query`, { split: 'dev' })).status).toBe(422);
    const models = (await client().trajectories.models()).models;
    expect(models.find((m) => m.model_id === model)).toMatchObject({ trajectory_count: 4, group_count: 3 });

    expect(groupLines(train).map((l) => JSON.parse(l) as unknown)).toEqual([{ trajectories: [bad, good] }, { trajectories: [unanswered] }]);
    const sft = openAiSftLines(train, 1).map((l) => JSON.parse(l) as unknown);
    expect(sft).toEqual([{
      messages: [
        { role: 'user', content: '2+2?' },
        { role: 'assistant', tool_calls: [CALL] },
        { role: 'tool', tool_call_id: 'c1', content: '4' },
        { role: 'assistant', content: '4' },
      ],
      tools: [TOOL],
    }]);
    expect(openAiSftLines(train, 2).map((l) => (JSON.parse(l) as { messages: { content?: string }[] }).messages.at(-1)!.content)).toEqual(['4', '5']);
  });
});
