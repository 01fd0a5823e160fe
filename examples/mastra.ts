// A Mastra agent with a tool, traced by WeftExporter: agent run, model generation (usage, cost) and tool call in one tree under an op.
// Runs against a loopback fake of the OpenAI API (packages/test-kit/src/fake-llm.ts) unless OPENAI_API_KEY is set. Needs Node.js >= 22.13 (Mastra's).
import { createOpenAI } from '@ai-sdk/openai';
import { Mastra } from '@mastra/core';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { Observability } from '@mastra/observability';
import { z } from 'zod';
import { init, op, shutdown, WeftExporter } from '../packages/weft-trace/src/index.js';
import { startFakeLlm } from '../packages/test-kit/src/fake-llm.js';
import { connectServer } from './local-server.js';
import { printTraceCost } from './trace-cost.js';

const PROJECT = process.env['WEFT_PROJECT'] ?? 'local/mastra';
const MODEL = process.env['OPENAI_MODEL'] ?? 'gpt-4o-mini';

const lookup = op(async function lookup_forecast(city: string) {
  return { city, forecast: 'sunny', temperature_c: 21 };
});

async function main(): Promise<void> {
  const server = await connectServer();
  const fake = process.env['OPENAI_API_KEY'] ? undefined : await startFakeLlm();
  init({ project: PROJECT, baseUrl: server.url, printViewerLink: false });
  const openai = createOpenAI({ apiKey: process.env['OPENAI_API_KEY'] ?? 'sk-fake', baseURL: fake?.openaiURL });

  const getWeather = createTool({
    id: 'get_weather',
    description: 'The weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => lookup(city), // an op: with the bridge set, it nests under the tool call
  });
  const agent = new Agent({ id: 'weather-agent', name: 'Weather', instructions: 'Answer in one sentence.', model: openai.chat(MODEL), tools: { get_weather: getWeather } });
  const weft = new WeftExporter();
  const mastra = new Mastra({
    agents: { agent },
    logger: false,
    observability: new Observability({ configs: { weft: { serviceName: 'mastra-example', exporters: [weft], bridge: weft } } }),
  });

  const ask = op(async function ask(question: string) {
    return (await mastra.getAgent('agent').generate(question)).text;
  });
  const [answer, call] = await ask.invoke('What is the weather in Paris?');
  console.log(`answer: ${answer}\n`);
  await shutdown(); // flushes first
  await printTraceCost(server.url, PROJECT, call!);
  await fake?.close();
  await server.close();
}

await main();
