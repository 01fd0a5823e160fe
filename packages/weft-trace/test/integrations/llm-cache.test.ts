// @weft-test: isolated (a framework's process-wide registration, or OpenTelemetry's global context manager)
// Recorded model calls (WEFT_LLM_CACHE): the real openai, @anthropic-ai/sdk and ai SDKs record against the loopback fake, then replay with it closed.
import Anthropic from '@anthropic-ai/sdk';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { createOpenAI } from '@ai-sdk/openai';
import * as ai from 'ai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { llmCacheFetch, op, wrapAISDK, wrapAnthropic, wrapOpenAI } from '../../src/index.js';
import { WeftTracer } from '../../src/integrations/langchain/index.js';
import { cassettePath, forgetCassettes, type CassetteEntry } from '../../src/integrations/llm-cache/cassette.js';
import { normalizeRequest, requestKey } from '../../src/integrations/llm-cache/key.js';
import { llmCacheMode } from '../../src/integrations/llm-cache/mode.js';
import { enterEvalFile } from '../../src/integrations/llm-cache/scope.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { collect, startFakeLlm, type FakeLlm } from 'weft-test-kit/fake-llm.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { spawnTracked } from 'weft-test-kit/child-processes.js';
import { traced } from 'weft-test-kit/traced-calls.js';

const THIS_FILE = fileURLToPath(import.meta.url);
const server = useTestServer();
const dir = mkdtempSync(join(tmpdir(), 'weft-llm-cache-'));
const cassette = join(dir, `${basename(THIS_FILE)}.jsonl`);
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

const CHAT = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Say hi' }], temperature: 0 };
const CLAUDE = { model: 'claude-haiku-4-5', max_tokens: 256, messages: [{ role: 'user' as const, content: 'Say hi' }] };

/** Every SDK call of the suite, through wrapped clients made now (the mode is read when wrapping and per request). */
async function workload(fake: { openaiURL: string; anthropicURL: string }, apiKey: string): Promise<Record<string, unknown>> {
  const openai = wrapOpenAI(new OpenAI({ apiKey, baseURL: fake.openaiURL, maxRetries: 0 }));
  const anthropic = wrapAnthropic(new Anthropic({ apiKey, baseURL: fake.anthropicURL, maxRetries: 0 }));
  const w = wrapAISDK(ai);
  const model = createOpenAI({ apiKey, baseURL: fake.openaiURL }).chat('gpt-4o-mini');
  const streamed = w.streamText({ model, prompt: 'Stream hi', maxRetries: 0 });
  const textParts = await collect(streamed.textStream);
  const generated = await w.generateText({ model, prompt: 'Say hi', maxRetries: 0 });
  return {
    chat: await openai.chat.completions.create(CHAT),
    chatStream: await collect(await openai.chat.completions.create({ ...CHAT, stream: true })),
    responses: await openai.responses.create({ model: 'gpt-4o-mini', input: 'Say hi' }),
    responsesStream: await collect(await openai.responses.create({ model: 'gpt-4o-mini', input: 'Stream hi', stream: true })),
    message: await anthropic.messages.create(CLAUDE),
    messageStream: await collect(await anthropic.messages.create({ ...CLAUDE, stream: true })),
    generateText: { text: generated.text, usage: generated.usage, finishReason: generated.finishReason, id: generated.response.id },
    streamText: { parts: textParts, usage: await streamed.usage },
  };
}

// the AI SDK's model calls are its steps' requests (ai.generateText.doGenerate, ai.streamText.doStream), not the operations
const MODEL_CALLS = ['openai.chat.completions.create', 'openai.responses.create', 'anthropic.messages.create', 'ai.generateText.doGenerate', 'ai.streamText.doStream'];

/** `summary.cache` of every model call, by op name (each op's calls in order). */
function cacheMarks(calls: CallRecord[]): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const c of calls) if (MODEL_CALLS.includes(c.op_name)) (out[c.op_name] ??= []).push((c.summary as Record<string, unknown>)['cache']);
  return out;
}

function entries(): CassetteEntry[] {
  return readFileSync(cassette, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as CassetteEntry);
}

