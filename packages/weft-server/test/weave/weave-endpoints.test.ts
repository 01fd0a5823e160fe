// @weft-test: postgres
// The Weave SDK compatibility endpoints over real HTTP: objects (digests as the Weave server computes them, versions,
// latest, queries), files (multipart, content-addressed), table/create in weave's shape, feedback/create,
// call/update (also before the start lands), calls/delete (with descendants), display_name on end items,
// /health and /server_info, 422 bodies, auth and project grants.
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestServer, startTestServer } from 'weft-test-kit/server.js';
import { PROJECT, batch, end, endItem, post, query, start, startItem, type Json } from 'weft-test-kit/server-http.js';

// The real SDK's own file digest, to check the server computes the same one.
const requireCjs = createRequire(import.meta.url);
const { computeDigest } = requireCjs(path.join(path.dirname(requireCjs.resolve('weave')), 'digest.js')) as { computeDigest: (b: Buffer) => string };

const server = useTestServer();
const json = async (res: Response): Promise<Json> => (await res.json()) as Json;
const objCreate = (objectId: string, val: unknown, project = PROJECT): Promise<Response> =>
  post(server(), '/obj/create', { obj: { project_id: project, object_id: objectId, val } });
const fileCreate = (base: string, form: FormData, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${base}/file/create`, { method: 'POST', body: form, headers });
const formWith = (project: string | undefined, bytes?: Uint8Array<ArrayBuffer>): FormData => {
  const form = new FormData();
  if (project !== undefined) form.append('project_id', project);
  if (bytes) form.append('file', new Blob([bytes]));
  return form;
};

describe('objects', () => {
  it('digests a value as the Weave server does (Python json.dumps, sort_keys) and numbers versions per object id', async () => {
    // Expected digests computed with Python: json.dumps(val, sort_keys=True), sha256, urlsafe base64, -→X, _→Y, no =.
    const val = { model: 'small', temperature: 0.5, nested: { b: [1, 2.5, null, true], a: 'é ✓ 😀' }, tiny: 1e-7 };
    const first = await json(await objCreate('cfg', val));
    expect(first).toEqual({ digest: 'lEWa3l6uRc7aDugXpAjq5nSwT0vwNWnS7wDJfuYR1u4' });
    const second = await json(await objCreate('cfg', { temperature: 0.5, model: 'small' }));
    expect(second).toEqual({ digest: 'sxNOAUXAYNG96vswXbXlmQbMpd979eELTzStdCyVa6Y' });
    // same value again (other key order): same digest, no new version
    expect(await json(await objCreate('cfg', { tiny: 1e-7, nested: { a: 'é ✓ 😀', b: [1, 2.5, null, true] }, temperature: 0.5, model: 'small' }))).toEqual(first);

    const read = async (digest: string): Promise<Json> => {
      const res = await post(server(), '/obj/read', { project_id: PROJECT, object_id: 'cfg', digest });
      expect(res.status).toBe(200);
      return (await json(res))['obj'] as Json;
    };
    const v0 = await read(first['digest'] as string);
    expect(v0).toMatchObject({ project_id: PROJECT, object_id: 'cfg', digest: first['digest'], version_index: 0, is_latest: 0, kind: 'object', val });
    expect(new Date(v0['created_at'] as string).toISOString()).toBe(v0['created_at']);
    expect(await read('latest')).toMatchObject({ digest: second['digest'], version_index: 1, is_latest: 1 });
    expect(await read('v0')).toMatchObject({ digest: first['digest'] });

    const missing = await post(server(), '/obj/read', { project_id: PROJECT, object_id: 'cfg', digest: 'nope' });
    expect(missing.status).toBe(404);
    expect((await json(missing))['detail']).toContain('not found');
    const otherProject = await post(server(), '/obj/read', { project_id: 'acme/other', object_id: 'cfg', digest: 'latest' });
    expect(otherProject.status).toBe(404);
  });

  it('files ops and classes, and /objs/query filters by object ids, latest only, base classes and ops', async () => {
    const project = 'acme/objs';
    const op = { _type: 'CustomWeaveType', weave_type: { type: 'Op' }, files: { 'obj.py': 'd' }, load_op: 'NO_LOAD_OP' };
    const dataset = (rows: string) => ({ _type: 'Dataset', _class_name: 'Dataset', _bases: ['Object', 'BaseModel'], name: 'ds', rows });
    await objCreate('my_op', op, project);
    await objCreate('ds', dataset('weave:///acme/objs/table/a'), project);
    await objCreate('ds', dataset('weave:///acme/objs/table/b'), project);
    await objCreate('plain', { x: 1 }, project);
    const objs = async (body: Json): Promise<Json[]> => {
      const res = await post(server(), '/objs/query', { project_id: project, ...body });
      expect(res.status).toBe(200);
      return (await json(res))['objs'] as Json[];
    };
    const all = await objs({});
    expect(all.map((o) => [o['object_id'], o['version_index'], o['kind'], o['base_object_class']])).toEqual([
      ['my_op', 0, 'op', null], ['ds', 0, 'object', 'Dataset'], ['ds', 1, 'object', 'Dataset'], ['plain', 0, 'object', null],
    ]);
    expect((await objs({ filter: { latest_only: true, object_ids: ['ds'] } })).map((o) => (o['val'] as Json)['rows'])).toEqual(['weave:///acme/objs/table/b']);
    expect((await objs({ filter: { base_object_classes: ['Dataset'] } })).length).toBe(2);
    expect((await objs({ filter: { is_op: true } })).map((o) => o['object_id'])).toEqual(['my_op']);
    expect((await objs({ metadata_only: true, limit: 1, sort_by: [{ field: 'object_id', direction: 'desc' }] })).map((o) => [o['object_id'], o['val']])).toEqual([['plain', {}]]);
    const badSort = await post(server(), '/objs/query', { project_id: project, sort_by: [{ field: 'val.x' }] });
    expect(badSort.status).toBe(422);
    expect((await json(badSort))['detail']).toEqual([expect.objectContaining({ loc: ['body', 'sort_by', '0', 'field'] })]);
  });

  it('answers 422 {detail:[{loc,msg,type}]} for bad bodies', async () => {
    for (const [path, body, loc] of [
      ['/obj/create', { obj: { project_id: PROJECT, object_id: 'a b', val: 1 } }, ['body', 'obj', 'object_id']],
      ['/obj/create', { obj: { project_id: PROJECT, object_id: 'a' } }, ['body', 'obj', 'val']],
      ['/obj/read', { project_id: PROJECT, object_id: 'a' }, ['body', 'digest']],
      ['/objs/query', { project_id: PROJECT, filter: { object_ids: 'a' } }, ['body', 'filter', 'object_ids']],
      ['/file/content', { project_id: PROJECT }, ['body', 'digest']],
      ['/call/update', { project_id: PROJECT, display_name: 'x' }, ['body', 'call_id']],
      ['/calls/delete', { project_id: PROJECT, call_ids: [1] }, ['body', 'call_ids', '0']],
      ['/feedback/create', { project_id: PROJECT, weave_ref: 'nope', feedback_type: 't', payload: {} }, ['body', 'svc_ref']],
      ['/table/create', { table: { project_id: PROJECT } }, ['body', 'table', 'rows']],
    ] as const) {
      const res = await post(server(), path, body);
      expect(res.status, path).toBe(422);
      const detail = (await json(res))['detail'] as Json[];
      expect(detail.map((d) => d['loc']), path).toContainEqual(loc);
      for (const d of detail) expect(typeof d['msg'] === 'string' && typeof d['type'] === 'string').toBe(true);
    }
  });
});

describe('files', () => {
  it('stores a multipart upload once per content, with the SDK digest, and answers its bytes', async () => {
    const bytes = new Uint8Array([0, 1, 2, 255, 254, 10, 13]);
    const res = await fileCreate(server().url, formWith(PROJECT, bytes));
    expect(res.status).toBe(200);
    const { digest } = await json(res);
    expect(digest).toBe(computeDigest(Buffer.from(bytes)));
    expect(await json(await fileCreate(server().url, formWith(PROJECT, bytes)))).toEqual({ digest });
    const content = await post(server(), '/file/content', { project_id: PROJECT, digest });
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('application/octet-stream');
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(bytes);
    expect((await post(server(), '/file/content', { project_id: 'acme/else', digest })).status).toBe(404);
  });

  it('answers 422 for a form without project_id or file, and 415 for another body type', async () => {
    const noFile = await fileCreate(server().url, formWith(PROJECT));
    expect(noFile.status).toBe(422);
    expect((await json(noFile))['detail']).toEqual([expect.objectContaining({ loc: ['body', 'file'], type: 'missing' })]);
    const noProject = await fileCreate(server().url, formWith(undefined, new Uint8Array([1])));
    expect(noProject.status).toBe(422);
    expect(((await json(noProject))['detail'] as Json[])[0]).toMatchObject({ loc: ['body', 'project_id'] });
    const text = await fetch(`${server().url}/file/create`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(text.status).toBe(415);
  });
});

describe('tables in weave shape', () => {
  it('takes {table: {project_id, rows}} and answers as {project_id, rows} does; rows readable with /table/query', async () => {
    const rows = [{ q: 'a', a: 1 }, { q: 'b', a: 2 }];
    const weave = await json(await post(server(), '/table/create', { table: { project_id: PROJECT, rows } }));
    const flat = await json(await post(server(), '/table/create', { project_id: PROJECT, rows }));
    expect(weave).toEqual(flat);
    const read = await json(await post(server(), '/table/query', { project_id: PROJECT, digest: weave['digest'] }));
    expect((read['rows'] as Json[]).map((r) => [r['digest'], r['val']])).toEqual(rows.map((r, i) => [(weave['row_digests'] as string[])[i], r]));
  });
});

describe('calls', () => {
  it('takes display_name on end items; /call/update renames an ended call, and a call whose start has not arrived yet', async () => {
    const project = 'acme/rename';
    await batch(server(), [startItem(start({ project_id: project, id: 'a', display_name: 'first' })), endItem(end('a', { project_id: project, display_name: 'from end' }))]);
    await batch(server(), [startItem(start({ project_id: project, id: 'b' })), endItem(end('b', { project_id: project }))]);
    expect((await post(server(), '/call/update', { project_id: project, call_id: 'b', display_name: 'renamed' })).status).toBe(200);
    // renamed before its start is stored (weave renames ended calls before their batch is sent)
    expect(await json(await post(server(), '/call/update', { project_id: project, call_id: 'c', display_name: 'early' }))).toEqual({});
    await batch(server(), [startItem(start({ project_id: project, id: 'c' })), endItem(end('c', { project_id: project }))]);
    const names = (await query(server(), { project_id: project })).map((r) => [r['id'], r['display_name']]);
    expect(names).toEqual([['a', 'from end'], ['b', 'renamed'], ['c', 'early']]);
  });

  it('/calls/delete removes the calls with all their descendants, in their project only', async () => {
    const project = 'acme/delete';
    const s = (id: string, parent?: string): Json => startItem(start({ project_id: project, id, trace_id: 't', ...(parent ? { parent_id: parent } : {}) }));
    await batch(server(), [s('root'), s('child', 'root'), s('grandchild', 'child'), s('other')]);
    await batch(server(), [startItem(start({ project_id: 'acme/keep', id: 'child' }))]);
    expect(await json(await post(server(), '/calls/delete', { project_id: project, call_ids: ['child', 'unknown'] }))).toEqual({});
    expect((await query(server(), { project_id: project })).map((r) => r['id']).sort()).toEqual(['other', 'root']);
    expect((await query(server(), { project_id: 'acme/keep' })).map((r) => r['id'])).toEqual(['child']);
  });
});

describe('derived status', () => {
  it('a call whose end has no status_counts reads descendant_error when a stored descendant failed (records and filters)', async () => {
    const project = 'acme/derive';
    const s = (id: string, parent?: string): Json => startItem(start({ project_id: project, id, trace_id: 't', ...(parent ? { parent_id: parent } : {}) }));
    const e = (id: string, extra: Json = {}): Json => endItem(end(id, { project_id: project, ...extra }));
    await batch(server(), [s('root'), s('mid', 'root'), s('leaf', 'mid'), s('ok', 'root'), s('clean')]);
    await batch(server(), [e('leaf', { exception: 'boom' }), e('ok'), e('mid')]);
    await batch(server(), [e('root'), e('clean')]);
    // a weft-style end with status_counts keeps what it says
    await batch(server(), [s('told'), s('told-child', 'told'), e('told-child', { exception: 'x' }), e('told', { summary: { status_counts: { success: 0, error: 0 } } })]);
    const status = Object.fromEntries((await query(server(), { project_id: project })).map((r) => [r['id'], (r['summary'] as Json)['status']]));
    expect(status).toEqual({ root: 'descendant_error', mid: 'descendant_error', leaf: 'error', ok: 'success', clean: 'success', told: 'success', 'told-child': 'error' });
    const filtered = await query(server(), { project_id: project, query: { $expr: { $eq: [{ $getField: 'summary.status' }, { $literal: 'descendant_error' }] } } });
    expect(filtered.map((r) => r['id']).sort()).toEqual(['mid', 'root']);
  });
});

describe('feedback/create', () => {
  it("stores weave's one item (weave_ref, weave:/// refs) as feedback of the call, shown by include_feedback", async () => {
    const project = 'acme/score';
    await batch(server(), [startItem(start({ project_id: project, id: 'p' }))]);
    const res = await post(server(), '/feedback/create', {
      project_id: project, weave_ref: `weave:///${project}/call/p`, feedback_type: 'wandb.runnable.grade', payload: { output: { correct: true } },
      runnable_ref: `weave:///${project}/op/grade:abc`, call_ref: `weave:///${project}/call/s`,
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ payload: { output: { correct: true } }, wb_user_id: null });
    const [record] = await query(server(), { project_id: project, include_feedback: true });
    expect((record!['summary'] as Json)['feedback']).toEqual([
      expect.objectContaining({ id: body['id'], svc_ref: `svc:///${project}/call/p`, runnable_ref: `svc:///${project}/op/grade:abc`, feedback_type: 'wandb.runnable.grade' }),
    ]);
  });

  it('purges feedback by id (weave\'s /feedback/purge: an id $eq or an $or of them), only in its project; any other query is 422', async () => {
    const project = 'acme/purge';
    await batch(server(), [startItem(start({ project_id: project, id: 'q' }))]);
    const ref = `svc:///${project}/call/q`;
    const made = await json(await post(server(), '/feedback/batch/create', { batch: ['a', 'b', 'c'].map((note) => ({ project_id: project, svc_ref: ref, feedback_type: 'note', payload: { note } })) }));
    const ids = (made['res'] as Json[]).map((r) => r['id'] as string);
    const idEq = (id: string) => ({ $eq: [{ $getField: 'id' }, { $literal: id }] });
    const feedback = async (): Promise<unknown[]> => ((await query(server(), { project_id: project, include_feedback: true }))[0]!['summary'] as Json)['feedback'] as unknown[] ?? [];
    // another project's purge of the same id deletes nothing
    expect((await post(server(), '/feedback/purge', { project_id: 'acme/other', query: { $expr: idEq(ids[0]!) } })).status).toBe(200);
    expect(await feedback()).toHaveLength(3);
    const res = await post(server(), '/feedback/purge', { project_id: project, query: { $expr: idEq(ids[0]!) } });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({});
    expect((await feedback()).map((f) => (f as Json)['id'])).toEqual(ids.slice(1));
    expect((await post(server(), '/feedback/purge', { project_id: project, query: { $expr: { $or: [idEq(ids[1]!), idEq(ids[2]!), idEq(ids[0]!)] } } })).status).toBe(200);
    expect(await feedback()).toEqual([]);
    const bad = await post(server(), '/feedback/purge', { project_id: project, query: { $expr: { $eq: [{ $getField: 'feedback_type' }, { $literal: 'note' }] } } });
    expect(bad.status).toBe(422);
    expect((await json(bad))['detail']).toEqual([expect.objectContaining({ loc: expect.arrayContaining(['body', 'query']) })]);
  });
});

