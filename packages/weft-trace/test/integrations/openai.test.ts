// @weft-test: runtime
// wrapOpenAI against the real openai SDK (6, and 7 where Node >= 22) and a loopback fake of the API: results unchanged, calls recorded with usage, streams, errors.
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { evaluate, llmJudge, op, wrapOpenAI } from '../../src/index.js';
import { readVerdict } from '../../src/eval/scorers/llm-judge.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { collect, useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { OPENAI_USAGE, streamedText } from 'weft-test-kit/fake-llm-openai.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { majorsOf } from 'weft-test-kit/sdk-majors.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const fake = useFakeLlm();
/** The installed majors of `openai` this Node runs (7 needs Node >= 22), each typed as the 6 the tests are written against. */
const MAJORS = await majorsOf('openai', {
  openai: () => Promise.resolve(OpenAI),
  'openai-v7': async () => (await import('openai-v7')).default as unknown as typeof OpenAI,
});

function clientsOf(SDK: typeof OpenAI): { raw: OpenAI; wrapped: OpenAI } {
  const raw = new SDK({ apiKey: 'sk-test-secret', baseURL: fake().openaiURL, maxRetries: 0 });
  return { raw, wrapped: wrapOpenAI(raw) };
}

const CHAT_USAGE = {
  prompt_tokens: 1200,
  input_tokens: 1200,
  completion_tokens: 80,
  output_tokens: 80,
  total_tokens: 1280,
  requests: 1,
  cache_read_input_tokens: 200,
  reasoning_tokens: 30,
};
const MODEL = 'gpt-4o-mini-2024-07-18';
const body = (model = 'gpt-4o-mini'): OpenAI.ChatCompletionCreateParamsNonStreaming => ({ model, messages: [{ role: 'user', content: 'Say hi' }], temperature: 0 });

