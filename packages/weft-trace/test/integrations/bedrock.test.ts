// wrapBedrock against the real @aws-sdk/client-bedrock-runtime (SigV4-signed requests, the SDK's event-stream
// decoding) and a loopback fake of Bedrock: results unchanged, each API and body family recorded with usage.
import * as bedrockSdk from '@aws-sdk/client-bedrock-runtime';
import { BedrockRuntime, BedrockRuntimeClient, type BedrockRuntimeClientConfig, ConverseCommand, ConverseStreamCommand, InvokeModelCommand, InvokeModelWithResponseStreamCommand, ListAsyncInvokesCommand, type ConverseCommandInput } from '@aws-sdk/client-bedrock-runtime';
import { describe, expect, it } from 'vitest';
import { op, wrapBedrock } from '../../src/index.js';
import { patchBedrockRuntime } from '../../src/integrations/bedrock/bedrock.js';
import { collect, useStarted } from 'weft-test-kit/fake-llm.js';
import { startFakeBedrock } from 'weft-test-kit/fake-bedrock.js';
import { converseResponse } from 'weft-test-kit/fake-bedrock-bodies.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const fake = useStarted('fake Bedrock', startFakeBedrock);

type Obj = Record<string, unknown>;
const options = (): BedrockRuntimeClientConfig => ({ region: 'us-east-1', endpoint: fake().url, credentials: { accessKeyId: 'AKIDFAKEFAKEFAKE', secretAccessKey: 'fake-secret' }, maxAttempts: 1 });
const clients = (): { raw: BedrockRuntimeClient; wrapped: BedrockRuntimeClient } => {
  const raw = new BedrockRuntimeClient(options());
  return { raw, wrapped: wrapBedrock(raw) };
};
const { $metadata: _drop, ...RESPONSE_BODY } = { $metadata: 0, ...converseResponse(true) };

const CLAUDE = 'us.anthropic.claude-3-5-haiku-20241022-v1:0';
const CONVERSE: ConverseCommandInput = {
  modelId: CLAUDE,
  system: [{ text: 'Be brief.' }],
  messages: [{ role: 'user', content: [{ text: 'Weather in Paris?' }] }],
  toolConfig: { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } } } } } }] },
};
// inputTokens 100 + cache reads 10 + cache writes 5 (Bedrock reports the cache counts on top of inputTokens); 20 output.
const CONVERSE_USAGE = { input_tokens: 115, prompt_tokens: 115, output_tokens: 20, completion_tokens: 20, total_tokens: 135, requests: 1, cache_read_input_tokens: 10, cache_creation_input_tokens: 5 };
const without$metadata = (o: Obj): Obj => Object.fromEntries(Object.entries(o).filter(([k]) => k !== '$metadata'));
const bytes = (o: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(o));
const decode = (b: Uint8Array | undefined): unknown => JSON.parse(new TextDecoder().decode(b));

/** The request body each family takes, and what its call records: output text, finish reason and usage. */
const FAMILIES = [
  { modelId: CLAUDE, body: { anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: 'Say hi' }] }, text: (o: Obj) => (o['content'] as Obj[])[0]!['text'], reason: 'end_turn', usage: { input_tokens: 1500, output_tokens: 80, cache_read_input_tokens: 200, cache_creation_input_tokens: 300 } },
  { modelId: 'meta.llama3-1-70b-instruct-v1:0', body: { prompt: '<|begin_of_text|>Say hi', max_gen_len: 64 }, text: (o: Obj) => o['generation'], reason: 'stop', usage: { input_tokens: 12, output_tokens: 5 } },
  { modelId: 'amazon.nova-pro-v1:0', body: { schemaVersion: 'messages-v1', messages: [{ role: 'user', content: [{ text: 'Say hi' }] }], inferenceConfig: { maxTokens: 64 } }, text: (o: Obj) => ((o['output'] as Obj)['message'] as { content: Obj[] }).content[0]!['text'], reason: 'end_turn', usage: { input_tokens: 24, output_tokens: 6, cache_read_input_tokens: 4 } },
  { modelId: 'amazon.titan-text-express-v1', body: { inputText: 'Say hi', textGenerationConfig: { maxTokenCount: 64 } }, text: (o: Obj) => (o['results'] as Obj[])[0]!['outputText'], reason: 'FINISH', usage: { input_tokens: 8, output_tokens: 4 } },
];

