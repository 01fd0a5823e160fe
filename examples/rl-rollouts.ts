// Trajectories from traces: a small calculator agent on the OpenAI SDK (wrapOpenAI), each run a rollout captured by
// trajectory(); 3 rounds of 4 arithmetic problems x 4 rollouts gathered into groups and logged for a model, a
// training job created from the last round and read back, and the groups exported (interface JSONL, OpenAI SFT).
// Runs against a loopback fake of the OpenAI API (packages/test-kit/src/fake-llm.ts) unless OPENAI_API_KEY is set.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { addMetric, Client, gatherTrajectoryGroups, init, op, setReward, shutdown, trajectory, wrapOpenAI, type TrajectoryGroup } from '../packages/weft-trace/src/index.js';
import { groupLines, openAiSftLines } from '../packages/weft-trace/src/trajectories/export-formats.js';
import { startFakeLlm } from '../packages/test-kit/src/fake-llm.js';
import { connectServer } from './local-server.js';
import { prng } from './prng.js';

const PROJECT = process.env['WEFT_PROJECT'] ?? 'local/rl-rollouts';
const MODEL = process.env['OPENAI_MODEL'] ?? 'gpt-4o-mini';
const OPS = { '+': (a: number, b: number) => a + b, '-': (a: number, b: number) => a - b, '*': (a: number, b: number) => a * b } as const;
type Problem = { a: number; op: keyof typeof OPS; b: number };

const TOOLS: OpenAI.ChatCompletionTool[] = [{
  type: 'function',
  function: {
    name: 'calculator',
    description: 'Evaluates `a <op> b` for integers a and b and op one of + - *',
    parameters: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
  },
}];

const calculator = op(function calculator(expression: string): number {
  const m = /^(-?\d+) ([-+*]) (-?\d+)$/.exec(expression.trim());
  if (!m) throw new Error(`cannot evaluate ${JSON.stringify(expression)}`);
  return OPS[m[2] as Problem['op']](Number(m[1]), Number(m[3]));
});

async function main(): Promise<void> {
  const server = await connectServer();
  const fake = process.env['OPENAI_API_KEY'] ? undefined : await startFakeLlm();
  init({ project: PROJECT, baseUrl: server.url });
  const openai = wrapOpenAI(new OpenAI({ apiKey: process.env['OPENAI_API_KEY'] ?? 'sk-fake', baseURL: fake?.openaiURL, maxRetries: 0 }));
  const client = new Client({ baseUrl: server.url });
  const modelId = process.env['WEFT_MODEL_ID'] ?? randomUUID();

  /** One rollout: the agent loop; reward 1 for the right number, else 0. */
  const solve = trajectory(async function solve(p: Problem): Promise<string> {
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'system', content: 'Use the calculator, then answer with the number only.' },
      { role: 'user', content: `What is ${p.a} ${p.op} ${p.b}?` },
    ];
    let answer = '';
    for (let turn = 0; turn < 4 && answer === ''; turn++) {
      const r = await openai.chat.completions.create({ model: MODEL, messages, tools: TOOLS });
      const message = r.choices[0]!.message;
      messages.push(message);
      if (!message.tool_calls?.length) answer = message.content ?? '';
      for (const call of message.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        const { expression } = JSON.parse(call.function.arguments) as { expression: string };
        messages.push({ role: 'tool', tool_call_id: call.id, content: String(calculator(expression)) });
      }
    }
    const correct = Number(answer) === OPS[p.op](p.a, p.b);
    setReward(correct ? 1 : 0);
    addMetric('correct', correct);
    addMetric('turns', messages.filter((m) => m.role === 'assistant').length);
    return answer;
  });

  console.log(`weft RL rollouts: ${server.url}, project ${PROJECT}, model ${modelId}\n`);
  const random = prng(29);
  const pick = (n: number): number => Math.floor(random() * n);
  let last: TrajectoryGroup[] = [];
  for (let round = 1; round <= 3; round++) {
    const problems: Problem[] = Array.from({ length: 4 }, () => ({ a: pick(50), op: (['+', '-', '*'] as const)[pick(3)]!, b: pick(20) }));
    last = await gatherTrajectoryGroups(problems, { rollouts: 4, concurrency: 4 }, solve);
    const res = await client.trajectories.log(modelId, { split: 'train', trajectory_groups: last });
    const m = res.metrics.train;
    const rewards = last.map((g) => g.trajectories.map((t) => t.reward).join(''));
    console.log(`round ${round}: logged ${res.logged.trajectory_count} trajectories in ${res.logged.group_count} groups ` +
      `(rewards per group ${rewards.join(' ')}); train so far: reward mean=${m.reward_mean?.toFixed(3)} group-std=${m.group_reward_std_mean?.toFixed(3)} ` +
      `messages=${m.message_count_mean?.toFixed(1)} turns=${m.metric_means['turns']?.toFixed(2)}`);
  }

  const created = await client.trainingJobs.create({ model_id: modelId, trajectory_groups: last, experimental_config: { learning_rate: 1e-5, ppo: true } });
  const job = await client.trainingJobs.retrieve(created.id);
  console.log(`\nTraining job ${job.id}: ${job.status}, ${job.group_count} groups, ${job.trajectory_count} trajectories, created ${job.created_at}`);
  console.log(`  (${job.status_detail})`);

  const { groups } = await client.trajectories.query(modelId, { split: 'train' });
  const dir = mkdtempSync(path.join(tmpdir(), 'weft-rl-'));
  const groupsFile = path.join(dir, 'groups.jsonl');
  const sftFile = path.join(dir, 'sft.jsonl');
  writeFileSync(groupsFile, groupLines(groups).map((l) => `${l}\n`).join(''));
  const sft = openAiSftLines(groups, 1);
  writeFileSync(sftFile, sft.map((l) => `${l}\n`).join(''));
  console.log(`\nExported ${groups.length} groups to ${groupsFile} and ${sft.length} fine-tuning examples to ${sftFile}`);
  console.log(`first example: ${sft[0]?.slice(0, 160)}...`);
  const url = server.startedHere ? 'http://127.0.0.1:6345' : server.url;
  if (server.startedHere) console.log('\nThis run used an in-memory server; to keep the data, start `npx weft serve` and run with WEFT_BASE_URL=http://127.0.0.1:6345.');
  console.log(`The same export from the command line:\n  weft trajectories export --base-url ${url} --model ${modelId} --format openai-sft --top-k 1`);
  console.log(`In the viewer: ${url}/#/models/${modelId}`);

  await client.close();
  await shutdown();
  await fake?.close();
  await server.close();
}

await main();
