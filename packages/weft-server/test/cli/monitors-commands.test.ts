// `weft monitors add/ls/rm/run` of the built CLI against a real server, and the LLM judge a monitor scores with:
// an OpenAI-compatible loopback fake answering its verdicts, reached through OPENAI_API_KEY / OPENAI_BASE_URL, its
// requests paced by the rpm option (p-queue).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'weft-trace';
import { judgeClient } from 'weft-trace/src/eval/monitors/judge-client.js';
import { monitorTriggerRef, type Monitor } from 'weft-trace/viewer';
import { runCli } from 'weft-test-kit/child-processes.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { listenLoopback, onJsonRequest } from 'weft-test-kit/fake-llm.js';
import { chatCompletion } from 'weft-test-kit/fake-llm-openai.js';
import { useTestServer } from 'weft-test-kit/server.js';

const run = runCli;

const server = useTestServer();
const project = uniqueProject('monitors-cli');
/** The judge's fake: scores an output 0.8 when it holds "Paris", else 0.2; keeps each request's body. */
let judge: { url: string; close(): Promise<void> };
const asked: Record<string, unknown>[] = [];

beforeAll(async () => {
  judge = await listenLoopback(onJsonRequest((_req, res, path, _q, body) => {
    asked.push({ path, ...body });
    const prompt = JSON.stringify(body?.['messages'] ?? '');
    const reply = chatCompletion({ model: String(body?.['model']), chunks: 1, kind: 'text', cut: false, includeUsage: false, logprobs: false });
    (reply['choices'] as { message: { content: string } }[])[0]!.message.content = JSON.stringify({ score: prompt.includes('Paris') ? 0.8 : 0.2, reason: 'fake' });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply));
  }));
  const client = new Client({ baseUrl: server().url, maxRetries: 0 });
  const ago = Date.now() - 600_000;
  const call = (id: string, output: string, i: number) => [
    { mode: 'start', req: { start: { project_id: project, id, trace_id: `t-${id}`, op_name: 'capital', started_at: new Date(ago + i).toISOString(), inputs: { q: 'capital of France?' }, attributes: {} } } },
    { mode: 'end', req: { end: { project_id: project, id, ended_at: new Date(ago + i + 10).toISOString(), output, summary: {} } } },
  ];
  await client.calls.upsertBatch({ batch: [...call('c1', 'Paris', 1), ...call('c2', 'Lyon', 2), ...call('c3', 'It is Paris', 3)] as never });
  await client.close();
});
afterAll(() => judge.close());

const conn = (): string[] => ['--base-url', server().url, '--project', project];

describe('weft monitors', () => {
  it('adds, lists and removes monitors', async () => {
    const added = await run(['monitors', 'add', ...conn(), '--op', 'capital', '--scorer', 'json_valid', '--sample', '0.25', '--json']);
    expect(added.stderr).toBe('');
    const m = JSON.parse(added.stdout) as Monitor;
    expect([m.op_name, m.scorer, m.sample_rate]).toEqual(['capital', 'json_valid', 0.25]);
    const ls = await run(['monitors', 'ls', ...conn()]);
    expect(ls.stdout).toContain(m.id);
    expect(ls.stdout).toContain('json_valid');
    expect((await run(['monitors', 'rm', ...conn(), m.id])).stdout).toBe(`removed monitor ${m.id}\n`);
    const again = await run(['monitors', 'rm', ...conn(), m.id]);
    expect([again.code, again.stderr]).toEqual([1, `weft: no monitor ${m.id} in project ${project} (weft monitors ls lists them)\n`]);
  });

  it('runs an LLM judge monitor as a worker, through the configured OpenAI-compatible provider', async () => {
    const added = await run(['monitors', 'add', ...conn(), '--op', 'capital', '--scorer', 'llm_judge', '--model', 'judge-mini', '--rubric', 'Names the capital.', '--json']);
    const m = JSON.parse(added.stdout) as Monitor;
    const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${judge.url}/v1` };
    const pass = await run(['monitors', 'run', ...conn(), '--once', '--settle', '0'], env);
    expect(pass.stderr).toBe('');
    expect(JSON.parse(pass.stdout)).toEqual({ read: 3, scored: 3 });
    expect(asked.map((a) => [a['path'], a['model']])).toEqual(Array(3).fill(['/v1/chat/completions', 'judge-mini']));
    expect(JSON.stringify(asked[0]!['messages'])).toContain('Names the capital.');
    const client = new Client({ baseUrl: server().url, maxRetries: 0 });
    const records = await client.calls.streamQuery({ project_id: project, include_feedback: true }).toArray();
    await client.close();
    const scores = Object.fromEntries(records.map((r) => [r.id, r.summary!.feedback!.map((f) => [f.feedback_type, f.trigger_ref, (f.payload['output'] as { score: number }).score])]));
    const ref = monitorTriggerRef(project, m.id);
    expect(scores).toEqual({ c1: [['wandb.runnable.llm_judge', ref, 0.8]], c2: [['wandb.runnable.llm_judge', ref, 0.2]], c3: [['wandb.runnable.llm_judge', ref, 0.8]] });
  });

  it('paces the judge: no more than rpm requests start in a minute', async () => {
    const before = asked.length;
    const client = judgeClient({ rpm: 2, apiKey: 'sk-test', baseUrl: `${judge.url}/v1` });
    const body = { model: 'judge-mini', messages: [{ role: 'user', content: 'x' }] };
    const replies = Array.from({ length: 4 }, () => client.chat.completions.create(body));
    for (const r of replies) r.catch(() => {});
    await Promise.all(replies.slice(0, 2));
    // the first two answered; the other two wait for the next minute, unsent
    expect(asked.length - before).toBe(2);
    expect(client.queue.size).toBe(2);
    client.queue.clear();
  });
});
