// @weft-test: postgres
// Annotation fields and review queues (issue 50) on both stores, over real HTTP: fields as versioned objects, queues
// filled by hand and by a filter, two reviewers (and a crowd) taking items at once without any item given twice,
// expired claims returned to the queue, progress that adds up, answers stored as feedback on the calls (annotation_ref,
// queue_id) and counted by /feedback/stats, and dynamic queues filled from new calls and from a monitor's low scores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'weft-trace';
import { isSampled } from 'weft-trace/eval';
import { MONITOR_PATHS, type Monitor } from 'weft-trace/viewer';
import type { AnnotationField, Queue, QueueItem, QueueProgress } from 'weft-trace/wire';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer({ monitors: { intervalMs: 86_400_000, settleMs: 0 }, queues: { intervalMs: 86_400_000, settleMs: 0 } });
const project = uniqueProject('queues');
let client: Client;

const post = async (path: string, body: unknown): Promise<Response> =>
  fetch(`${server().url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
async function ok<T>(path: string, body: unknown): Promise<T> {
  const res = await post(path, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
const field = (body: Record<string, unknown>) => ok<AnnotationField>('/weft/annotation_fields/create', { project_id: project, ...body });
const next = (queue: string, reviewer: string, claim_seconds?: number) =>
  ok<{ item: QueueItem | null }>('/weft/queues/next', { project_id: project, queue_id: queue, reviewer, ...(claim_seconds ? { claim_seconds } : {}) });
const progressOf = async (queue: string) => (await ok<{ progress: QueueProgress }>('/weft/queues/read', { project_id: project, queue_id: queue })).progress;

const t0 = Date.now() - 3_600_000;
const iso = (ms: number): string => new Date(ms).toISOString();
async function addCalls(op: string, n: number, at = t0, output: (i: number) => unknown = (i) => `out ${i}`, prefix = op): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(4, '0')}`);
  await client.calls.upsertBatch({
    batch: ids.flatMap((id, i) => [
      { mode: 'start', req: { start: { project_id: project, id, trace_id: `t-${id}`, op_name: op, started_at: iso(at + i), inputs: { messages: [{ role: 'user', content: `q ${i}` }] }, attributes: {} } } },
      { mode: 'end', req: { end: { project_id: project, id, ended_at: iso(at + i + 5), output: output(i), summary: {} } } },
    ]) as never,
  });
  return ids;
}

let thumbs: AnnotationField;
let score: AnnotationField;
let tone: AnnotationField;
let calls: string[];

beforeAll(async () => {
  client = new Client({ baseUrl: server().url, maxRetries: 0 });
  calls = await addCalls('answer', 60);
  thumbs = await field({ name: 'helpful', type: 'thumbs', description: 'Did it help?' });
  score = await field({ name: 'quality', type: 'score', min: 1, max: 5, step: 1, description: '1 poor, 5 great' });
  tone = await field({ name: 'tone', type: 'category', labels: ['formal', 'casual', 'rude'] });
});
afterAll(() => client.close());

describe('annotation fields', () => {
  it('are versioned objects: the same spec keeps its digest, a new one is the next version; the list has the latest', async () => {
    expect(thumbs.ref).toBe(`svc:///${project}/object/helpful:${thumbs.digest}`);
    expect((await field({ name: 'helpful', type: 'thumbs', description: 'Did it help?' })).digest).toBe(thumbs.digest);
    const v1 = await field({ name: 'draft', type: 'text' });
    const v2 = await field({ name: 'draft', type: 'text', description: 'Notes' });
    expect([v1.version_index, v2.version_index]).toEqual([0, 1]);
    const { fields } = await ok<{ fields: AnnotationField[] }>('/weft/annotation_fields/list', { project_id: project });
    expect(fields.find((f) => f.name === 'draft')).toMatchObject({ digest: v2.digest, description: 'Notes' });
    const read = await ok<{ obj: { val: Record<string, unknown>; base_object_class: string } }>('/obj/read', { project_id: project, object_id: 'quality', digest: score.digest });
    expect(read.obj.base_object_class).toBe('AnnotationSpec');
    expect(read.obj.val['field_schema']).toEqual({ type: 'number', minimum: 1, maximum: 5, multipleOf: 1 });
  });

  it('refuse a category without labels and a score range upside down with 422 detail', async () => {
    const bad = await post('/weft/annotation_fields/create', { project_id: project, name: 'x', type: 'category' });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(['body', 'labels']);
    expect((await post('/weft/annotation_fields/create', { project_id: project, name: 'y', type: 'score', min: 5, max: 1 })).status).toBe(422);
  });
});

