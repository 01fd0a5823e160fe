// Test helper: what a multi-step AI SDK run (a tool, then an answer) must store, whichever route records it: the steps in order, usage once, the conversation in order.
import { expect } from 'vitest';
import { op } from 'weft-trace';
import type { CallRecord } from 'weft-trace';
import type { RunningServer } from 'weft-server';
import { isLlmCall } from 'weft-server/src/ui/call-facts.js';
import { chatOfCall } from 'weft-server/src/ui/chat/chat-of-call.js';
import type { ChatMessage } from 'weft-server/src/ui/chat/chat-message.js';
import { streamedText } from './fake-llm-openai.js';
import { one, traced } from './traced-calls.js';

/** The fake's usage of one `gpt-4o-tool` request (packages/test-kit/src/fake-llm-openai.ts), as weft records it. */
export const STEP_USAGE = { prompt_tokens: 1200, completion_tokens: 80, cache_read_input_tokens: 200, reasoning_tokens: 30, requests: 1 };
/** Two such requests: what a two-step run counts, once, in every summary above its steps. */
export const TWO_STEPS_USAGE = { 'gpt-4o-tool-2024-07-18': { prompt_tokens: 2400, completion_tokens: 160, cache_read_input_tokens: 400, reasoning_tokens: 60, requests: 2 } };

/** A conversation as `role: kinds` lines (text parts with their text), to compare order at a glance. */
export function chatLines(messages: ChatMessage[]): string[] {
  return messages.map((m) => `${m.role}: ${m.parts.map((p) => (p.kind === 'text' ? `text ${p.text}` : p.kind === 'tool_call' || p.kind === 'tool_result' ? `${p.kind} ${p.name ?? ''}` : p.kind)).join(', ')}`);
}

/** The conversation of a two-step weather run: question, tool call, tool result, answer. */
export const WEATHER_CHAT = ['user: text Weather in Paris?', 'assistant: tool_call get_weather', 'tool: tool_result get_weather', `assistant: text ${streamedText(5)}`];

/**
 * Checks a two-step run recorded under `root` as the operation `opName` (`ai.generateText`, `ai.streamText`): its
 * children in start order are the first step's model call `stepName`, the tool, the second step's model call; each
 * step holds its own request's usage and the operation adds none of its own (it counts the two requests once; the
 * caller checks the root's total); the operation's chat is the whole conversation in order, each step's chat its own request and
 * reply; a streamed step records its time to first token. Returns the operation's call.
 */
export function expectTwoSteps(calls: CallRecord[], root: CallRecord, opName: string, stepName: string): CallRecord {
  const operation = calls.find((c) => c.op_name === opName && c.parent_id === root.id);
  expect(operation, `${opName} under ${root.op_name}`).toBeDefined();
  const children = calls.filter((c) => c.parent_id === operation!.id).sort((a, b) => a.started_at.localeCompare(b.started_at));
  expect(children.map((c) => c.op_name)).toEqual([stepName, 'ai.tool.get_weather', stepName]);
  const [first, tool, second] = children as [CallRecord, CallRecord, CallRecord];
  expect(first.ended_at! <= tool.started_at && tool.ended_at! <= second.started_at, 'steps and tool in sequence').toBe(true);
  for (const step of [first, second]) {
    expect(step.summary).toMatchObject({ usage: { 'gpt-4o-tool-2024-07-18': STEP_USAGE }, 'gen_ai.response.model': 'gpt-4o-tool-2024-07-18' });
    expect(step.inputs).toMatchObject({ model: 'gpt-4o-tool' });
    expect(step.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-tool' });
  }
  if (stepName.endsWith('doStream')) for (const step of [first, second]) expect((step.summary as Record<string, unknown>)['time_to_first_token_ms']).toEqual(expect.any(Number));
  expect(first.summary).toMatchObject({ 'gen_ai.response.finish_reasons': ['tool-calls'] });
  expect(second.summary).toMatchObject({ 'gen_ai.response.finish_reasons': ['stop'] });
  expect(operation!.summary).toMatchObject({ usage: TWO_STEPS_USAGE });
  // the operation is a model run, not a request: the model that answered, but not as a request's response model or id
  expect(operation!.summary).toMatchObject({ 'ai.response.model': 'gpt-4o-tool-2024-07-18', 'gen_ai.response.finish_reasons': ['stop'] });
  expect(operation!.summary).not.toHaveProperty(['gen_ai.response.model']);
  expect(operation!.summary).not.toHaveProperty(['gen_ai.response.id']);
  expect(modelCalls(calls, [operation!, ...children]), 'the viewer tags the two requests as model calls, not the run').toEqual([stepName, stepName]);
  expect(chatLines(chatOfCall(operation!)?.messages ?? [])).toEqual(WEATHER_CHAT);
  expect(chatLines(chatOfCall(first)?.messages ?? [])).toEqual(WEATHER_CHAT.slice(0, 2));
  expect(chatLines(chatOfCall(second)?.messages ?? [])).toEqual(WEATHER_CHAT);
  return operation!;
}

/** The op names of the calls of `among` that the viewer tags as model calls (`isLlmCall`, given their children in `calls`). */
export function modelCalls(calls: CallRecord[], among: CallRecord[]): string[] {
  return among.filter((c) => isLlmCall({ summary: c.summary ?? {} }, calls.filter((x) => x.parent_id === c.id).length)).map((c) => c.op_name);
}

/** The two operations of an `ai` module (wrapped or not) that run in steps, as the tests call them. */
export interface SteppedOperations {
  generateText(options: never): PromiseLike<unknown>;
  streamText(options: never): { consumeStream(): PromiseLike<unknown> };
}

/**
 * Runs `generateText` (or `streamText`, consumed) of `sdk` with `options` (a tool, two steps) inside an op `agent`
 * traced on `server`, then checks the run with {@link expectTwoSteps} and the agent's total: the two requests once.
 */
export async function expectTwoStepRun(server: RunningServer, label: string, sdk: SteppedOperations, streamed: boolean, options: object): Promise<void> {
  const name = streamed ? 'ai.streamText' : 'ai.generateText';
  const calls = await traced(server, label, () =>
    op(async function agent() {
      if (streamed) await sdk.streamText(options as never).consumeStream();
      else await sdk.generateText(options as never);
    })(),
  );
  const agent = one(calls, 'agent');
  expectTwoSteps(calls, agent, name, `${name}.${streamed ? 'doStream' : 'doGenerate'}`);
  expect(agent.summary).toMatchObject({ usage: TWO_STEPS_USAGE });
}
