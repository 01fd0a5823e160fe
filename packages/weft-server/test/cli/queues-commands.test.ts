// `weft queues field/create/add/ls/show/export` of the built CLI against a real server: fields by name, a queue filled
// by op and by hand, its progress per reviewer after answers given over HTTP, and the answers exported as JSONL.
import { describe, expect, it } from 'vitest';
import { Client } from 'weft-trace';
import type { QueueItem } from 'weft-trace/wire';
import { runCli } from 'weft-test-kit/child-processes.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';

const run = runCli;

const server = useTestServer();
const project = uniqueProject('queues-cli');
const conn = (): string[] => ['--base-url', server().url, '--project', project];
const post = async <T>(path: string, body: unknown): Promise<T> =>
  (await (await fetch(`${server().url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as T;

describe('weft queues', () => {
  it('creates fields and a queue, adds calls, shows progress and exports the answers as JSONL', async () => {
    const client = new Client({ baseUrl: server().url, maxRetries: 0 });
    const at = Date.now() - 60_000;
    await client.calls.upsertBatch({
      batch: ['a1', 'a2', 'a3', 'b1'].flatMap((id, i) => [
        { mode: 'start', req: { start: { project_id: project, id, trace_id: `t-${id}`, op_name: id.startsWith('a') ? 'answer' : 'other', started_at: new Date(at + i).toISOString(), inputs: {}, attributes: {} } } },
        { mode: 'end', req: { end: { project_id: project, id, ended_at: new Date(at + i + 1).toISOString(), output: 'x', summary: {} } } },
      ]) as never,
    });
    await client.close();
    const score = await run(['queues', 'field', 'quality', ...conn(), '--type', 'score', '--min', '1', '--max', '5', '--step', '1', '--description', '1 poor, 5 great']);
    expect(score.stderr).toBe('');
    expect(score.stdout).toMatch(/^field quality \(score\), version 0: svc:\/\/\//);
    expect((await run(['queues', 'field', 'tone', ...conn(), '--type', 'category'])).code).not.toBe(0);
    const created = await run(['queues', 'create', 'triage', ...conn(), '--field', 'quality', '--instructions', 'Rate it.']);
    expect(created.stdout).toMatch(/^created queue triage/);
    expect((await run(['queues', 'add', 'triage', ...conn(), '--op', 'answer'])).stdout).toBe('added 3 item(s) to triage\n');
    expect((await run(['queues', 'add', 'triage', ...conn(), '--call', 'b1', '--call', 'a1'])).stdout).toBe('added 1 item(s) to triage\n');
    const fields = await post<{ fields: { ref: string }[] }>('/weft/annotation_fields/list', { project_id: project });
    for (const [reviewer, value] of [['alice', 4], ['bob', 2]] as const) {
      const { item } = await post<{ item: QueueItem }>('/weft/queues/next', { project_id: project, queue_id: 'triage', reviewer });
      await post('/weft/queues/answer', { project_id: project, queue_id: 'triage', item_id: item.id, reviewer, answers: [{ field_ref: fields.fields[0]!.ref, value }] });
    }
    const ls = await run(['queues', 'ls', ...conn()]);
    expect(ls.stdout).toMatch(/triage\s+2\/4\s+2\s+0\s+0\s+by hand/);
    const show = await run(['queues', 'show', 'triage', ...conn()]);
    expect(show.stdout).toContain('progress: 2/4 reviewed (2 done, 0 skipped), 2 pending, 0 taken');
    expect(show.stdout).toContain('  alice: 1 done, 0 skipped');
    const exported = await run(['queues', 'export', 'triage', ...conn()]);
    const lines = exported.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l['call_id'], l['field'], l['value'], l['reviewer']])).toEqual([['a1', 'quality', 4, 'alice'], ['a2', 'quality', 2, 'bob']]);
  });

  it('adds the same rows of two evaluation runs as pairs (--runs)', async () => {
    const client = new Client({ baseUrl: server().url, maxRetries: 0 });
    const at = new Date(Date.now() - 60_000).toISOString();
    const start = (id: string, op: string, parent: string | null, inputs: Record<string, unknown>) =>
      ({ mode: 'start', req: { start: { project_id: project, id, trace_id: `t-${parent ?? id}`, parent_id: parent, op_name: op, started_at: at, inputs, attributes: {} } } });
    const end = (id: string, output: unknown) => ({ mode: 'end', req: { end: { project_id: project, id, ended_at: at, output, summary: {} } } });
    const rows = (run: string, questions: string[]) => questions.flatMap((q) => [
      start(`${run}-${q}`, 'Evaluation.predict_and_score', run, { example: { q } }), end(`${run}-${q}`, { output: `${run} says ${q}`, scores: {} })]);
    await client.calls.upsertBatch({
      batch: [start('runA', 'Evaluation.evaluate', null, {}), start('runB', 'Evaluation.evaluate', null, {}), ...rows('runA', ['x', 'y', 'z']), ...rows('runB', ['y', 'x']),
        end('runA', {}), end('runB', {})] as never,
    });
    await client.close();
    await run(['queues', 'field', 'better', ...conn(), '--type', 'preference']);
    expect((await run(['queues', 'create', 'ab', ...conn(), '--field', 'better'])).code).toBe(0);
    const added = await run(['queues', 'add', 'ab', ...conn(), '--runs', 'runA,runB']);
    expect([added.stderr, added.stdout]).toEqual(['', 'added 2 item(s) to ab\n']);
    const { items } = await post<{ items: QueueItem[] }>('/weft/queues/items', { project_id: project, queue_id: 'ab' });
    expect(items.map((i) => [i.call_id, i.other_call_id]).sort()).toEqual([['runA-x', 'runB-x'], ['runA-y', 'runB-y']]);
  });
});
