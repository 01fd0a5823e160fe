// `weft calls cassette`: a multi-step agent traced through wrapOpenAI, wrapAnthropic and wrapAISDK against the loopback
// fake becomes a cassette; the same agent code replays it (WEFT_LLM_CACHE=replay) with the fake stopped, same outputs.
import Anthropic from '@anthropic-ai/sdk';
import { createOpenAI } from '@ai-sdk/openai';
import * as ai from 'ai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { op, wrapAISDK, wrapAnthropic, wrapOpenAI, type CallRecord } from 'weft-trace';
import { collect, startFakeLlm } from 'weft-test-kit/fake-llm.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';
import { cassetteCommand } from '../../src/cli/calls-cassette.js';

const THIS_FILE = fileURLToPath(import.meta.url);
const server = useTestServer();
const dir = mkdtempSync(join(tmpdir(), 'weft-cassette-'));
// where llmCacheFetch looks for this test file's cassette (WEFT_LLM_CACHE_DIR/<test file name>.jsonl)
const cassette = join(dir, `${basename(THIS_FILE)}.jsonl`);
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

const WEATHER_TOOL = { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

/**
 * The agent: an OpenAI tool call, its tool result answered as a stream, Anthropic asked to summarize (streamed and
 * not), a Responses API stream, then an AI SDK run in two steps (a tool, then the answer) and an AI SDK stream.
 * Returns what the app would use of each answer.
 */
async function agent(urls: { openaiURL: string; anthropicURL: string }, apiKey: string): Promise<Record<string, unknown>> {
  // a base URL with a path of its own (a gateway): the calls record url.path
  const openai = wrapOpenAI(new OpenAI({ apiKey, baseURL: urls.openaiURL.replace(/\/v1$/, '/gateway/v1'), maxRetries: 0 }));
  const anthropic = wrapAnthropic(new Anthropic({ apiKey, baseURL: urls.anthropicURL, maxRetries: 0 }));
  const w = wrapAISDK(ai);
  const model = createOpenAI({ apiKey, baseURL: urls.openaiURL }).chat('gpt-4o-tool');
  return op(async function weatherAgent(question: string) {
    const user = { role: 'user' as const, content: question };
    // a setting left undefined: left out of the JSON sent, recorded as null
    const first = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [user], tools: [WEATHER_TOOL], temperature: undefined });
    const asked = first.choices[0]!.message;
    const toolCall = asked.tool_calls![0]!;
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [user, asked, { role: 'tool', tool_call_id: toolCall.id, content: '{"forecast":"sunny"}' }],
      stream: true,
    });
    const streamed = (await collect(stream)).map((c) => c.choices[0]?.delta?.content ?? '').join('');
    const claude = { model: 'claude-haiku-4-5', max_tokens: 256, messages: [{ role: 'user' as const, content: `Summarize: ${streamed}` }] };
    const summary = await anthropic.messages.stream(claude).finalMessage();
    const plain = await anthropic.messages.create({ ...claude, messages: [{ role: 'user', content: 'And in one word?' }] });
    const response = await openai.responses.stream({ model: 'gpt-4o-mini', input: 'Say it as a response' }).finalResponse();
    const weather = ai.tool({ description: 'The weather in a city', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, forecast: 'sunny' }) });
    const generated = await w.generateText({ model, prompt: question, tools: { get_weather: weather }, stopWhen: ai.stepCountIs(3), maxRetries: 0 });
    const aiStream = w.streamText({ model, prompt: 'Stream the weather', maxRetries: 0 });
    return {
      toolCall: { id: first.id, message: asked, usage: first.usage },
      streamed,
      summary,
      plain,
      response: { id: response.id, text: response.output_text, usage: response.usage },
      generated: {
        text: generated.text,
        finishReason: generated.finishReason,
        steps: generated.steps.map((s) => ({ toolCalls: s.toolCalls.map((t) => [t.toolName, t.input]), finishReason: s.finishReason, id: s.response.id, model: s.response.modelId, tokens: [s.usage.inputTokens, s.usage.outputTokens] })),
      },
      aiStream: { text: await aiStream.text, finishReason: await aiStream.finishReason, tokens: (await aiStream.usage).inputTokens },
    };
  })('Weather in Paris?');
}

/** The model-request ops the agent makes, each call's `summary.cache`, by op (in start order). */
function cacheMarks(calls: CallRecord[]): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  const ops = ['openai.chat.completions.create', 'openai.responses.stream', 'anthropic.messages.create', 'anthropic.messages.stream', 'ai.generateText.doGenerate', 'ai.streamText.doStream'];
  for (const c of [...calls].sort((a, b) => a.started_at.localeCompare(b.started_at))) if (ops.includes(c.op_name)) (out[c.op_name] ??= []).push((c.summary as Record<string, unknown>)['cache'] ?? null);
  return out;
}

