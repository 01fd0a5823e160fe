// Recorded model calls (docs/evaluations.md): an evaluation whose task calls OpenAI, answered in CI from the cassette
// committed beside it (__llm_cache__/one-liners.eval.test.ts.jsonl), with no API key and no network. Record it again
// after changing a prompt: `WEFT_LLM_CACHE=record npx vitest run --root examples/llm-cache` (with OPENAI_API_KEY).
// (This repository's cassette was recorded against the test suite's fake OpenAI server, hence its "w0 w1 ..." answers.)
import OpenAI from 'openai';
import { wrapOpenAI } from 'weft-trace';
import { describeEval } from 'weft-trace/vitest';

// The SDK wants a key even when every answer is replayed.
const openai = wrapOpenAI(new OpenAI({ apiKey: process.env['OPENAI_API_KEY'] ?? 'unused-in-replay', maxRetries: 0 }));

describeEval('cached-one-liners', {
  rows: [{ topic: 'tides' }, { topic: 'bread' }],
  task: async function oneLiner(row: { topic: string }) {
    const res = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `One line on ${row.topic}` }], temperature: 0 });
    return res.choices[0]?.message.content ?? '';
  },
  scorers: [function said({ output }: { output: string }) {
    return output.length > 0;
  }],
  threshold: 1,
});
