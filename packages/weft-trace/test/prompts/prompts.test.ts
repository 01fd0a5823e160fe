// @weft-test: postgres (prompt versions and their labels are objects the server stores)
// Prompts through a real server: published by digest, read by version and label, labels moved with their log, the
// cache and the fallback with the server stopped, and a wrapped OpenAI call (loopback fake) made from a formatted
// prompt recording the version's ref.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIConnectionError, Client, flush, getPrompt, init, publishPrompt, PromptVariableError, readPromptLabels, setPromptLabel, wrapOpenAI } from '../../src/index.js';
import { clearPromptCache } from '../../src/prompts/index.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { startTestServer, useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer();
const fake = useFakeLlm();
let client: Client;
beforeAll(() => {
  client = new Client({ baseUrl: server().url, maxRetries: 0 });
});
afterAll(async () => {
  clearPromptCache();
  await client.close();
});

const GREET = { name: 'greet', model: 'gpt-4o-mini', params: { temperature: 0.2 }, messages: [{ role: 'system', content: 'You are {{ tone }}.' }, { role: 'user', content: 'Hello {{name}}, {{name}}!' }] } as const;

describe('prompt versions', () => {
  it('publishes by digest (same content, same version), reads back by version and latest, formats typed variables', async () => {
    const project = uniqueProject('prompts');
    const p = await publishPrompt(GREET, { client, project });
    expect(p.variables).toEqual(['tone', 'name']);
    expect(p.ref).toBe(`weave:///${project}/object/greet:${p.version!.digest}`);
    expect((await publishPrompt(GREET, { client, project })).version!.digest).toBe(p.version!.digest);
    const got = await getPrompt('greet', { client, project, version: p.version!.digest });
    expect(got.value).toEqual(p.value);
    expect(got.version).toEqual({ ...p.version, index: 0 });
    const messages = got.format({ tone: 'terse', name: 'Ada' });
    expect(messages).toEqual([{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'Hello Ada, Ada!' }]);
    expect(JSON.parse(JSON.stringify(messages))).toEqual(messages);
    // @ts-expect-error name is missing (the variables are typed from the literal definition)
    expect(() => p.format({ tone: 'terse' })).toThrow(new PromptVariableError('greet', 'name'));
    expect(() => got.format({ tone: 'terse' })).toThrow(/variable "name" is missing/);
    const text = await publishPrompt({ name: 'summ', template: 'Summarize: {{text}}' }, { client, project });
    expect(text.formatText({ text: 'abc' })).toBe('Summarize: abc');
    expect((await getPrompt('summ', { client, project })).format({ text: 'x' })).toEqual([{ role: 'user', content: 'Summarize: x' }]);
  });

  it('rejects a prompt with both messages and template, or a bad name, before sending', async () => {
    await expect(publishPrompt({ name: 'a/b', template: 'x' }, { client, project: 'e/p' })).rejects.toThrow(/prompt name/);
    await expect(publishPrompt({ name: 'ab', template: 'x', messages: [] }, { client, project: 'e/p' })).rejects.toThrow(/either messages or template/);
  });
});

describe('labels', () => {
  it('move between versions without a new version, each move logged (who, when, from, to)', async () => {
    const project = uniqueProject('prompt-labels');
    const v0 = await publishPrompt(GREET, { client, project });
    const v1 = await publishPrompt({ ...GREET, params: { temperature: 0.7 } }, { client, project });
    await setPromptLabel('greet', 'production', 'v0', { client, project, by: 'ada' });
    await setPromptLabel('greet', 'staging', v1.version!.digest, { client, project, by: 'bob' });
    expect((await getPrompt('greet', { client, project, label: 'production', ttlMs: 0 })).version!.digest).toBe(v0.version!.digest);
    const moved = await setPromptLabel('greet', 'production', 'latest', { client, project, by: 'ada' });
    expect(moved.labels).toEqual({ production: v1.version!.digest, staging: v1.version!.digest });
    expect((await getPrompt('greet', { client, project, label: 'production', ttlMs: 0 })).value.params).toEqual({ temperature: 0.7 });
    const { moves } = await readPromptLabels(client, project, 'greet');
    expect(moves.map(({ at: _at, ...m }) => m)).toEqual([
      { label: 'production', from: null, to: v0.version!.digest, by: 'ada' },
      { label: 'staging', from: null, to: v1.version!.digest, by: 'bob' },
      { label: 'production', from: v0.version!.digest, to: v1.version!.digest, by: 'ada' },
    ]);
    expect(Date.parse(moves[2]!.at)).toBeGreaterThan(Date.now() - 60_000);
    const { objs } = await client.objects.query({ project_id: project, filter: { object_ids: ['greet'] } });
    expect(objs).toHaveLength(2);
    await expect(getPrompt('greet', { client, project, label: 'nope' })).rejects.toThrow(/no label "nope"/);
    await expect(setPromptLabel('greet', 'bad label', 'v0', { client, project })).rejects.toThrow(/label: expected/);
  });
});