describe('WEFT_LLM_CACHE', () => {
  let recorded: Record<string, unknown> | undefined;

  it('record: calls go live and are stored as sorted JSONL without the API key; the model calls say summary.cache "record"', async () => {
    vi.stubEnv('WEFT_LLM_CACHE_DIR', dir);
    vi.stubEnv('WEFT_LLM_CACHE', 'record');
    const fake: FakeLlm = await startFakeLlm();
    try {
      const calls = await traced(server(), 'llm-cache-rec', async () => (recorded = await workload(fake, 'sk-record-secret')));
      expect(fake.requests).toHaveLength(8);
      expect(cacheMarks(calls)).toEqual({
        'openai.chat.completions.create': ['record', 'record'],
        'openai.responses.create': ['record', 'record'],
        'anthropic.messages.create': ['record', 'record'],
        'ai.generateText.doGenerate': ['record'],
        'ai.streamText.doStream': ['record'],
      });
    } finally {
      await fake.close();
    }
    const text = readFileSync(cassette, 'utf8');
    expect(text).not.toContain('sk-record-secret');
    const lines = entries();
    expect(lines).toHaveLength(8);
    expect(lines.map((e) => e.key)).toEqual(lines.map((e) => e.key).sort());
    const stream = lines.find((e) => e.request.path === '/v1/chat/completions' && (e.request.body as { stream?: boolean }).stream);
    expect(stream!.response.headers['content-type']).toContain('text/event-stream');
    expect(stream!.response.events!.at(-1)).toBe('data: [DONE]');
    expect(lines.find((e) => e.request.path === '/v1/messages' && !(e.request.body as { stream?: boolean }).stream)!.response.json).toEqual(recorded!['message']);
  });

  it('replay: the same calls with the fake closed and another API key answer as recorded, chunk by chunk; summary.cache "replay"', async () => {
    vi.stubEnv('WEFT_LLM_CACHE', 'replay');
    forgetCassettes(); // read back from the file
    const closed = { openaiURL: 'http://127.0.0.1:9/v1', anthropicURL: 'http://127.0.0.1:9' };
    let replayed: Record<string, unknown> | undefined;
    const calls = await traced(server(), 'llm-cache-play', async () => (replayed = await workload(closed, 'sk-other-key')));
    expect(replayed).toEqual(recorded);
    expect((replayed!['chatStream'] as unknown[]).length).toBeGreaterThan(2);
    expect(cacheMarks(calls)).toEqual({
      'openai.chat.completions.create': ['replay', 'replay'],
      'openai.responses.create': ['replay', 'replay'],
      'anthropic.messages.create': ['replay', 'replay'],
      'ai.generateText.doGenerate': ['replay'],
      'ai.streamText.doStream': ['replay'],
    });
    const chat = calls.find((c) => c.op_name === 'openai.chat.completions.create' && !(c.inputs as { stream?: boolean }).stream)!;
    expect(chat.output).toEqual(recorded!['chat']);
    expect((chat.summary as Record<string, unknown>)['request_id']).toMatch(/^req_/);
    // the AI SDK calls record the caller's model (its id), not the view of it whose requests the cache sees
    for (const op of ['ai.generateText', 'ai.streamText']) {
      expect(calls.find((c) => c.op_name === op)!.inputs).toMatchObject({ model: 'gpt-4o-mini' });
    }
  });

  it('replay: a request not recorded fails with its model, an excerpt, the key and the command that records it', async () => {
    vi.stubEnv('WEFT_LLM_CACHE', 'replay');
    const openai = wrapOpenAI(new OpenAI({ apiKey: 'sk-x', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0 }));
    const changed = { ...CHAT, messages: [{ role: 'user' as const, content: 'Say something else entirely' }] };
    const err = await openai.chat.completions.create(changed).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    const key = requestKey(normalizeRequest('POST', '/v1/chat/completions', JSON.stringify(changed)));
    const message = (err as Error).message;
    expect(message).toContain('POST /v1/chat/completions (model gpt-4o-mini): "Say something else entirely"');
    expect(message).toContain(`key ${key}, in ${cassette}`);
    expect(message).toContain('Record it with: WEFT_LLM_CACHE=record npx vitest run packages/weft-trace/test/integrations/llm-cache.test.ts');
  });
});

/** A LangChain chat model over an unwrapped OpenAI client given `llmCacheFetch()` (as `ChatOpenAI`'s `configuration.fetch` would be). */
class CachedChat extends BaseChatModel {
  constructor(private readonly client: OpenAI) {
    super({});
  }
  _llmType(): string {
    return 'cached-chat';
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const res = await this.client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: String(messages.at(-1)!.content) }] });
    const text = res.choices[0]!.message.content ?? '';
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}

describe('llmCacheFetch() where no wrapper reaches: a LangChain model run', () => {
  it('records, then replays with the fake closed; the model run says summary.cache', async () => {
    vi.stubEnv('WEFT_LLM_CACHE_DIR', dir);
    const run = async (mode: 'record' | 'replay', baseURL: string): Promise<[unknown, unknown]> => {
      vi.stubEnv('WEFT_LLM_CACHE', mode);
      const chat = new CachedChat(new OpenAI({ apiKey: 'sk-lc', baseURL, maxRetries: 0, fetch: llmCacheFetch() }));
      let text: unknown;
      const calls = await traced(server(), `llm-cache-lc-${mode}`, () =>
        op(async function agent() {
          text = (await chat.invoke('Say hi from LangChain', { callbacks: [new WeftTracer()] })).content;
        })(),
      );
      return [text, (calls.find((c) => c.op_name === 'langchain.chat_model.CachedChat')!.summary as Record<string, unknown>)['cache']];
    };
    const fake = await startFakeLlm();
    let recorded: [unknown, unknown];
    try {
      recorded = await run('record', fake.openaiURL);
    } finally {
      await fake.close();
    }
    expect(recorded[1]).toBe('record');
    expect(await run('replay', 'http://127.0.0.1:9/v1')).toEqual([recorded[0], 'replay']);
  });
});

