// An OpenAI Agents SDK agent with a tool, traced by WeftTracingProcessor: the run, its agent, turns, model requests (with usage) and tool call as one tree under an op.
// Runs against a loopback fake of the OpenAI API (test/helpers/fake-llm.ts) unless OPENAI_API_KEY is set (then OpenAI's own trace exporter runs too).
import { Agent, OpenAIProvider, Runner, addTraceProcessor, setTraceProcessors, tool } from '@openai/agents';
import { z } from 'zod';
import { Client, flush, init, op, shutdown, WeftTracingProcessor } from '../src/index.js';
import { renderTrees } from '../src/cli/trace-tree.js';
import { startFakeLlm } from '../test/helpers/fake-llm.js';
import { connectServer } from './local-server.js';

const PROJECT = process.env['WEFT_PROJECT'] ?? 'local/openai-agents';
const MODEL = process.env['OPENAI_MODEL'] ?? 'gpt-4o-mini';

const getWeather = tool({
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => JSON.stringify({ city, forecast: 'sunny', temperature_c: 21 }),
});

async function main(): Promise<void> {
  const server = await connectServer();
  const realKey = process.env['OPENAI_API_KEY'];
  const fake = realKey ? undefined : await startFakeLlm();
  init({ project: PROJECT, baseUrl: server.url, printViewerLink: false });
  // next to OpenAI's exporter with a real key; instead of it against the fake (it would send the traces to OpenAI)
  if (realKey) addTraceProcessor(new WeftTracingProcessor());
  else setTraceProcessors([new WeftTracingProcessor()]);

  const runner = new Runner({ modelProvider: new OpenAIProvider({ apiKey: realKey ?? 'sk-fake', baseURL: fake?.openaiURL, useResponses: false }) });
  const agent = new Agent({ name: 'weather', instructions: 'Answer with the weather tool.', model: MODEL, tools: [getWeather] });
  const ask = op(async function ask(question: string) {
    return (await runner.run(agent, question)).finalOutput;
  });

  const [answer, call] = await ask.invoke('What is the weather in Paris?');
  console.log(`answer: ${String(answer)}\n`);
  await flush();
  const client = new Client({ baseUrl: server.url });
  const records = await client.calls.streamQuery({ project_id: PROJECT, filter: { trace_ids: [call!.traceId] }, include_costs: true }).toArray();
  console.log(renderTrees(records));
  const root = records.find((r) => r.id === call!.id)!;
  for (const [model, usage] of Object.entries(root.summary?.usage ?? {})) {
    console.log(`usage ${model}: ${JSON.stringify(usage)}`);
    const cost = root.summary?.costs?.[model];
    if (cost) console.log(`cost ${model}: $${cost.total_cost.toFixed(6)}`);
  }
  await client.close();
  await shutdown();
  await fake?.close();
  await server.close();
}

await main();