/** Runs `weft calls cassette <args>` in this process: what it wrote, and the error it failed with. */
async function cli(args: string[]): Promise<{ stdout: string; stderr: string; error?: Error }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => ((stdout += String(c)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => ((stderr += String(c)), true));
  try {
    await cassetteCommand().exitOverride().parseAsync([...args, '--base-url', server().url], { from: 'user' });
    return { stdout, stderr };
  } catch (error) {
    return { stdout, stderr, error: error as Error };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('weft calls cassette', () => {
  it('turns a production trace into a cassette that replays the same answers with the fake stopped', async () => {
    vi.stubEnv('WEFT_LLM_CACHE', 'off'); // production: no cassette anywhere
    const fake = await startFakeLlm();
    let production: Record<string, unknown> | undefined;
    let calls: CallRecord[];
    try {
      calls = await traced(server(), 'cassette-prod', async () => (production = await agent(fake, 'sk-production')));
    } finally {
      await fake.close();
    }
    const root = one(calls, 'weatherAgent');
    // the agent's call id (taken with dashes or without)
    const { stdout, stderr, error } = await cli([root.id.replaceAll('-', ''), '--out', cassette, '--project', root.project_id]);
    expect(error, stderr).toBeUndefined();
    // 2 chat completions, 2 Anthropic messages, a Responses stream, 2 AI SDK steps and an AI SDK stream
    expect(stdout).toBe(`wrote 8 model calls to ${cassette}\n`);
    const lines = readFileSync(cassette, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { key: string });
    expect(lines.map((l) => l.key)).toEqual(lines.map((l) => l.key).sort());
    expect(readFileSync(cassette, 'utf8')).not.toContain('sk-production');
    // a trace id (here, without its dashes) takes the whole trace: the same lines
    const byTrace = join(dir, 'by-trace.jsonl');
    expect((await cli([root.trace_id.replaceAll('-', ''), '--out', byTrace, '--project', root.project_id])).error).toBeUndefined();
    expect(readFileSync(byTrace, 'utf8')).toBe(readFileSync(cassette, 'utf8'));

    vi.stubEnv('WEFT_LLM_CACHE', 'replay');
    vi.stubEnv('WEFT_LLM_CACHE_DIR', dir);
    let replayed: Record<string, unknown> | undefined;
    const closed = { openaiURL: 'http://127.0.0.1:9/v1', anthropicURL: 'http://127.0.0.1:9' };
    const again = await traced(server(), 'cassette-replay', async () => (replayed = await agent(closed, 'sk-other')));
    expect(replayed).toEqual(production);
    expect(cacheMarks(again)).toEqual({
      'openai.chat.completions.create': ['replay', 'replay'],
      'anthropic.messages.stream': ['replay'],
      'anthropic.messages.create': ['replay'],
      'openai.responses.stream': ['replay'],
      'ai.generateText.doGenerate': ['replay', 'replay'],
      'ai.streamText.doStream': ['replay'],
    });
  });

  it('names each model call it cannot write and why, writes the others, and exits 1', async () => {
    vi.stubEnv('WEFT_LLM_CACHE', 'off');
    const fake = await startFakeLlm();
    let calls: CallRecord[];
    try {
      const openai = wrapOpenAI(new OpenAI({ apiKey: 'sk-x', baseURL: fake.openaiURL, maxRetries: 0 }));
      calls = await traced(server(), 'cassette-skips', () =>
        op(async function flaky() {
          await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ok' }] });
          await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(10_050) }] });
          await openai.chat.completions.create({ model: 'fail-400', messages: [{ role: 'user', content: 'bad' }] }).catch(() => undefined);
          await openai.embeddings.create({ model: 'text-embedding-3-small', input: 'hi' });
        })(),
      );
    } finally {
      await fake.close();
    }
    const root = one(calls, 'flaky');
    const byOp = (model: string): string => calls.find((c) => (c.inputs as { model?: string }).model === model && c.id !== root.id && (c.inputs as { messages?: { content: string }[] }).messages?.[0]?.content !== 'ok')!.id;
    const out = join(dir, 'skips.jsonl');
    const { stdout, stderr, error } = await cli([root.id, '--out', out, '--project', root.project_id]);
    expect(stdout).toBe(`wrote 1 model call to ${out}\n`);
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`weft: call ${byOp('gpt-4o-mini')} (openai.chat.completions.create) not written: what it sent or got was cut or hidden when recorded (request body.messages[0].content ends in "[truncated `);
    expect(stderr).toContain(`weft: call ${byOp('fail-400')} (openai.chat.completions.create) not written: the call failed (BadRequestError: 400 Invalid value for messages)`);
    expect(stderr).toContain(`weft: call ${byOp('text-embedding-3-small')} (openai.embeddings.create) not written: an embeddings call records the vectors' dimensions, not the vectors`);
    expect(error?.message).toBe('3 model calls not written (above): a replay misses them');
    expect((error as { exitCode?: number }).exitCode).toBe(1);
    // --json: the file, the keys written and the calls left out, for programs
    const json = await cli([root.id, '--out', out, '--project', root.project_id, '--json']);
    const report = JSON.parse(json.stdout) as { file: string; written: number; keys: string[]; skipped: { call_id: string; op_name: string; reason: string }[] };
    expect(report).toMatchObject({ file: out, written: 1, keys: [expect.stringMatching(/^[0-9a-f]{16}$/)] });
    expect(report.skipped.map((x) => x.call_id)).toEqual([byOp('gpt-4o-mini'), byOp('fail-400'), byOp('text-embedding-3-small')]);
    expect(json.error?.message).toBe('3 model calls not written (above): a replay misses them');
  });

  it('says so when the id has no model calls under it', async () => {
    const calls = await traced(server(), 'cassette-none', () => op(async function plain() { return 1; })());
    const root = one(calls, 'plain');
    const { error } = await cli([root.id, '--out', join(dir, 'none.jsonl'), '--project', root.project_id]);
    expect(error?.message).toBe(`no model calls under ${root.id} (weft reads those of wrapOpenAI, wrapAnthropic and wrapAISDK)`);
  });
});
