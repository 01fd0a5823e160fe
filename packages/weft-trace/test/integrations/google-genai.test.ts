// @weft-test: runtime
// wrapGoogleGenAI against the real @google/genai and a loopback fake of the Gemini API: the tree, usage and cost once per request, streams, chats, errors.
import { GoogleGenAI, Type, type FunctionCall, type Part } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { op, wrapGoogleGenAI } from '../../src/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { chatOfCall } from 'weft-server/src/ui/chat/chat-of-call.js';
import { readCalls } from 'weft-test-kit/calls.js';
import { collect } from 'weft-test-kit/fake-llm.js';
import { REPLY, THOUGHT, useFakeGemini } from 'weft-test-kit/fake-gemini.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const fake = useFakeGemini();

function clients(): { raw: GoogleGenAI; wrapped: GoogleGenAI } {
  const raw = new GoogleGenAI({ apiKey: 'gemini-test-key', httpOptions: { baseUrl: fake().url } });
  return { raw, wrapped: wrapGoogleGenAI(raw) };
}

const MODEL = 'gemini-2.5-flash';
// promptTokenCount 1200 includes the 200 cached; thoughts (30) are output on top of the 40 candidate tokens.
const USAGE = {
  ...{ prompt_tokens: 1200, input_tokens: 1200, cache_read_input_tokens: 200, requests: 1 },
  ...{ completion_tokens: 70, output_tokens: 70, reasoning_tokens: 30, total_tokens: 1270 },
};
// gemini-2.5-flash (genai-prices): 1000 x $0.30/M + 200 cached x $0.03/M + 70 x $2.50/M
const COST = 0.000481;
const ask = (text: string) => ({ model: MODEL, contents: text, config: { temperature: 0, thinkingConfig: { includeThoughts: true } } });
const costsOf = async (project: string, id: string): Promise<Record<string, { total_cost: number; requests: number }>> => {
  const [c] = await readCalls(server().url, project, { filter: { call_ids: [id] }, include_costs: true });
  return (c!.summary as { costs: Record<string, { total_cost: number; requests: number }> }).costs;
};