describe('the example of docs/evaluations.md in a child vitest (the built weft-trace)', () => {
  const root = join(dirname(THIS_FILE), '../../../../examples/llm-cache');

  it('docs/evaluations.md shows the example as it is (its code after the leading comment)', () => {
    const code = readFileSync(join(root, 'one-liners.eval.test.ts'), 'utf8').replace(/^(\/\/.*\n)+/, '');
    const docs = readFileSync(join(root, '../../docs/evaluations.md'), 'utf8');
    expect(docs).toContain(`// examples/llm-cache/one-liners.eval.test.ts\n${code}`);
  });

  it('in CI a describeEval replays its committed cassette with no key and no network, and its model calls say so', async () => {
    const project = uniqueProject('llm-cache-example');
    const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', NO_COLOR: '1', WEFT_PROJECT: project, WEFT_BASE_URL: server().url, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
    for (const k of Object.keys(env)) if (k.startsWith('VITEST') || k === 'WEFT_LLM_CACHE' || k === 'WEFT_LLM_CACHE_DIR' || k === 'OPENAI_API_KEY') delete env[k];
    const child = spawnTracked(process.execPath, [join(root, '../../node_modules/vitest/vitest.mjs'), 'run', '--root', root], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code, out).toBe(0);
    expect(out).toContain('weft eval "cached-one-liners": 2 rows, said 1,');
    const calls = (await readCalls(server().url, project)).filter((c) => c.op_name === 'openai.chat.completions.create');
    expect(calls.map((c) => [(c.summary as Record<string, unknown>)['cache'], (c.output as { choices: { message: { content: string } }[] }).choices[0]!.message.content])).toEqual([
      ['replay', 'w0 w1 w2 w3 w4'],
      ['replay', 'w0 w1 w2 w3 w4'],
    ]);
  });
});

describe('llm cache keys and places', () => {
  const body = { model: 'gpt-4o-mini', temperature: 0, messages: [{ role: 'user', content: 'hi', name: 'u' }] };
  const keyOf = (url: string, b: unknown): string | undefined => requestKey(normalizeRequest('post', url, JSON.stringify(b)));

  it('the key ignores key order, host and credential query parameters, and changes with the request', () => {
    const reordered = { messages: [{ name: 'u', content: 'hi', role: 'user' }], temperature: 0, model: 'gpt-4o-mini' };
    const k = keyOf('https://api.openai.com/v1/chat/completions', body);
    expect(k).toMatch(/^[0-9a-f]{16}$/);
    expect(keyOf('http://127.0.0.1:4010/v1/chat/completions', reordered)).toBe(k);
    expect(keyOf('https://api.openai.com/v1/chat/completions?key=AIza-secret', body)).toBe(k);
    expect(keyOf('https://api.openai.com/v1/chat/completions', { ...body, messages: [{ role: 'user', content: 'hello' }] })).not.toBe(k);
    expect(keyOf('https://api.openai.com/v1/chat/completions', { ...body, temperature: 1 })).not.toBe(k);
    expect(keyOf('https://api.openai.com/v1/responses', body)).not.toBe(k);
  });

  it('the cassette sits in __llm_cache__ beside the test file, named after it, unless a folder is given', () => {
    vi.unstubAllEnvs();
    expect(cassettePath({})).toBe(join(dirname(THIS_FILE), '__llm_cache__', 'llm-cache.test.ts.jsonl'));
    expect(cassettePath({ dir: dir })).toBe(cassette);
  });

  it('mode: WEFT_LLM_CACHE wins; unset is off, and replay only in CI inside a describeEval file', () => {
    vi.stubEnv('WEFT_LLM_CACHE', '');
    vi.stubEnv('CI', '');
    expect(llmCacheMode()).toBe('off');
    vi.stubEnv('CI', 'true');
    expect(llmCacheMode()).toBe('off');
    enterEvalFile(THIS_FILE);
    expect(llmCacheMode()).toBe('replay');
    vi.stubEnv('CI', '');
    expect(llmCacheMode()).toBe('off');
    vi.stubEnv('WEFT_LLM_CACHE', 'record');
    expect(llmCacheMode()).toBe('record');
  });
});
