// @weft-test: postgres
// Tests of POST /feedback/batch/create over loopback HTTP: ids, created_at, order, idempotency, 422 detail, ref shapes.
import { describe, expect, it } from 'vitest';
import type { FeedbackCreateReq } from 'weft-trace';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useFeedbackServer } from 'weft-test-kit/feedback-server.js';
import { post } from 'weft-test-kit/server-http.js';
import { ISO_UTC, UUIDV7, expectUuidv7 } from 'weft-test-kit/shapes.js';
import { storeParts } from '../../../src/server/server-store.js';

const fb = useFeedbackServer();

/** A valid item; overrides may be invalid on purpose (typed as a request item all the same). */
function item(project: string, overrides: Record<string, unknown> = {}): FeedbackCreateReq {
  return { project_id: project, svc_ref: `svc:///${project}/call/c1`, feedback_type: 'score', payload: { value: 1 }, ...overrides } as FeedbackCreateReq;
}

async function detailOf(body: unknown): Promise<{ loc: string[]; msg: string; type: string }[]> {
  const res = await post(fb.server(), '/feedback/batch/create', body);
  expect(res.status).toBe(422);
  return ((await res.json()) as { detail: { loc: string[]; msg: string; type: string }[] }).detail;
}

describe('POST /feedback/batch/create', () => {
  it('answers one item per batch item, in order, with generated UUIDv7 ids and the server clock as created_at', async () => {
    const project = uniqueProject('fb-create');
    fb.setNow('2026-02-03T04:05:06.789Z');
    const { res } = await fb.client().feedback.create({
      batch: [0, 1, 2].map((i) => ({ ...item(project), payload: { value: i }, svc_user_id: i === 1 ? 'u-1' : undefined })),
    });
    expect(res.map((r) => r.payload)).toEqual([{ value: 0 }, { value: 1 }, { value: 2 }]);
    expect(res.map((r) => r.svc_user_id)).toEqual([null, 'u-1', null]);
    for (const r of res) {
      expectUuidv7(r.id);
      expect(r.created_at).toBe('2026-02-03T04:05:06.789Z');
    }
    expect(new Set(res.map((r) => r.id)).size).toBe(3);
  });

  it('stamps each item with its own clock reading, in UTC', async () => {
    const project = uniqueProject('fb-clock');
    const res = await fb.createAt(project, [{ at: '2026-03-01T10:00:00+02:00' }, { at: '2026-03-01T09:00:00.5Z' }]);
    expect(res.map((r) => r.created_at)).toEqual(['2026-03-01T08:00:00.000Z', '2026-03-01T09:00:00.500Z']);
  });

  it('keeps a given id, and a repeated id never duplicates: the stored record is answered', async () => {
    const project = uniqueProject('fb-id');
    const id = '0190a6b2-7c1e-7a00-8000-000000000001';
    fb.setNow('2026-01-05T00:00:00.000Z');
    const first = await fb.client().feedback.create({ batch: [item(project, { id, payload: { value: 'first' } })] });
    fb.setNow('2026-01-06T00:00:00.000Z');
    const again = await fb.client().feedback.create({ batch: [item(project, { id, payload: { value: 'second' } })] });
    expect(first.res[0]).toMatchObject({ id, created_at: '2026-01-05T00:00:00.000Z', payload: { value: 'first' } });
    expect(again.res[0]).toEqual(first.res[0]);
    expect((await storeParts(fb.server().store).feedback.forCalls(project, ['c1'])).get('c1')).toHaveLength(1);
  });

  it('stores every field; store.feedback.forCalls finds records by svc_ref, else call_ref, oldest first', async () => {
    const project = uniqueProject('fb-fields');
    const full = {
      project_id: project, svc_ref: `svc:///${project}/call/a`, feedback_type: 'wandb.runnable.judge', payload: { output: 'ok', n: [1, 2] },
      annotation_ref: `svc:///${project}/object/rubric:abc`, call_ref: `svc:///${project}/call/b`, creator: 'ann',
      queue_id: '0190a6b2-7c1e-7a00-8000-0000000000aa', runnable_ref: `svc:///${project}/op/judge:123`,
      trigger_ref: `svc:///${project}/object/monitor:v1`, svc_user_id: 'user-9',
    };
    const [r1, r2, r3] = await fb.createAt(project, [{ at: '2026-01-02T00:00:00Z' }, { at: '2026-01-01T00:00:00Z' }, { at: '2026-01-03T00:00:00Z' }]);
    await fb.client().feedback.create({ batch: [full, { ...full, svc_ref: `svc:///${project}/object/thing:1`, call_ref: `svc:///${project}/call/b` }] });
    const found = (await storeParts(fb.server().store).feedback.forCalls(project, ['call-0', 'call-1', 'call-2', 'a', 'b', 'none']));
    expect([...found.keys()].sort()).toEqual(['a', 'b', 'call-0', 'call-1', 'call-2']);
    expect(found.get('call-0')?.map((r) => r.id)).toEqual([r1!.id]);
    expect(found.get('call-1')?.[0]?.created_at).toBe(r2!.created_at);
    expect(found.get('call-2')?.[0]?.id).toBe(r3!.id);
    const [a] = found.get('a')!;
    expect(a).toMatchObject({ ...full, id: expect.stringMatching(UUIDV7), created_at: expect.stringMatching(ISO_UTC) });
    expect(found.get('b')?.map((r) => r.svc_ref)).toEqual([`svc:///${project}/object/thing:1`]);
    expect((await storeParts(fb.server().store).feedback.forCalls('other/project', ['a'])).size).toBe(0);
  });

  it('refuses the whole batch with 422 and a loc into batch[i] when an item is invalid', async () => {
    const project = uniqueProject('fb-422');
    const detail = await detailOf({ batch: [item(project), item(project, { svc_ref: 'call/c1' }), item(project, { payload: 3 })] });
    expect(detail.map((d) => d.loc)).toEqual([['body', 'batch', '1', 'svc_ref'], ['body', 'batch', '2', 'payload']]);
    expect(detail[0]!.msg).toMatch(/^expected a ref: svc:\/\/\/<entity>\/<project>\/object\/.*\.\.\.\/call\/<call_id>$/);
    expect((await storeParts(fb.server().store).feedback.forCalls(project, ['c1'])).size).toBe(0);
  });

  it('requires the four leading fields', async () => {
    const detail = await detailOf({ batch: [{}] });
    expect(detail.map((d) => [d.loc.join('.'), d.type]).sort()).toEqual([
      ['body.batch.0.feedback_type', 'missing'], ['body.batch.0.payload', 'missing'],
      ['body.batch.0.project_id', 'missing'], ['body.batch.0.svc_ref', 'missing'],
    ]);
    expect((await detailOf({})).map((d) => d.loc)).toEqual([['body', 'batch']]);
  });

  it.each([
    ['annotation_ref', (p: string) => `svc:///${p}/op/rubric:abc`],
    ['trigger_ref', (p: string) => `svc:///${p}/object/monitor`],
    ['runnable_ref', (p: string) => `svc:///${p}/call/judge`],
    ['call_ref', (p: string) => `svc:///${p}/call/a/b`],
    ['svc_ref', (p: string) => `svc://${p}/call/a`],
    ['id', () => 'not-a-uuid'],
    ['queue_id', () => '1234'],
  ])('checks the shape of %s', async (field, bad) => {
    const project = uniqueProject('fb-shape');
    const detail = await detailOf({ batch: [item(project, { [field]: bad(project) })] });
    expect(detail.map((d) => d.loc)).toEqual([['body', 'batch', '0', field]]);
  });

  it('refuses svc_ref and call_ref pointing into another project', async () => {
    const project = uniqueProject('fb-proj');
    const detail = await detailOf({ batch: [item(project, { svc_ref: 'svc:///x/y/call/c1', call_ref: 'svc:///x/y/call/c2' })] });
    expect(detail.map((d) => d.loc)).toEqual([['body', 'batch', '0', 'svc_ref'], ['body', 'batch', '0', 'call_ref']]);
    expect(detail[0]!.msg).toBe(`svc_ref points into project x/y, expected project_id ${project}`);
  });

  describe("Weave's feedback types (weave/trace_server/feedback.py; tests/trace/test_feedback.py)", () => {
    it('stores a reaction with its alias and its skin-tone-free form, as Weave does', async () => {
      const project = uniqueProject('fb-react');
      const { res } = await fb.client().feedback.create({
        batch: [item(project, { feedback_type: 'wandb.reaction.1', payload: { emoji: '👍🏽' } }), item(project, { feedback_type: 'wandb.reaction.1', payload: { emoji: '❤️' } })],
      });
      expect(res.map((r) => r.payload)).toEqual([
        { emoji: '👍🏽', alias: ':thumbs_up_medium_skin_tone:', detoned: '👍', detoned_alias: ':thumbs_up:' },
        { emoji: '❤️', alias: ':red_heart:', detoned: '❤️', detoned_alias: ':red_heart:' },
      ]);
      const [stored] = (await storeParts(fb.server().store).feedback.forCalls(project, ['c1'])).get('c1')!;
      expect(stored!.payload).toMatchObject({ alias: ':thumbs_up_medium_skin_tone:', detoned: '👍' });
    });

    it.each([
      ['two emoji', 'wandb.reaction.1', { emoji: '👍👍' }, ['payload', 'emoji']],
      ['no emoji', 'wandb.reaction.1', { emoji: 'yes' }, ['payload', 'emoji']],
      ['a reaction without emoji', 'wandb.reaction.1', { value: 1 }, ['payload', 'emoji']],
      ['an empty note', 'wandb.note.1', { note: '' }, ['payload', 'note']],
      ['a note over 1,024 characters', 'wandb.note.1', { note: 'x'.repeat(1025) }, ['payload', 'note']],
      ['a runnable type without a name', 'wandb.runnable', { output: 1 }, ['feedback_type']],
      ['a runnable payload without output', 'wandb.runnable.judge', { score: 1 }, ['payload', 'output']],
    ])('refuses %s with 422', async (_what, feedback_type, payload, loc) => {
      const project = uniqueProject('fb-type');
      const extra = feedback_type.startsWith('wandb.runnable') ? { runnable_ref: `svc:///${project}/object/judge:1` } : {};
      const detail = await detailOf({ batch: [item(project), item(project, { feedback_type, payload, ...extra })] });
      expect(detail.map((d) => d.loc)).toEqual([['body', 'batch', '1', ...loc]]);
      expect((await storeParts(fb.server().store).feedback.forCalls(project, ['c1'])).size).toBe(0);
    });

    it('checks runnable_ref and call_ref of runnable feedback (and, unlike Weave, keeps runnable_ref on other types)', async () => {
      const project = uniqueProject('fb-runnable');
      const runnable = (extra: Record<string, unknown>): FeedbackCreateReq => item(project, { feedback_type: 'wandb.runnable.judge', payload: { output: true }, ...extra });
      const detail = await detailOf({
        batch: [
          runnable({}),
          runnable({ runnable_ref: `svc:///${project}/op/other:1`, call_ref: `svc:///${project}/call/s` }),
          runnable({ runnable_ref: `svc:///${project}/op/judge:1` }),
        ],
      });
      expect(detail.map((d) => [d.loc.slice(2).join('.'), d.msg])).toEqual([
        ['0.runnable_ref', 'runnable_ref is required for runnable feedback'],
        ['1.runnable_ref', 'runnable_ref must point to an op or object named "judge"'],
        ['2.call_ref', 'call_ref is required for runnable feedback on ops'],
      ]);
      const { res } = await fb.client().feedback.create({
        batch: [
          runnable({ runnable_ref: `svc:///${project}/object/judge:1` }), runnable({ runnable_ref: `svc:///${project}/op/judge:1`, call_ref: `svc:///${project}/call/s` }),
          item(project, { runnable_ref: `svc:///${project}/op/judge:1` }),
        ],
      });
      expect(res).toHaveLength(3);
    });

    it('refuses a payload over 1 MiB of JSON, and stores one just under', async () => {
      const project = uniqueProject('fb-big');
      const over = await post(fb.server(), '/feedback/batch/create', { batch: [item(project, { payload: { text: 'x'.repeat(1024 * 1024) } })] });
      expect(over.status).toBe(422);
      expect(((await over.json()) as { detail: { loc: string[]; msg: string }[] }).detail).toEqual([
        expect.objectContaining({ loc: ['body', 'batch', '0', 'payload'], msg: expect.stringMatching(/^Feedback payload too large: 1048587 bytes/) }),
      ]);
      const { res } = await fb.client().feedback.create({ batch: [item(project, { payload: { text: 'x'.repeat(1024 * 1024 - 11) } })] });
      expect(res).toHaveLength(1);
    });
  });

  it('accepts object and op refs as svc_ref', async () => {
    const project = uniqueProject('fb-refs');
    const { res } = await fb.client().feedback.create({
      batch: [item(project, { svc_ref: `svc:///${project}/object/dataset:v3` }), item(project, { svc_ref: `svc:///${project}/op/judge:9f` })],
    });
    expect(res).toHaveLength(2);
  });
});