describe('cache and fallback', () => {
  it('serves the copy within the TTL, the last copy when the server is down, then the bundled fallback', async () => {
    const own = await startTestServer();
    const c = new Client({ baseUrl: own.url, maxRetries: 0, timeoutMs: 2_000 });
    const project = uniqueProject('prompt-cache');
    try {
      await publishPrompt(GREET, { client: c, project });
      const first = await getPrompt('greet', { client: c, project, label: undefined });
      await publishPrompt({ ...GREET, params: { temperature: 0.9 } }, { client: c, project });
      expect(await getPrompt('greet', { client: c, project })).toBe(first);
      const fresh = await getPrompt('greet', { client: c, project, ttlMs: 0 });
      expect(fresh.value.params).toEqual({ temperature: 0.9 });
      const fb = { name: 'greet', template: 'fallback' };
      await expect(getPrompt('greet', { client: c, project, version: 'v99', fallback: fb })).rejects.toThrow(/not found/);
      await c.objects.create({ obj: { project_id: project, object_id: 'conf', val: { x: 1 } } });
      await expect(getPrompt('conf', { client: c, project, fallback: fb })).rejects.toThrow(/not a prompt/);
      await own.close();
      const stale = await getPrompt('greet', { client: c, project, ttlMs: 0 });
      expect(stale).toBe(fresh);
      const fallback = await getPrompt('other', { client: c, project, fallback: { name: 'other', template: 'Hi {{who}}' } });
      expect(fallback.formatText({ who: 'you' })).toBe('Hi you');
      expect(fallback.ref).toBeUndefined();
      await expect(getPrompt('third', { client: c, project })).rejects.toBeInstanceOf(APIConnectionError);
    } finally {
      await c.close();
      await own.close().catch(() => undefined);
    }
  });
});

describe('a model call made from a formatted prompt', () => {
  it('records the prompt version ref (weft.prompt.ref), which a calls query filters by; a call from plain messages records none', async () => {
    const project = uniqueProject('prompt-call');
    init({ project, baseUrl: server().url, flushIntervalMs: 20 });
    const p = await publishPrompt(GREET, { client, project });
    const openai = wrapOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL, maxRetries: 0 }));
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: p.format({ tone: 'kind', name: 'Ada' }) as OpenAI.ChatCompletionMessageParam[] });
    await openai.chat.completions.create(p.toRequest<OpenAI.ChatCompletionCreateParamsNonStreaming>({ tone: 'kind', name: 'Bo' }));
    await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'plain' }] });
    await flush();
    const calls = (await readCalls(server().url, project)).filter((c) => c.op_name === 'openai.chat.completions.create');
    expect(calls.map((c) => (c.attributes as Record<string, unknown>)['weft.prompt.ref'])).toEqual([p.ref, p.ref, undefined]);
    expect((calls[1]!.inputs as { messages: unknown }).messages).toEqual([{ role: 'system', content: 'You are kind.' }, { role: 'user', content: 'Hello Bo, Bo!' }]);
    expect((calls[1]!.inputs as { temperature: unknown }).temperature).toBe(0.2);
    const byRef = await readCalls(server().url, project, { query: { $expr: { $eq: [{ $getField: 'attributes.weft.prompt.ref' }, { $literal: p.ref! }] } } });
    expect(byRef.map((c) => c.id)).toEqual([calls[0]!.id, calls[1]!.id]);
  });
});
