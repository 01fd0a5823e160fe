// @weft-test: postgres
// The playground's routes over loopback HTTP (issue 53 point 5): which providers the server's environment
// configures, never a key; a provider without a key and a malformed body answered 422 `{detail}` naming what to fix
// (never a 500); a variant saved as a prompt version is the version `publishPrompt` makes of the same content; a
// Gemini variant (the real `@google/genai` against the loopback fake) streamed as JSONL and recorded as a playground call,
// on a server with API keys too (the worker records with the key the page presented).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, Dataset, publishPrompt } from 'weft-trace';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { REPLY, useFakeGemini } from 'weft-test-kit/fake-gemini.js';

const server = useTestServer();
const gemini = useFakeGemini();
const keyed = useTestServer({ apiKeys: ['pg-key'] });
const project = uniqueProject('playground');
const SECRET = 'sk-playground-secret-1234';
const VARS = ['OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'WEFT_PLAYGROUND_GOOGLE_BASE_URL'];
let saved: Record<string, string | undefined>;

beforeAll(() => {
  saved = Object.fromEntries(VARS.map((v) => [v, process.env[v]]));
  process.env['OPENAI_API_KEY'] = SECRET;
  delete process.env['GEMINI_API_KEY'];
  delete process.env['GOOGLE_API_KEY'];
});
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
});

/** Runs `fn` with the Gemini key and the fake's URL in the environment (read by the routes and the worker per request). */
async function withGemini(fn: () => Promise<void>): Promise<void> {
  Object.assign(process.env, { GEMINI_API_KEY: 'gm-test', WEFT_PLAYGROUND_GOOGLE_BASE_URL: gemini().url });
  try {
    await fn();
  } finally {
    delete process.env['GEMINI_API_KEY'];
    delete process.env['WEFT_PLAYGROUND_GOOGLE_BASE_URL'];
  }
}

