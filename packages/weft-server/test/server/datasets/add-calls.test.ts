// @weft-test: postgres
// Issue 50 point 4, datasets from traces: `POST /weft/datasets/add_calls` on the real server (both stores) makes each
// addition a new version of a `Dataset` object (a table of rows `{input, expected, source_call}`, as Dataset.publish
// writes one); evaluate() runs over such a dataset by name and by ref; bad calls are refused with a 422 `{detail}`;
// concurrent additions to one dataset keep every row; any JSON correction is stored as given, or refused with a 4xx.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Client, Dataset, evaluate, exactMatch, flush, init, op } from 'weft-trace';
import { DATASET_PATHS } from 'weft-trace/wire';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { post } from 'weft-test-kit/server-http.js';
import { useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer();
const CAPITALS: Record<string, string> = { France: 'Paris', Italy: 'Rome', Peru: 'Cusco' };

/** Traces `capital(country)` once per country (plus one that throws) in a new project; the call ids by country. */
async function tracedCalls(label: string, countries: string[]): Promise<{ project: string; client: Client; ids: Record<string, string> }> {
  const project = uniqueProject(label);
  const client = init({ project, baseUrl: server().url, flushIntervalMs: 50 });
  const capital = op(function capital(country: string): string {
    if (!(country in CAPITALS)) throw new Error(`no capital for ${country}`);
    return CAPITALS[country]!;
  });
  for (const c of countries) {
    try {
      capital(c);
    } catch {
      // recorded as the call's exception
    }
  }
  await flush();
  const calls = await readCalls(server().url, project);
  return { project, client, ids: Object.fromEntries(calls.map((c) => [(c.inputs as { country: string }).country, c.id])) };
}

describe('datasets from traces', () => {
  it('three calls added one at a time (one corrected) make three versions, and evaluate() runs over it by name and by ref', async () => {
    const { project, client, ids } = await tracedCalls('ds-three', ['France', 'Italy', 'Peru']);
    const first = await client.datasets.addCalls({ project_id: project, dataset: 'capitals', calls: [{ id: ids['France']! }], description: 'from traces' });
    const second = await client.datasets.addCalls({ project_id: project, dataset: 'capitals', calls: [{ id: ids['Italy']! }] });
    const third = await client.datasets.addCalls({ project_id: project, dataset: 'capitals', calls: [{ id: ids['Peru']!, expected: 'Lima' }] });
    expect([first, second, third].map((v) => [v.version_index, v.rows, v.added, v.replaced, v.created])).toEqual([[0, 1, 1, 0, true], [1, 2, 1, 0, true], [2, 3, 1, 0, true]]);
    expect(third.ref).toBe(`weave:///${project}/object/capitals:${third.digest}`);

    const { objs } = await client.objects.query({ project_id: project, filter: { object_ids: ['capitals'] }, metadata_only: true });
    expect(objs.map((o) => [o.version_index, o.digest, o.base_object_class])).toEqual([first, second, third].map((v) => [v.version_index, v.digest, 'Dataset']));
    const loaded = await Dataset.load(client, third.ref);
    const ref = (id: string): string => `svc:///${project}/call/${id}`;
    expect(loaded.rows).toEqual([
      { input: { country: 'France' }, expected: 'Paris', source_call: ref(ids['France']!) },
      { input: { country: 'Italy' }, expected: 'Rome', source_call: ref(ids['Italy']!) },
      { input: { country: 'Peru' }, expected: 'Lima', source_call: ref(ids['Peru']!) },
    ]);
    expect(loaded.description).toBe('from traces'); // kept from the first version
    // the same object the SDK publishes for those rows: same digest
    expect((await new Dataset({ name: 'capitals', rows: loaded.rows, description: 'from traces' }).publish(client, project)).digest).toBe(third.digest);

    type Row = { input: { country: string }; expected: string };
    const task = (row: Row): string => CAPITALS[row.input.country]!;
    const byName = await evaluate<Row, string>({ name: 'capitals by name', dataset: 'capitals', task, scorers: [exactMatch()], progress: false });
    expect(byName.rows.map((r) => [r.output, r.scores['exact_match']])).toEqual([['Paris', true], ['Rome', true], ['Cusco', false]]);
    const svcRef = `svc:///${project}/object/capitals:${second.digest}`;
    const byRef = await evaluate<Row, string>({ name: 'capitals by ref', dataset: svcRef, task, scorers: [exactMatch()], progress: false });
    expect(byRef.summary.rows).toBe(2);
    await flush();
    const roots = (await readCalls(server().url, project, { filter: { trace_roots_only: true } })).filter((c) => c.op_name.includes('Evaluation.evaluate'));
    const evaluated = await Promise.all(roots.map(async (c) => (await client.objects.read({ project_id: project, object_id: String((c.inputs as { self: string }).self).split('/object/')[1]!.split(':')[0]!, digest: 'latest' })).obj.val));
    expect(evaluated.map((v) => (v as { dataset: string }).dataset).sort()).toEqual([`weave:///${project}/object/capitals:${second.digest}`, third.ref].sort());
  });

  it('adds a selection in one version, replaces the row of a call added again, and makes no version for nothing new', async () => {
    const { project, client, ids } = await tracedCalls('ds-select', ['France', 'Italy']);
    const both = await client.datasets.addCalls({ project_id: project, dataset: 'sel', calls: [{ id: ids['France']! }, { id: ids['Italy']! }] });
    expect([both.version_index, both.rows, both.added]).toEqual([0, 2, 2]);
    const fixed = await client.datasets.addCalls({ project_id: project, dataset: 'sel', calls: [{ id: ids['France']!, expected: { city: 'Paris', note: null } }] });
    expect([fixed.version_index, fixed.rows, fixed.added, fixed.replaced, fixed.created]).toEqual([1, 2, 0, 1, true]);
    expect((await Dataset.load(client, fixed.ref)).rows.map((r) => r['expected'])).toEqual([{ city: 'Paris', note: null }, 'Rome']);
    const again = await client.datasets.addCalls({ project_id: project, dataset: 'sel', calls: [{ id: ids['France']!, expected: { city: 'Paris', note: null } }] });
    expect([again.version_index, again.digest, again.created]).toEqual([1, fixed.digest, false]);
  });

  it('refuses with 422 {detail}: an unknown call, a call that raised without a correction, a name of another object, a bad body', async () => {
    const { project, client, ids } = await tracedCalls('ds-bad', ['France', 'Atlantis']);
    const add = (body: unknown): Promise<Response> => post(server(), DATASET_PATHS.addCalls, body);
    const detail = async (res: Response): Promise<unknown> => (expect(res.status).toBe(422), ((await res.json()) as { detail: unknown }).detail);
    expect(await detail(await add({ project_id: project, dataset: 'd', calls: [{ id: ids['France'] }, { id: 'nope' }] }))).toEqual([
      { loc: ['body', 'calls', '1', 'id'], msg: `no call "nope" in project "${project}"`, type: 'value_error' },
    ]);
    const raised = (await detail(await add({ project_id: project, dataset: 'd', calls: [{ id: ids['Atlantis'] }] }))) as Array<{ msg: string }>;
    expect(raised[0]!.msg).toMatch(/raised an exception.*give "expected"/);
    // nothing was stored by the refused requests; with a correction the call that raised is taken
    expect((await client.objects.query({ project_id: project, filter: { object_ids: ['d'] } })).objs).toEqual([]);
    expect((await client.datasets.addCalls({ project_id: project, dataset: 'd', calls: [{ id: ids['Atlantis']!, expected: null }] })).rows).toBe(1);
    await client.objects.create({ obj: { project_id: project, object_id: 'config', val: { temperature: 0 } } });
    expect(await detail(await add({ project_id: project, dataset: 'config', calls: [{ id: ids['France'] }] }))).toEqual([
      { loc: ['body', 'dataset'], msg: 'object "config" is not a dataset (its "rows" is not a table ref)', type: 'value_error' },
    ]);
    const bad = (await detail(await add({ project_id: project, dataset: 'a/b', calls: [] }))) as Array<{ loc: string[] }>;
    expect(bad.map((d) => d.loc.join('.')).sort()).toEqual(['body.calls', 'body.dataset']);
  });

  it('stores any JSON value given as a correction as is (read back equal), or refuses it with a 4xx, never a 5xx', async () => {
    const { project, client, ids } = await tracedCalls('ds-any', ['France']);
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
        const res = await post(server(), DATASET_PATHS.addCalls, { project_id: project, dataset: 'any', calls: [{ id: ids['France'], expected: value }] });
        expect(res.status, await res.clone().text()).toBeLessThan(500);
        if (res.status !== 200) return;
        const { ref } = (await res.json()) as { ref: string };
        expect((await Dataset.load(client, ref)).rows[0]!['expected']).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 40 },
    );
  });

  it('keeps every row when additions to one dataset race (compare-and-set against the version each read)', async () => {
    const countries = ['France', 'Italy', 'Peru'];
    const { project, client, ids } = await tracedCalls('ds-race', countries);
    const answers = await Promise.all(countries.map((c) => client.datasets.addCalls({ project_id: project, dataset: 'race', calls: [{ id: ids[c]! }] })));
    expect(answers.map((a) => a.version_index).sort()).toEqual([0, 1, 2]);
    const latest = await Dataset.load(client, `weave:///${project}/object/race:latest`);
    expect(latest.rows.map((r) => (r['input'] as { country: string }).country).sort()).toEqual([...countries].sort());
  });
});
