// An OpenAI Agents SDK agent with a tool, traced by WeftTracingProcessor: the run, its agent, turns, model requests (with usage) and tool call as one tree under an op.
// Runs against a loopback fake of the OpenAI API (packages/test-kit/src/fake-llm.ts) unless OPENAI_API_KEY is set (then OpenAI's own trace exporter runs too).
import { Agent, OpenAIProvider, Runner, addTraceProcessor, setTraceProcessors, tool } from '@openai/agents';
import { z } from 'zod';
import { op, WeftTracingProcessor } from '../packages/weft-trace/src/index.js';
import { startFakeLlm } from '../packages/test-kit/src/fake-llm.js';
import { runExample } from './run-example.js';

const MODEL = process.env['OPENAI_MODEL'] ?? 'gpt-4o-mini';

const getWeather = tool({
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => JSON.stringify({ city, forecast: 'sunny', temperature_c: 21 }),
});

await runExample(
  'openai-agents',
  async ({ recorded }) => {
    const realKey = process.env['OPENAI_API_KEY'];
    const fake = realKey ? undefined : await startFakeLlm();
    // next to OpenAI's exporter with a real key; instead of it against the fake (it would send the traces to OpenAI)
    if (realKey) addTraceProcessor(new WeftTracingProcessor());
    else setTraceProcessors([new WeftTracingProcessor()]);
    try {
      const runner = new Runner({ modelProvider: new OpenAIProvider({ apiKey: realKey ?? 'sk-fake', baseURL: fake?.openaiURL, useResponses: false }) });
      const agent = new Agent({ name: 'weather', instructions: 'Answer with the weather tool.', model: MODEL, tools: [getWeather] });
      const ask = op(async function ask(question: string) {
        return (await runner.run(agent, question)).finalOutput;
      });
      const [answer, call] = await ask.invoke('What is the weather in Paris?');
      console.log(`answer: ${String(answer)}`);
      const root = (await recorded()).find((r) => r.id === call!.id)!;
      for (const [model, usage] of Object.entries(root.summary?.usage ?? {})) console.log(`usage ${model}: ${JSON.stringify(usage)}`);
    } finally {
      await fake?.close();
    }
  },
  { printViewerLink: false },
);