const post = (path: string, body: unknown): Promise<Response> =>
  fetch(`${server().url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const variant = { provider: 'openai', model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi {{name}}' }], params: { temperature: 0.1 } };

describe('playground routes', () => {
  it('says which providers are configured and which variable each needs, never the key', async () => {
    const res = await fetch(`${server().url}/weft/playground/providers`);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toContain(SECRET);
    const { providers } = JSON.parse(text) as { providers: { provider: string; configured: boolean; key_env: string }[] };
    expect(providers.map((p) => [p.provider, p.configured, p.key_env])).toEqual([['openai', true, 'OPENAI_API_KEY'], ['anthropic', process.env['ANTHROPIC_API_KEY'] !== undefined, 'ANTHROPIC_API_KEY'], ['google', false, 'GEMINI_API_KEY']]);
  });

  it('answers 422 naming the variable for a provider without a key, and for a malformed body', async () => {
    const noKey = await post('/weft/playground/run', { project_id: project, variant: { ...variant, provider: 'google', model: 'gemini-2.5-flash' } });
    expect(noKey.status).toBe(422);
    const { detail } = (await noKey.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
    expect(detail).toEqual([{ loc: ['body', 'variant', 'provider'], msg: expect.stringContaining('set GEMINI_API_KEY or GOOGLE_API_KEY in the environment of the weft server'), type: 'missing_api_key' }]);
    const bad = await post('/weft/playground/evaluate', { project_id: 'no-slash', variant: { ...variant, provider: 'nope', messages: [] }, dataset_ref: '', scorers: ['bleu'], name: 'x' });
    expect(bad.status).toBe(422);
    const locs = ((await bad.json()) as { detail: { loc: unknown[] }[] }).detail.map((d) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.project_id', 'body.variant.provider', 'body.variant.messages', 'body.dataset_ref', 'body.scorers.0']));
    const badName = await post('/weft/playground/save', { project_id: project, name: 'not a name!', variant });
    expect(badName.status).toBe(422);
  });

  it('saves a variant as the prompt version publishPrompt makes of the same content', async () => {
    const res = await post('/weft/playground/save', { project_id: project, name: 'hello', variant });
    expect(res.status).toBe(200);
    const { digest, ref } = (await res.json()) as { digest: string; ref: string };
    const client = new Client({ baseUrl: server().url });
    const published = await publishPrompt({ name: 'hello', model: variant.model, params: variant.params, messages: variant.messages }, { client, project });
    expect(published.version).toEqual({ digest, ref });
  });

  it('on a server with API keys, records the run with the key the page presented', async () => {
    await withGemini(async () => {
      const auth = { authorization: `Basic ${Buffer.from('api:pg-key').toString('base64')}`, 'content-type': 'application/json' };
      const body = JSON.stringify({ project_id: project, variant: { ...variant, provider: 'google', model: 'gemini-2.5-flash', values: { name: 'Ada' } } });
      expect((await fetch(`${keyed().url}/weft/playground/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(401);
      const res = await fetch(`${keyed().url}/weft/playground/run`, { method: 'POST', headers: auth, body });
      const end = JSON.parse((await res.text()).trim().split('\n').at(-1)!) as { type: string; trace_id: string };
      expect(end.type).toBe('end');
      const calls = await new Client({ baseUrl: keyed().url, apiKey: 'pg-key' }).calls.streamQuery({ project_id: project, filter: { trace_ids: [end.trace_id] } }).toArray();
      expect(calls.map((c) => c.op_name).sort()).toEqual(['google_genai.models.generateContentStream', 'playground.run']);
    });
  });

  it('streams a Gemini variant as JSONL lines and records it as a playground call with the prompt ref', async () => {
    await withGemini(async () => {
      const ref = `weave:///${project}/object/hello:abc`;
      const res = await post('/weft/playground/run', { project_id: project, variant: { ...variant, provider: 'google', model: 'gemini-2.5-flash', prompt_ref: ref, values: { name: 'Ada' } } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/jsonl');
      const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as { type: string; text?: string; trace_id?: string });
      expect(lines.filter((l) => l.type === 'delta').map((l) => l.text).join('')).toBe(REPLY.join(''));
      const end = lines.at(-1)!;
      expect(end).toMatchObject({ type: 'end', text: REPLY.join('') });
      expect(gemini().requests.at(-1)!.path).toMatch(/:streamGenerateContent$/);
      const calls = await new Client({ baseUrl: server().url }).calls.streamQuery({ project_id: project, filter: { trace_ids: [end.trace_id!] } }).toArray();
      expect(calls.map((c) => [c.op_name, (c.attributes as Record<string, unknown>)['weft.playground'], (c.attributes as Record<string, unknown>)['weft.prompt.ref']]).sort())
        .toEqual([['google_genai.models.generateContentStream', true, ref], ['playground.run', true, undefined]]);
    });
  });

  it('runs a variant over a dataset: each row\'s output as it is answered, then its scores, then the evaluation run recorded', async () => {
    await withGemini(async () => {
      const client = new Client({ baseUrl: server().url });
      const ds = await new Dataset({ name: 'sky', rows: [{ name: 'Ada', expected: REPLY.join('') }, { name: 'Bo', expected: 'no' }] }).publish(client, project);
      const res = await post('/weft/playground/evaluate', { project_id: project, variant: { ...variant, provider: 'google', model: 'gemini-2.5-flash' }, dataset_ref: ds.ref, scorers: ['exact_match'], name: 'sky-run' });
      expect(res.status).toBe(200);
      const lines = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as { type: string; index?: number; scores?: Record<string, unknown>; run_id?: string });
      expect(lines.map((l) => l.type)).toEqual(['output', 'output', 'row', 'row', 'evaluated']);
      expect(lines.filter((l) => l.type === 'row').map((l) => [l.index, l.scores])).toEqual([[0, { exact_match: true }], [1, { exact_match: false }]]);
      const [run] = await client.calls.streamQuery({ project_id: project, filter: { call_ids: [lines.at(-1)!.run_id!] } }).toArray();
      expect([run!.op_name, run!.display_name, (run!.attributes as Record<string, unknown>)['weft.playground']]).toEqual([expect.stringContaining('Evaluation.evaluate'), 'sky-run', true]);
    });
  });
});