describe('wrapGoogleGenAI: models', () => {
  it('generateContent returns what the SDK returns; the call nests under the op with request, response, usage and cost once', async () => {
    const { raw, wrapped } = clients();
    let got: Awaited<ReturnType<GoogleGenAI['models']['generateContent']>> | undefined;
    const calls = await traced(server(), 'gg-generate', () =>
      op(async function agent() {
        got = await wrapped.models.generateContent(ask('Why is the sky blue?'));
      })(),
    );
    const plain = await raw.models.generateContent(ask('Why is the sky blue?'));
    expect(got!.candidates).toEqual(plain.candidates);
    expect(got!.text).toBe(plain.text);
    const [agent, c] = [one(calls, 'agent'), one(calls, 'google_genai.models.generateContent')];
    expect(calls).toHaveLength(2);
    expect([c.parent_id, c.trace_id]).toEqual([agent.id, agent.trace_id]);
    expect(c.inputs).toEqual(ask('Why is the sky blue?'));
    expect(c.output).toEqual({
      candidates: [{ content: { parts: [{ text: THOUGHT, thought: true }, { text: `${REPLY.join('')} (Why is the sky blue?)` }], role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: expect.objectContaining({ thoughtsTokenCount: 30 }),
      modelVersion: MODEL,
      responseId: expect.stringMatching(/^resp-/),
    });
    expect(c.attributes).toMatchObject({ 'gen_ai.provider.name': 'gcp.gemini', 'gen_ai.operation.name': 'generate_content', 'gen_ai.request.model': MODEL });
    expect(c.summary).toMatchObject({ usage: { [MODEL]: USAGE }, 'gen_ai.response.finish_reasons': ['STOP'], 'gen_ai.response.model': MODEL, 'gen_ai.response.id': (c.output as { responseId: string }).responseId });
    expect(agent.summary).toMatchObject({ usage: { [MODEL]: USAGE } });
    const costs = await costsOf(agent.project_id, agent.id);
    expect(costs[MODEL]).toMatchObject({ requests: 1, total_cost: COST });
  });

  it('generateContentStream yields the same chunks; the call records them joined, the last usage and time to first token', async () => {
    const { raw, wrapped } = clients();
    let chunks: unknown[] = [];
    const calls = await traced(server(), 'gg-stream', async () => {
      chunks = await collect(await wrapped.models.generateContentStream(ask('Stream it')));
    });
    const plain = await collect(await raw.models.generateContentStream(ask('Stream it')));
    expect(chunks.map((x) => (x as { candidates: unknown }).candidates)).toEqual(plain.map((x) => x.candidates));
    expect(chunks).toHaveLength(REPLY.length + 1);
    expect(fake().requests.at(-1)).toMatchObject({ path: `/v1/models/${MODEL}:streamGenerateContent`, query: 'alt=sse' });
    const c = one(calls, 'google_genai.models.generateContentStream');
    expect(c.output).toMatchObject({
      candidates: [{ content: { role: 'model', parts: [{ text: THOUGHT, thought: true }, { text: REPLY.join('') }] }, finishReason: 'STOP' }],
      modelVersion: MODEL,
    });
    expect(c.summary).toMatchObject({ status: 'success', usage: { [MODEL]: USAGE }, 'gen_ai.response.finish_reasons': ['STOP'] });
    expect((c.summary as Record<string, unknown>)['time_to_first_token_ms']).toEqual(expect.any(Number));
  });

  it('a stream left early is cancelled with the usage of the last chunk read', async () => {
    const { wrapped } = clients();
    const calls = await traced(server(), 'gg-break', async () => {
      for await (const _ of await wrapped.models.generateContentStream({ model: `models/${MODEL}`, contents: 'Hi' })) break;
    });
    const c = one(calls, 'google_genai.models.generateContentStream');
    expect(c.summary).toMatchObject({ status: 'cancelled', usage: { [MODEL]: { input_tokens: 1200, output_tokens: 40, reasoning_tokens: 30, requests: 1 } } });
    expect(c.output).toMatchObject({ candidates: [{ content: { parts: [{ text: REPLY[0] }] } }] });
  });

  it('embedContent records the dimensions instead of the vectors, the prompt tokens and their cost', async () => {
    const { wrapped } = clients();
    let got: Awaited<ReturnType<GoogleGenAI['models']['embedContent']>> | undefined;
    const calls = await traced(server(), 'gg-embed', async () => {
      got = await wrapped.models.embedContent({ model: 'gemini-embedding-001', contents: ['one', 'two'] });
    });
    expect(got!.embeddings?.map((e) => e.values?.length)).toEqual([4, 4]);
    const c = one(calls, 'google_genai.models.embedContent');
    expect(c.attributes).toMatchObject({ 'gen_ai.operation.name': 'embeddings' });
    expect(c.output).toEqual({ embeddings: [{ dimensions: 4 }, { dimensions: 4 }], usageMetadata: expect.objectContaining({ promptTokenCount: 10 }) });
    expect(c.summary).toMatchObject({ usage: { 'gemini-embedding-001': { input_tokens: 10, output_tokens: 0, requests: 1 } } });
    // gemini-embedding-001: 10 x $0.15/M (an input-only price)
    expect((await costsOf(c.project_id, c.id))['gemini-embedding-001']).toMatchObject({ total_cost: 0.0000015 });
  });

  it('records an API error and rethrows the SDK error unchanged', async () => {
    const { wrapped } = clients();
    let thrown: unknown;
    const calls = await traced(server(), 'gg-error', async () => {
      await wrapped.models.generateContent({ model: 'fail-400', contents: 'x' }).catch((e: unknown) => (thrown = e));
    });
    expect(thrown).toMatchObject({ name: 'ApiError', status: 400 });
    expect(one(calls, 'google_genai.models.generateContent').exception).toMatchObject({ type: 'ApiError', message: (thrown as Error).message });
    expect(wrapGoogleGenAI(wrapped)).toBe(wrapped);
  });
});

describe('wrapGoogleGenAI: chats', () => {
  it('each turn is one call holding the conversation sent; the chat keeps its history; usage adds up once per request', async () => {
    const { raw, wrapped } = clients();
    const talk = async (ai: GoogleGenAI): Promise<{ history: unknown[]; streamed: unknown[] }> => {
      const chat = ai.chats.create({ model: MODEL, config: { systemInstruction: 'Be brief.' } });
      await chat.sendMessage({ message: 'Hello' });
      const streamed = await collect(await chat.sendMessageStream({ message: 'And why?' }));
      return { history: chat.getHistory(), streamed };
    };
    let got: Awaited<ReturnType<typeof talk>> | undefined;
    const calls: CallRecord[] = await traced(server(), 'gg-chat', () =>
      op(async function conversation() {
        got = await talk(wrapped);
      })(),
    );
    const plain = await talk(raw);
    expect(got!.history).toEqual(plain.history);
    expect(got!.streamed.map((x) => (x as { candidates: unknown }).candidates)).toEqual(plain.streamed.map((x) => (x as { candidates: unknown }).candidates));
    const root = one(calls, 'conversation');
    const send = one(calls, 'google_genai.chats.sendMessage');
    const stream = one(calls, 'google_genai.chats.sendMessageStream');
    expect(calls.map((c) => [c.op_name, c.parent_id === root.id || c === root, c.trace_id === root.trace_id])).toEqual([
      ['conversation', true, true],
      ['google_genai.chats.sendMessage', true, true],
      ['google_genai.chats.sendMessageStream', true, true],
    ]);
    expect(send.inputs).toMatchObject({ model: MODEL, contents: [{ role: 'user', parts: [{ text: 'Hello' }] }], config: { systemInstruction: 'Be brief.' } });
    expect((stream.inputs as { contents: { role: string }[] }).contents.map((x) => x.role)).toEqual(['user', 'model', 'user']);
    expect(send.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat' });
    // the viewer's chat view reads the turn as recorded: the system instruction, the conversation sent, the reply
    const chat = chatOfCall(stream);
    expect(chat?.messages.map((m) => `${m.reply ? '>' : ''}${m.role}: ${m.parts.map((p) => (p.kind === 'text' ? p.text : p.kind)).join(' | ')}`)).toEqual([
      'system: Be brief.',
      'user: Hello',
      `assistant: ${REPLY.join('')} (Hello)`,
      'user: And why?',
      `>assistant: ${REPLY.join('')}`,
    ]);
    const twice = Object.fromEntries(Object.entries(USAGE).map(([k, v]) => [k, 2 * v]));
    expect(root.summary).toMatchObject({ usage: { [MODEL]: twice } });
    expect((await costsOf(root.project_id, root.id))[MODEL]).toMatchObject({ requests: 2, total_cost: 2 * COST });
  });
});

describe('wrapGoogleGenAI: automatic function calling', () => {
  /** A callable tool: the SDK declares it, answers the model's call of it with its result, and asks again. */
  const weather = {
    tool: async () => ({ functionDeclarations: [{ name: 'get_weather', description: 'The weather in a city', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } } } }] }),
    callTool: async (fnCalls: FunctionCall[]): Promise<Part[]> => fnCalls.map((c) => ({ functionResponse: { name: c.name, response: { output: 'sunny' } } })),
  };
  const withTool = { model: MODEL, contents: 'Weather in Paris?', config: { tools: [weather] } };

  it('one generateContent, stream or chat turn that makes two requests records the usage of both, once (issue 48)', async () => {
    const { raw, wrapped } = clients();
    const run = async (ai: GoogleGenAI): Promise<string[]> => [
      (await ai.models.generateContent(withTool)).text ?? '',
      (await collect(await ai.models.generateContentStream(withTool))).map((c) => (c as { text?: string }).text ?? '').join(''),
      (await ai.chats.create({ model: MODEL, config: { tools: [weather] } }).sendMessage({ message: 'Weather in Paris?' })).text ?? '',
    ];
    const before = fake().requests.length;
    let got: string[] = [];
    const calls = await traced(server(), 'gg-afc', () => op(async function ask() { got = await run(wrapped); })());
    expect(fake().requests.length - before).toBe(6); // two requests each: the function call, then the answer
    expect(got).toEqual(await run(raw));
    const twice = Object.fromEntries(Object.entries(USAGE).map(([k, v]) => [k, 2 * v]));
    for (const name of ['google_genai.models.generateContent', 'google_genai.models.generateContentStream', 'google_genai.chats.sendMessage']) {
      expect([name, one(calls, name).summary?.['usage']]).toEqual([name, { [MODEL]: twice }]);
    }
    expect((await costsOf(one(calls, 'ask').project_id, one(calls, 'ask').id))[MODEL]).toMatchObject({ requests: 6 });
  });
});