describe('review queues', () => {
  let queue: Queue;
  beforeAll(async () => {
    queue = await ok<Queue>('/weft/queues/create', { project_id: project, name: 'triage', instructions: 'Rate each answer.', fields: [thumbs.ref, score.ref, tone.ref] });
  });

  it('refuse an unknown field ref (422) and a second queue of the same name (409)', async () => {
    const bad = await post('/weft/queues/create', { project_id: project, name: 'other', fields: [`svc:///${project}/object/nope:abc`] });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(['body', 'fields', '0']);
    expect((await post('/weft/queues/create', { project_id: project, name: 'triage', fields: [thumbs.ref] })).status).toBe(409);
  });

  it('add items by hand and by a filter, each once', async () => {
    expect((await ok<{ added: number }>('/weft/queues/add', { project_id: project, queue_id: queue.id, items: calls.slice(0, 10).map((call_id) => ({ call_id })) })).added).toBe(10);
    expect((await ok<{ added: number }>('/weft/queues/add', { project_id: project, queue_id: 'triage', filter: { op_names: ['answer'] } })).added).toBe(50);
    expect((await ok<{ added: number }>('/weft/queues/add', { project_id: project, queue_id: queue.id, items: [{ trace_id: `t-${calls[0]}` }] })).added).toBe(0);
    expect(await progressOf(queue.id)).toMatchObject({ total: 60, pending: 60, done: 0 });
  });

  it('never give one item to two reviewers working at once, and progress adds up', async () => {
    const crowd = await Promise.all(Array.from({ length: 12 }, (_, i) => next(queue.id, `crowd-${i}`)));
    const crowdIds = crowd.map((r) => r.item!.id);
    expect(new Set(crowdIds).size).toBe(12);
    // each of the crowd skips its item; then two reviewers drain the queue at once
    await Promise.all(crowd.map((r, i) => ok('/weft/queues/skip', { project_id: project, queue_id: queue.id, item_id: r.item!.id, reviewer: `crowd-${i}` })));
    const given = new Map<string, string>();
    const work = async (reviewer: string): Promise<number> => {
      let answered = 0;
      for (let r = await next(queue.id, reviewer); r.item; r = await next(queue.id, reviewer)) {
        expect(given.get(r.item.id)).toBeUndefined();
        given.set(r.item.id, reviewer);
        await ok('/weft/queues/answer', {
          project_id: project, queue_id: queue.id, item_id: r.item.id, reviewer,
          answers: [{ field_ref: thumbs.ref, value: answered % 2 === 0 }, { field_ref: score.ref, value: 1 + (answered % 5) }, { field_ref: tone.ref, value: 'formal' }],
        });
        answered += 1;
      }
      return answered;
    };
    const [alice, bob] = await Promise.all([work('alice'), work('bob')]);
    expect(alice + bob).toBe(48);
    expect(alice).toBeGreaterThan(0);
    expect(bob).toBeGreaterThan(0);
    const p = await progressOf(queue.id);
    expect(p).toMatchObject({ total: 60, pending: 0, taken: 0, done: 48, skipped: 12 });
    expect(p.reviewers['alice']).toEqual({ done: alice, skipped: 0 });
    expect(p.reviewers['bob']).toEqual({ done: bob, skipped: 0 });
    expect(Object.values(p.reviewers).reduce((n, r) => n + r.done + r.skipped, 0)).toBe(60);
  });

  it('store answers as feedback on the call, with annotation_ref and queue_id, counted by /feedback/stats', async () => {
    const records = [];
    for await (const r of client.calls.streamQuery({ project_id: project, filter: { call_ids: calls }, include_feedback: true })) records.push(...(r.summary?.feedback ?? []));
    const quality = records.filter((f) => f.feedback_type === 'wandb.annotation.quality');
    expect(quality).toHaveLength(48);
    expect(quality.every((f) => f.annotation_ref === score.ref && f.queue_id === queue.id)).toBe(true);
    const stats = await ok<{ window_stats: Record<string, Record<string, number>> }>('/feedback/stats', {
      project_id: project, start: iso(Date.now() - 3_600_000), feedback_type: 'wandb.annotation.quality', metrics: [{ json_path: 'value', value_type: 'numeric', aggregations: ['count', 'avg'] }],
    });
    expect(stats.window_stats['value']!['count']).toBe(48);
    const { answers } = await ok<{ answers: unknown[] }>('/weft/queues/answers', { project_id: project, queue_id: queue.id });
    expect(answers).toHaveLength(48 * 3);
  });
});