describe('service info and auth', () => {
  it('answers GET /health and GET /server_info', async () => {
    expect(await json(await fetch(`${server().url}/health`))).toEqual({ status: 'ok' });
    expect(await json(await fetch(`${server().url}/server_info`))).toMatchObject({ server: 'weft' });
  });

  it('with API keys: 401 without credentials, 403 for a project outside the key grant (JSON bodies and multipart forms)', async () => {
    const keyed = await startTestServer({ apiKeys: ['grant=acme/a'] });
    try {
      const auth = { authorization: `Basic ${Buffer.from('api:grant').toString('base64')}` };
      expect((await fetch(`${keyed.url}/health`)).status).toBe(401);
      expect((await fetch(`${keyed.url}/health`, { headers: auth })).status).toBe(200);
      const create = (project: string): Promise<Response> => post(keyed, '/obj/create', { obj: { project_id: project, object_id: 'o', val: 1 } }, auth);
      expect((await create('acme/a')).status).toBe(200);
      expect((await create('acme/b')).status).toBe(403);
      expect((await post(keyed, '/table/create', { table: { project_id: 'acme/b', rows: [] } }, auth)).status).toBe(403);
      expect((await fileCreate(keyed.url, formWith('acme/a', new Uint8Array([1])), auth)).status).toBe(200);
      expect((await fileCreate(keyed.url, formWith('acme/b', new Uint8Array([1])), auth)).status).toBe(403);
      expect((await fileCreate(keyed.url, formWith('acme/a', new Uint8Array([1])))).status).toBe(401);
    } finally {
      await keyed.close();
    }
  });
});
