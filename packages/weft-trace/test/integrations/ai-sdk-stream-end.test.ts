// @weft-test: runtime
// wrapAISDK's streamText when the AI SDK calls none of onFinish / onError / onAbort (a consumer that breaks out early, a stream cut mid-way): the operation's call still ends, nothing left running.
import { describe, expect, it } from 'vitest';
import { wrapAISDK } from '../../src/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { aiMajors } from 'weft-test-kit/ai-majors.js';
import { useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { streamedText } from 'weft-test-kit/fake-llm-openai.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const fake = useFakeLlm();

const MAJORS = await aiMajors();

/** The stored status of each call (the server derives `summary.status`): none may be left `running`. */
const statuses = (calls: CallRecord[]): Record<string, unknown> =>
  Object.fromEntries(calls.map((c) => [c.op_name, (c.summary as Record<string, unknown> | null)?.['status']]));

describe.each(MAJORS)('wrapAISDK streamText ends on $label', ({ sdk: { ai, createOpenAI } }) => {
  const provider = (): ReturnType<typeof createOpenAI> => createOpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL });
  const w = wrapAISDK(ai);

  it('a consumer that breaks out of textStream after the first chunk: the operation ends, cancelled, with the text seen so far', async () => {
    let seen = '';
    const calls = await traced(server(), 'ai-stream-break', async () => {
      const r = w.streamText({ model: provider().chat('gpt-4o-mini'), prompt: 'hi', maxRetries: 0 });
      for await (const t of r.textStream) {
        seen += t;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(streamedText(5).startsWith(seen)).toBe(true);
    const c = one(calls, 'ai.streamText');
    expect(c.ended_at, 'the operation ended').toBeTruthy();
    expect(c.exception ?? undefined).toBeUndefined();
    // what the SDK had processed when the consumer left: at least what the consumer read (the SDK reads ahead)
    const recorded = String((c.output as Record<string, unknown>)['text']);
    expect(recorded.startsWith(seen) && streamedText(5).startsWith(recorded)).toBe(true);
    expect(one(calls, 'ai.streamText.doStream').ended_at).toBeTruthy();
    expect(Object.values(statuses(calls))).not.toContain('running');
  });

  it('a stream cut mid-way (the socket destroyed): the operation ends as an error, nothing left running', async () => {
    let text = '';
    let thrown: unknown;
    const calls = await traced(server(), 'ai-stream-cut', async () => {
      const r = w.streamText({ model: provider().chat('gpt-4o-mini-cut'), prompt: 'hi', maxRetries: 0, onError: () => {} });
      try {
        for await (const t of r.textStream) text += t;
      } catch (err) {
        thrown = err;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(text.length).toBeLessThan(streamedText(5).length);
    const c = one(calls, 'ai.streamText');
    expect(c.ended_at, 'the operation ended').toBeTruthy();
    expect(c.exception, `the operation failed (consumer saw ${String(thrown)})`).toBeTruthy();
    expect(Object.values(statuses(calls))).not.toContain('running');
  });
});