describe('claims and answers', () => {
  let queue: Queue;
  let ids: string[];
  beforeAll(async () => {
    ids = await addCalls('claim', 3);
    queue = await ok<Queue>('/weft/queues/create', { project_id: project, name: 'claims', fields: [score.ref] });
    await ok('/weft/queues/add', { project_id: project, queue_id: queue.id, items: ids.map((call_id) => ({ call_id })) });
  });

  it('return an expired claim to the queue, refuse a bad answer (422) and another reviewer\'s item (409)', async () => {
    const first = (await next(queue.id, 'carol', 1)).item!;
    expect((await next(queue.id, 'carol')).item!.id).toBe(first.id); // the held item, renewed... for 600 s now
    const held = (await next(queue.id, 'dave')).item!;
    expect(held.id).not.toBe(first.id);
    const taken = await post('/weft/queues/answer', { project_id: project, queue_id: queue.id, item_id: first.id, reviewer: 'dave', answers: [{ field_ref: score.ref, value: 3 }] });
    expect(taken.status).toBe(409);
    const bad = await post('/weft/queues/answer', { project_id: project, queue_id: queue.id, item_id: held.id, reviewer: 'dave', answers: [{ field_ref: score.ref, value: 7 }] });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(['body', 'answers', '0', 'value']);
    // answering again replaces the reviewer's earlier answers to the item
    for (const value of [3, 4]) await ok('/weft/queues/answer', { project_id: project, queue_id: queue.id, item_id: held.id, reviewer: 'dave', answers: [{ field_ref: score.ref, value }] });
    const { answers } = await ok<{ answers: { call_id: string; payload: unknown }[] }>('/weft/queues/answers', { project_id: project, queue_id: queue.id });
    expect(answers.map((a) => [a.call_id, a.payload])).toEqual([[held.call_id, { value: 4 }]]);
    // a short claim expires: the item goes back to the queue and the next reviewer gets it
    const eve = (await next(queue.id, 'eve', 1)).item!;
    await new Promise((r) => setTimeout(r, 1100));
    expect((await progressOf(queue.id)).pending).toBe(1);
    expect((await next(queue.id, 'frank')).item!.id).toBe(eve.id);
  });
});