describe('wrapBedrock', () => {
  it('Converse: the same response, the request signed for real, and the call with tool use, usage with cache counts and request id', async () => {
    const { raw, wrapped } = clients();
    let got: Obj = {};
    const calls = await traced(server(), 'bedrock-converse', () =>
      op(async function agent() {
        got = (await wrapped.send(new ConverseCommand(CONVERSE))) as unknown as Obj;
      })(),
    );
    expect(without$metadata(got)).toEqual(without$metadata((await raw.send(new ConverseCommand(CONVERSE))) as unknown as Obj));
    expect(fake().requests.at(-1)!.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDFAKEFAKEFAKE\/\d{8}\/us-east-1\/bedrock\/aws4_request/);
    const c = one(calls, 'bedrock.converse');
    expect(c.parent_id).toBe(one(calls, 'agent').id);
    expect(c.inputs).toEqual(CONVERSE);
    expect(c.output).toEqual(RESPONSE_BODY);
    expect(c.attributes).toMatchObject({ 'gen_ai.provider.name': 'aws.bedrock', 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': CLAUDE });
    expect(c.summary).toMatchObject({ usage: { [CLAUDE]: CONVERSE_USAGE }, 'gen_ai.response.finish_reasons': ['tool_use'], request_id: expect.stringMatching(/^req-/) });
  });

  it('ConverseStream: the same events from the event stream, folded into one response with the tool input parsed, usage and time to first token', async () => {
    const { raw, wrapped } = clients();
    let events: unknown[] = [];
    const calls = await traced(server(), 'bedrock-converse-stream', async () => {
      const out = await wrapped.send(new ConverseStreamCommand(CONVERSE));
      expect(out.$metadata.httpStatusCode).toBe(200);
      events = await collect(out.stream!);
    });
    expect(events).toEqual(await collect((await raw.send(new ConverseStreamCommand(CONVERSE))).stream!));
    const c = one(calls, 'bedrock.converse_stream');
    expect(c.output).toEqual({ ...RESPONSE_BODY, metrics: { latencyMs: 50 } });
    expect(c.summary).toMatchObject({ usage: { [CLAUDE]: CONVERSE_USAGE }, 'gen_ai.response.finish_reasons': ['tool_use'], request_id: expect.stringMatching(/^req-/) });
    expect(typeof (c.summary as Obj)['time_to_first_token_ms']).toBe('number');
  });

  it.each(FAMILIES)('InvokeModel and InvokeModelWithResponseStream of $modelId: the bodies unchanged, the calls with the parsed body, text, finish reason and usage', async (f) => {
    const { raw, wrapped } = clients();
    const input = { modelId: f.modelId, contentType: 'application/json', body: bytes(f.body) };
    let body: unknown;
    let chunks: unknown[] = [];
    const calls = await traced(server(), 'bedrock-invoke', async () => {
      body = decode((await wrapped.send(new InvokeModelCommand(input))).body);
      chunks = (await collect((await wrapped.send(new InvokeModelWithResponseStreamCommand(input))).body!)).map((e) => decode(e.chunk?.bytes));
    });
    expect(body).toEqual(decode((await raw.send(new InvokeModelCommand(input))).body));
    expect(chunks).toEqual((await collect((await raw.send(new InvokeModelWithResponseStreamCommand(input))).body!)).map((e) => decode(e.chunk?.bytes)));
    for (const name of ['bedrock.invoke_model', 'bedrock.invoke_model_with_response_stream']) {
      const c = one(calls, name);
      expect(c.inputs).toEqual({ modelId: f.modelId, contentType: 'application/json', body: f.body });
      expect(f.text(c.output as Obj)).toBe(f.text(body as Obj));
      expect(c.attributes).toMatchObject({ 'gen_ai.request.model': f.modelId });
      expect(c.summary).toMatchObject({ usage: { [f.modelId]: { ...f.usage, requests: 1 } }, 'gen_ai.response.finish_reasons': [f.reason] });
    }
    expect(typeof (one(calls, 'bedrock.invoke_model_with_response_stream').summary as Obj)['time_to_first_token_ms']).toBe('number');
  });

  it('an error answer is rethrown unchanged and recorded; other commands pass through untraced', async () => {
    const { wrapped } = clients();
    let thrown: unknown;
    const calls = await traced(server(), 'bedrock-error', async () => {
      thrown = await wrapped.send(new ConverseCommand({ ...CONVERSE, modelId: 'anthropic.fail-v1:0' })).catch((e: unknown) => e);
      await wrapped.send(new ListAsyncInvokesCommand({})).catch(() => undefined);
    });
    expect(thrown).toBeInstanceOf(bedrockSdk.ValidationException);
    expect(one(calls, 'bedrock.converse').exception).toMatchObject({ type: 'ValidationException', message: 'The provided model identifier is invalid.' });
    expect(calls).toHaveLength(1);
  });

  it("BedrockRuntime's converse() is traced through the wrapper, and patchBedrockRuntime traces every client once (wrapBedrock adds nothing)", async () => {
    const aggregated = wrapBedrock(new BedrockRuntime(options()));
    const exports = { BedrockRuntimeClient } as Obj;
    const original = BedrockRuntimeClient.prototype.send;
    try {
      const calls = await traced(server(), 'bedrock-patch', async () => {
        await aggregated.converse(CONVERSE);
        expect(patchBedrockRuntime(exports)).toBe(true);
        expect(patchBedrockRuntime(exports)).toBe(true);
        await wrapBedrock(new BedrockRuntimeClient(options())).send(new ConverseCommand(CONVERSE));
      });
      expect(calls.filter((c) => c.op_name === 'bedrock.converse')).toHaveLength(2);
    } finally {
      BedrockRuntimeClient.prototype.send = original;
    }
  });
});
