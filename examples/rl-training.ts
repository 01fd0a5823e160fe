// RL trajectory logging + training job: rolls out a toy arithmetic policy in groups, logs train and val
// trajectories (the server answers their metrics), then creates a training job from the train groups.
import { randomUUID } from 'node:crypto';
import type { TrajectoryGroup, TrajectoryMetrics } from '../packages/weft-trace/src/schema/index.js';
import { runWithClient } from './run-client.js';
import { prng } from './prng.js';

const ROLLOUTS_PER_PROMPT = 4;
const TRAIN_PROMPTS = [[3, 4], [12, 30], [7, 8], [25, 17], [9, 9]] as const;
const VAL_PROMPTS = [[6, 7], [40, 2]] as const;

/** The "policy": answers a + b, off by one now and then. */
function rollout(a: number, b: number, random: () => number): TrajectoryGroup['trajectories'][number] {
  const started = Date.now();
  const slip = random() < 0.35 ? (random() < 0.5 ? -1 : 1) : 0;
  const answer = a + b + slip;
  const correct = answer === a + b;
  return {
    messages_and_choices: [
      { role: 'system', content: 'Answer with a number only.' },
      { role: 'user', content: `What is ${a} + ${b}?` },
      { finish_reason: 'stop', index: 0, message: { role: 'assistant', content: String(answer) } },
    ],
    reward: correct ? 1 : -Math.abs(slip) * 0.5,
    metrics: { correct, abs_error: Math.abs(slip), completion_tokens: String(answer).length },
    metadata: { prompt: `${a}+${b}` },
    start_time: new Date(started).toISOString(),
    initial_policy_version: 0,
    final_policy_version: 0,
  };
}

function groups(prompts: readonly (readonly [number, number])[], random: () => number): TrajectoryGroup[] {
  return prompts.map(([a, b]) => ({ trajectories: Array.from({ length: ROLLOUTS_PER_PROMPT }, () => rollout(a, b, random)) }));
}

const fmt = (n: number | null): string => (n === null ? '—' : n.toFixed(3));

function report(name: string, m: TrajectoryMetrics): void {
  const extra = Object.entries(m.metric_means).map(([k, v]) => `${k}=${v.toFixed(3)}`).join(' ');
  console.log(`  ${name.padEnd(7)} trajectories=${m.trajectory_count} groups=${m.group_count} reward mean=${fmt(m.reward_mean)} ` +
    `std=${fmt(m.reward_std)} min=${fmt(m.reward_min)} max=${fmt(m.reward_max)} group-std=${fmt(m.group_reward_std_mean)} ` +
    `messages=${fmt(m.message_count_mean)} ${extra}`.trimEnd());
}

runWithClient(async (client, server) => {
  const modelId = process.env['WEFT_MODEL_ID'] ?? randomUUID();
  console.log(`weft RL training — ${server.url}, model ${modelId}\n`);
  const random = prng(7);
  const train = groups(TRAIN_PROMPTS, random);
  const val = groups(VAL_PROMPTS, random);

  await client.trajectories.log(modelId, { split: 'train', trajectory_groups: train });
  const logged = await client.trajectories.log(modelId, { split: 'val', trajectory_groups: val });
  console.log('Metrics computed by the server:');
  for (const split of ['train', 'val', 'test', 'overall'] as const) report(split, logged.metrics[split]);

  const job = await client.trainingJobs.create({
    model_id: modelId,
    trajectory_groups: train,
    experimental_config: { learning_rate: 5e-6, epsilon: 0.2, epsilon_high: 0.28, scale_rewards: true, ppo: true },
  });
  console.log(`\nTraining job ${job.id}: ${job.status ?? 'created'}`);
});