describe('dynamic queues', () => {
  it('fill from new calls matching the filter, a sampled fraction, never from calls before the queue', async () => {
    await addCalls('chat-old', 5);
    const all = await ok<Queue>('/weft/queues/create', { project_id: project, name: 'new-chats', fields: [thumbs.ref], dynamic: { filter: { op_names: ['chat'] } } });
    const half = await ok<Queue>('/weft/queues/create', { project_id: project, name: 'half-chats', fields: [thumbs.ref], dynamic: { filter: { op_names: ['chat'] }, sample_rate: 0.5 } });
    const ids = await addCalls('chat', 200, Date.now());
    await addCalls('other', 5, Date.now());
    await new Promise((r) => setTimeout(r, 250)); // every call started before the fill's now (its settle time is 0)
    await server().queueFill!.runNow();
    expect((await progressOf(all.id)).total).toBe(200);
    const items = (await ok<{ items: QueueItem[] }>('/weft/queues/items', { project_id: project, queue_id: half.id })).items;
    expect(items.map((i) => i.call_id).sort()).toEqual(ids.filter((id) => isSampled(id, 0.5)).sort());
    await addCalls('chat', 1, Date.now() + 60_000, undefined, 'later');
    expect(await server().queueFill!.runNow()).toBe(0); // a call whose start is not yet past waits for a later run
    expect((await progressOf(all.id)).total).toBe(200);
  });

  it('fill from a monitor\'s low scores', async () => {
    await addCalls('judged', 20, t0, (i) => (i % 4 === 0 ? 'not json {' : `{"a":${i}}`));
    const monitor = (await ok<Monitor>(MONITOR_PATHS.create, { project_id: project, op_name: 'judged', scorer: 'json_valid', sample_rate: 1 }));
    const none = await post('/weft/queues/create', { project_id: project, name: 'no-monitor', fields: [thumbs.ref], monitor: { monitor_id: 'nope', threshold: 1 } });
    expect(none.status).toBe(422);
    const low = await ok<Queue>('/weft/queues/create', { project_id: project, name: 'invalid-json', fields: [thumbs.ref], monitor: { monitor_id: monitor.id, threshold: 0.5 } });
    await server().monitors!.runOnce();
    expect((await ok<{ added: number }>('/weft/queues/fill', { project_id: project })).added).toBe(5);
    const items = (await ok<{ items: QueueItem[] }>('/weft/queues/items', { project_id: project, queue_id: low.id })).items;
    expect(items.map((i) => i.call_id).sort()).toEqual(['judged-0000', 'judged-0004', 'judged-0008', 'judged-0012', 'judged-0016']);
  });
});

describe('pairs', () => {
  it('hold two calls on the same input; a preference answer lands on the first, and a value outside a/b/tie is 422', async () => {
    const [a, b] = await addCalls('pair', 2);
    const pref = await field({ name: 'better', type: 'preference', description: 'Which answer is better?' });
    const q = await ok<Queue>('/weft/queues/create', { project_id: project, name: 'pairs', fields: [pref.ref] });
    expect((await ok<{ added: number }>('/weft/queues/add', { project_id: project, queue_id: q.id, items: [{ call_ids: [a, b] }, { call_ids: [a, b] }] })).added).toBe(1);
    const item = (await next(q.id, 'gil')).item!;
    expect([item.call_id, item.other_call_id]).toEqual([a, b]);
    const bad = await post('/weft/queues/answer', { project_id: project, queue_id: q.id, item_id: item.id, reviewer: 'gil', answers: [{ field_ref: pref.ref, value: 'c' }] });
    expect(bad.status).toBe(422);
    const res = await ok<{ item: QueueItem }>('/weft/queues/answer', { project_id: project, queue_id: q.id, item_id: item.id, reviewer: 'gil', answers: [{ field_ref: pref.ref, value: 'b' }] });
    expect(res.item.status).toBe('done');
    const { answers } = await ok<{ answers: { call_id: string; payload: unknown }[] }>('/weft/queues/answers', { project_id: project, queue_id: q.id });
    expect(answers.map((x) => [x.call_id, x.payload])).toEqual([[a, { value: 'b' }]]);
  });
});