describe.each(MAJORS)('$label', ({ sdk: OpenAI }) => {
  const clients = (): ReturnType<typeof clientsOf> => clientsOf(OpenAI);

  describe('wrapOpenAI: chat.completions.create', () => {
    it('returns what the SDK returns, and records request, completion, usage and gen_ai attributes under the running call', async () => {
      const { raw, wrapped } = clients();
      let got: unknown;
      const calls = await traced(server(), 'oa-chat', () =>
        op(async function agent() {
          got = await wrapped.chat.completions.create(body());
        })(),
      );
      expect(got).toEqual(await raw.chat.completions.create(body()));
      const c = one(calls, 'openai.chat.completions.create');
      expect(c.parent_id).toBe(one(calls, 'agent').id);
      expect(c.inputs).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hi' }], temperature: 0 });
      expect((c.output as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe(streamedText(5));
      expect(c.attributes).toMatchObject({ 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.operation.name': 'chat' });
      expect(c.summary).toMatchObject({ usage: { [MODEL]: CHAT_USAGE }, 'gen_ai.response.finish_reasons': ['stop'], 'gen_ai.response.model': MODEL });
      expect((c.summary as Record<string, unknown>)['request_id']).toMatch(/^req_/);
      expect(one(calls, 'agent').summary).toMatchObject({ usage: { [MODEL]: CHAT_USAGE } });
    });

    it('streams the same chunks in the same order, asks for usage without showing it, and records the assembled message and time to first token', async () => {
      const { raw, wrapped } = clients();
      const streamBody = { ...body(), stream: true as const };
      let chunks: unknown[] = [];
      const calls = await traced(server(), 'oa-stream', async () => {
        chunks = await collect(await wrapped.chat.completions.create(streamBody));
      });
      expect(fake().requests.at(-1)!.body['stream_options']).toEqual({ include_usage: true });
      expect(chunks).toEqual(await collect(await raw.chat.completions.create(streamBody)));
      expect(fake().requests.at(-1)!.body['stream_options']).toBeUndefined();
      const c = one(calls, 'openai.chat.completions.create');
      expect(c.inputs).toEqual(streamBody);
      expect(c.output).toMatchObject({ model: MODEL, choices: [{ index: 0, message: { role: 'assistant', content: streamedText(5), refusal: null }, finish_reason: 'stop' }] });
      const s = c.summary as Record<string, unknown>;
      expect(s['usage']).toEqual({ [MODEL]: CHAT_USAGE });
      expect(typeof s['time_to_first_token_ms']).toBe('number');
      expect(s['time_to_first_token_ms'] as number).toBeGreaterThanOrEqual(0);
    });

    it('keeps the usage chunk when the caller asked for it', async () => {
      const { raw, wrapped } = clients();
      const streamBody = { ...body(), stream: true as const, stream_options: { include_usage: true } };
      let chunks: OpenAI.ChatCompletionChunk[] = [];
      const calls = await traced(server(), 'oa-stream-usage', async () => {
        chunks = await collect(await wrapped.chat.completions.create(streamBody));
      });
      expect(chunks.at(-1)!.usage).toEqual(OPENAI_USAGE);
      expect(chunks).toEqual(await collect(await raw.chat.completions.create(streamBody)));
      expect(one(calls, 'openai.chat.completions.create').summary).toMatchObject({ usage: { [MODEL]: CHAT_USAGE } });
    });

    it('assembles streamed tool calls and refusals', async () => {
      const { wrapped } = clients();
      const calls = await traced(server(), 'oa-tool', async () => {
        await collect(await wrapped.chat.completions.create({ ...body('gpt-4o-tool'), stream: true }));
        await collect(await wrapped.chat.completions.create({ ...body('gpt-4o-refuse'), stream: true }));
      });
      const [tool, refusal] = calls.filter((c) => c.op_name === 'openai.chat.completions.create') as [CallRecord, CallRecord];
      expect(tool.output).toMatchObject({
        choices: [{ message: { tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }, finish_reason: 'tool_calls' }],
      });
      expect(tool.summary).toMatchObject({ 'gen_ai.response.finish_reasons': ['tool_calls'] });
      expect(refusal.output).toMatchObject({ choices: [{ message: { content: null, refusal: "I'm sorry, I can't help with that." } }] });
    });

    it('break out of a stream ends the call as cancelled with what was received', async () => {
      const { wrapped } = clients();
      const calls = await traced(server(), 'oa-break', async () => {
        const stream = await wrapped.chat.completions.create({ ...body(), stream: true });
        let n = 0;
        for await (const _ of stream) if (++n === 3) break;
      });
      const c = one(calls, 'openai.chat.completions.create');
      expect(c.summary).toMatchObject({ status: 'cancelled', usage: { 'gpt-4o-mini-2024-07-18': { requests: 1 } } });
      expect(c.output).toMatchObject({ choices: [{ message: { content: 'w0 w1' } }] });
    });

    it('records withResponse() as the completion (not {data, response}) with the request id', async () => {
      const { wrapped } = clients();
      let r: { data: OpenAI.ChatCompletion; request_id: string | null } | undefined;
      const calls = await traced(server(), 'oa-with-response', async () => {
        r = await wrapped.chat.completions.create(body()).withResponse();
      });
      expect(r!.data.choices[0]!.message.content).toBe(streamedText(5));
      const c = one(calls, 'openai.chat.completions.create');
      expect(c.output).toMatchObject({ id: 'chatcmpl-1', object: 'chat.completion' });
      expect(c.output).not.toHaveProperty('response');
      expect((c.summary as Record<string, unknown>)['request_id']).toBe(r!.request_id);
    });

    it('a stream read through toReadableStream() is recorded too', async () => {
      const { wrapped } = clients();
      let lines: string[] = [];
      const calls = await traced(server(), 'oa-readable', async () => {
        const stream = await wrapped.chat.completions.create({ ...body(), stream: true });
        lines = (await new Response(stream.toReadableStream()).text()).trim().split('\n');
      });
      expect(lines).toHaveLength(7);
      expect(JSON.parse(lines.at(-1)!)).not.toHaveProperty('usage');
      expect(one(calls, 'openai.chat.completions.create').output).toMatchObject({ choices: [{ message: { content: streamedText(5) } }] });
    });

    it('tee() of a wrapped stream: both branches yield the SDK chunks, and the call is recorded once, with usage', async () => {
      const { raw, wrapped } = clients();
      const streamBody = { ...body(), stream: true as const };
      let branches: unknown[][] = [];
      const calls = await traced(server(), 'oa-tee', async () => {
        const [left, right] = (await wrapped.chat.completions.create(streamBody)).tee();
        branches = await Promise.all([collect(left), collect(right)]);
      });
      const expected = await collect(await raw.chat.completions.create(streamBody));
      expect(branches[0]).toEqual(expected);
      expect(branches[1]).toEqual(expected);
      const c = one(calls, 'openai.chat.completions.create');
      expect(c.output).toMatchObject({ choices: [{ message: { content: streamedText(5) }, finish_reason: 'stop' }] });
      expect(c.summary).toMatchObject({ status: 'success', usage: { [MODEL]: CHAT_USAGE } });
    });

    it('withResponse() of a stream hands back the traced stream', async () => {
      const { wrapped } = clients();
      const calls = await traced(server(), 'oa-with-response-stream', async () => {
        const { data } = await wrapped.chat.completions.create({ ...body(), stream: true }).withResponse();
        expect((await collect(data)).length).toBe(7);
      });
      expect(one(calls, 'openai.chat.completions.create').output).toMatchObject({ choices: [{ message: { content: streamedText(5) } }] });
    });

    it('asResponse() gives the raw Response and records its JSON body', async () => {
      const { wrapped } = clients();
      const calls = await traced(server(), 'oa-as-response', async () => {
        const res = await wrapped.chat.completions.create(body()).asResponse();
        expect(((await res.json()) as { id: string }).id).toBe('chatcmpl-1');
      });
      expect(one(calls, 'openai.chat.completions.create').summary).toMatchObject({ usage: { [MODEL]: CHAT_USAGE } });
    });

    it.each([
      [400, OpenAI.BadRequestError],
      [429, OpenAI.RateLimitError],
      [500, OpenAI.InternalServerError],
    ])('records an HTTP %i and rethrows the SDK error unchanged', async (status, cls) => {
      const { wrapped } = clients();
      let thrown: unknown;
      const calls = await traced(server(), `oa-${status}`, async () => {
        try {
          await wrapped.chat.completions.create(body(`fail-${status}`));
        } catch (err) {
          thrown = err;
        }
      });
      expect(thrown).toBeInstanceOf(cls);
      if (status === 429) expect((thrown as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('7');
      const c = one(calls, 'openai.chat.completions.create');
      expect(c.exception).toMatchObject({ type: cls.name, status, request_id: 'req_err' });
      expect((c.exception as { message: string }).message).toContain(String(status));
    });

    it('records a provider error by its class, with its status, code, error type and request id (issue 24 item 3)', async () => {
      const { wrapped } = clients();
      let thrown: unknown;
      const calls = await traced(server(), 'oa-400-facts', async () => {
        await wrapped.chat.completions.create(body('fail-400')).catch((err: unknown) => (thrown = err));
      });
      expect(thrown).toBeInstanceOf(OpenAI.BadRequestError);
      expect(one(calls, 'openai.chat.completions.create').exception).toMatchObject({
        type: 'BadRequestError',
        status: 400,
        code: 'invalid_value',
        error_type: 'invalid_request_error',
        request_id: 'req_err',
      });
    });

    it('records the request id of a streamed call', async () => {
      const { wrapped } = clients();
      const calls = await traced(server(), 'oa-stream-rid', async () => {
        await collect(await wrapped.chat.completions.create({ ...body(), stream: true }));
      });
      expect((one(calls, 'openai.chat.completions.create').summary as Record<string, unknown>)['request_id']).toMatch(/^req_/);
    });

    it('a stream cut mid-way is recorded as an error and the SDK error reaches the caller', async () => {
      const { wrapped } = clients();
      let thrown: unknown;
      const calls = await traced(server(), 'oa-cut', async () => {
        try {
          await collect(await wrapped.chat.completions.create({ ...body('gpt-4o-cut'), stream: true }));
        } catch (err) {
          thrown = err;
        }
      });
      expect(thrown).toBeInstanceOf(Error);
      expect(one(calls, 'openai.chat.completions.create').exception).toMatchObject({ type: (thrown as Error).name, message: expect.any(String) });
    });
  });

  describe('wrapOpenAI: responses and embeddings', () => {
    it('responses.create, streamed and not, records the response with Responses usage', async () => {
      const { raw, wrapped } = clients();
      const req = { model: 'gpt-4o-mini', input: 'Say hi' };
      let plain: unknown;
      let events: unknown[] = [];
      const calls = await traced(server(), 'oa-responses', async () => {
        plain = await wrapped.responses.create(req);
        events = await collect(await wrapped.responses.create({ ...req, stream: true }));
      });
      expect(plain).toEqual(await raw.responses.create(req));
      expect(events).toEqual(await collect(await raw.responses.create({ ...req, stream: true })));
      const [a, b] = calls.filter((c) => c.op_name === 'openai.responses.create') as [CallRecord, CallRecord];
      for (const c of [a, b]) {
        expect(c.summary).toMatchObject({ usage: { [MODEL]: CHAT_USAGE }, 'gen_ai.response.finish_reasons': ['completed'] });
      }
      expect(b.output).toMatchObject({ id: 'resp_1', status: 'completed', output_text: streamedText(5) });
      expect(typeof (b.summary as Record<string, unknown>)['time_to_first_token_ms']).toBe('number');
    });

    it('embeddings.create records dimensions instead of vectors, and prompt-token usage', async () => {
      const { raw, wrapped } = clients();
      const req = { model: 'text-embedding-3-small', input: ['a', 'b'] };
      let got: unknown;
      const calls = await traced(server(), 'oa-embed', async () => {
        got = await wrapped.embeddings.create(req);
      });
      expect(got).toEqual(await raw.embeddings.create(req));
      const c = one(calls, 'openai.embeddings.create');
      expect(c.output).toMatchObject({ data: [{ index: 0, dimensions: 8 }, { index: 1, dimensions: 8 }] });
      expect(c.summary).toMatchObject({ usage: { 'text-embedding-3-small': { prompt_tokens: 24, total_tokens: 24, requests: 1 } } });
      expect(c.attributes).toMatchObject({ 'gen_ai.operation.name': 'embeddings' });
    });

    it('leaves other members alone, keeps instanceof, and wrapping twice is a no-op', () => {
      const { raw, wrapped } = clients();
      expect(wrapped).toBeInstanceOf(OpenAI);
      expect(wrapped.baseURL).toBe(raw.baseURL);
      expect(wrapOpenAI(wrapped)).toBe(wrapped);
      expect(wrapped.chat).toBe(wrapped.chat);
      expect(wrapped.chat.completions.create).toBe(wrapped.chat.completions.create);
    });
  });

  describe('wrapOpenAI: stream helpers', () => {
    it('chat.completions.stream keeps its events and finalChatCompletion(), recorded once as openai.chat.completions.stream', async () => {
      const { wrapped } = clients();
      const deltas: string[] = [];
      let final: OpenAI.ChatCompletion | undefined;
      const calls = await traced(server(), 'oa-helper', async () => {
        const s = wrapped.chat.completions.stream({ ...body(), stream: true });
        s.on('content', (d) => deltas.push(d));
        final = await s.finalChatCompletion();
      });
      expect(deltas.join('')).toBe(streamedText(5));
      expect(final!.choices[0]!.message.content).toBe(streamedText(5));
      expect(calls.map((c) => c.op_name)).toEqual(['openai.chat.completions.stream']);
      expect(calls[0]!.summary).toMatchObject({ usage: { [MODEL]: CHAT_USAGE } });
    });

    it('responses.stream keeps finalResponse(), recorded as openai.responses.stream', async () => {
      const { wrapped } = clients();
      let final: { output_text?: string } | undefined;
      const calls = await traced(server(), 'oa-resp-helper', async () => {
        final = await wrapped.responses.stream({ model: 'gpt-4o-mini', input: 'hi' }).finalResponse();
      });
      expect(final!.output_text).toBe(streamedText(5));
      expect(calls.map((c) => c.op_name)).toEqual(['openai.responses.stream']);
      expect(calls[0]!.summary).toMatchObject({ usage: { [MODEL]: CHAT_USAGE } });
    });

    it('responses.stream of a failed request records the SDK error, and finalResponse() rejects with it', async () => {
      const { wrapped } = clients();
      let thrown: unknown;
      const calls = await traced(server(), 'oa-resp-helper-err', async () => {
        await wrapped.responses.stream({ model: 'fail-400', input: 'hi' }).finalResponse().catch((err: unknown) => (thrown = err));
      });
      expect(thrown).toBeInstanceOf(OpenAI.BadRequestError);
      expect(one(calls, 'openai.responses.stream').exception).toMatchObject({ type: 'BadRequestError', status: 400, request_id: 'req_err' });
    });
  });
});

describe('wrapOpenAI: a client of any shape', () => {
  it('hides usage: null also when it is not the last field of a chunk (a copy with the same fields in order)', async () => {
    // the API adds fields after usage (e.g. `obfuscation`); an in-process stand-in of the SDK (wrapOpenAI wraps any client shape)
    const sent: Record<string, unknown>[] = [];
    const chunk = (content: string, withUsage: boolean): Record<string, unknown> => ({
      id: 'c1',
      object: 'chat.completion.chunk',
      model: MODEL,
      choices: [{ index: 0, delta: { content }, finish_reason: null }],
      ...(withUsage ? { usage: null } : {}),
      obfuscation: 'x1',
    });
    const client = {
      chat: {
        completions: {
          create: (b: Record<string, unknown>) => {
            sent.push(b);
            const withUsage = (b['stream_options'] as { include_usage?: boolean } | undefined)?.include_usage === true;
            return Promise.resolve({
              async *[Symbol.asyncIterator]() {
                yield chunk('a', withUsage);
                yield chunk('b', withUsage);
                if (withUsage) yield { id: 'c1', object: 'chat.completion.chunk', model: MODEL, choices: [], usage: OPENAI_USAGE, obfuscation: 'x2' };
              },
            });
          },
        },
      },
    };
    const streamBody = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true };
    let chunks: Record<string, unknown>[] = [];
    const calls = await traced(server(), 'oa-usage-not-last', async () => {
      chunks = await collect((await wrapOpenAI(client).chat.completions.create(streamBody)) as AsyncIterable<Record<string, unknown>>);
    });
    const unwrapped = await collect((await client.chat.completions.create(streamBody)) as AsyncIterable<Record<string, unknown>>);
    expect(sent[0]!['stream_options']).toEqual({ include_usage: true });
    expect(sent[1]!['stream_options']).toBeUndefined();
    expect(chunks).toEqual(unwrapped);
    expect(chunks.map((c) => Object.keys(c))).toEqual(unwrapped.map((c) => Object.keys(c)));
    expect(one(calls, 'openai.chat.completions.create').summary).toMatchObject({ usage: { [MODEL]: CHAT_USAGE } });
  });
});

describe('llmJudge over a wrapped OpenAI client (evaluate)', () => {
  it("asks the model with the rubric, traces its request beneath the scorer's call, counts its tokens, and records an unreadable verdict as the row's scorer failure", async () => {
    const { wrapped } = clientsOf(OpenAI);
    const judge = llmJudge({ client: wrapped, model: 'gpt-4o-mini', rubric: 'Names the capital.' });
    let run: Awaited<ReturnType<typeof evaluate>> | undefined;
    const calls = await traced(server(), 'oa-judge', async () => {
      run = await evaluate({ name: 'judged', dataset: [{ q: 'France?', expected: 'Paris' }], task: () => 'Paris', scorers: [judge], progress: false });
    });
    const asked = fake().requests.at(-1)!.body as { messages: Array<{ role: string; content: string }>; temperature: number };
    expect(asked.messages[1]!.content).toContain('RUBRIC:\nNames the capital.');
    expect(asked.messages[1]!.content).toContain('OUTPUT:\nParis');
    // the fake answers "w0 w1 ...", which holds no verdict: the scorer fails, the run goes on
    expect(run!.rows[0]!.scorerErrors).toEqual({ llm_judge: expect.stringMatching(/no JSON object in the reply: w0 w1/) });
    expect(run!.summary.failures.scorers).toEqual({ llm_judge: 1 });
    expect(one(calls, 'openai.chat.completions.create').parent_id).toBe(one(calls, 'llm_judge').id);
    expect(run!.summary.tokens).toEqual({ prompt: 1200, completion: 80, total: 1280 });
    expect(run!.summary.costUsd).toBeGreaterThan(0);
    expect(readVerdict('Sure: {"score": 1.4, "reason": "exact"}')).toEqual({ score: 1, reason: 'exact' });
  });
});
