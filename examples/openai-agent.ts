// A small tool-calling agent on the OpenAI SDK, traced with wrapOpenAI: model calls, tool calls, usage per model and cost at the root.
// Runs against a loopback fake of the OpenAI API (packages/test-kit/src/fake-llm.ts) unless OPENAI_API_KEY is set.
import OpenAI from 'openai';
import { flush, init, op, shutdown, wrapOpenAI } from '../packages/weft-trace/src/index.js';
import { startFakeLlm } from '../packages/test-kit/src/fake-llm.js';
import { connectServer } from './local-server.js';
import { printTraceCost } from './trace-cost.js';

const PROJECT = process.env['WEFT_PROJECT'] ?? 'local/openai-agent';
const MODEL = process.env['OPENAI_MODEL'] ?? 'gpt-4o-mini';

const TOOLS: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'The weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

const getWeather = op(async function get_weather(args: { city: string }) {
  return { city: args.city, forecast: 'sunny', temperature_c: 21 };
});

async function main(): Promise<void> {
  const server = await connectServer();
  const fake = process.env['OPENAI_API_KEY'] ? undefined : await startFakeLlm();
  init({ project: PROJECT, baseUrl: server.url });
  const openai = wrapOpenAI(new OpenAI({ apiKey: process.env['OPENAI_API_KEY'] ?? 'sk-fake', baseURL: fake?.openaiURL, maxRetries: 0 }));

  const agent = op(async function agent(question: string): Promise<string> {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: question }];
    for (let step = 0; step < 4; step++) {
      const stream = await openai.chat.completions.create({ model: MODEL, messages, tools: TOOLS, stream: true });
      let text = '';
      const calls = new Map<number, { id: string; name: string; args: string }>();
      for await (const chunk of stream) {
        const d = chunk.choices[0]?.delta;
        text += d?.content ?? '';
        for (const t of d?.tool_calls ?? []) {
          const c = calls.get(t.index) ?? { id: '', name: '', args: '' };
          calls.set(t.index, { id: t.id ?? c.id, name: c.name + (t.function?.name ?? ''), args: c.args + (t.function?.arguments ?? '') });
        }
      }
      if (calls.size === 0) return text;
      const toolCalls = [...calls.values()];
      messages.push({ role: 'assistant', content: null, tool_calls: toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })) });
      for (const c of toolCalls) {
        const result = await getWeather(JSON.parse(c.args) as { city: string });
        messages.push({ role: 'tool', tool_call_id: c.id, content: JSON.stringify(result) });
      }
    }
    return '(no answer in 4 steps)';
  });

  const [answer, call] = await agent.invoke('What is the weather in Paris?');
  console.log(`answer: ${answer}\n`);
  await flush();
  await printTraceCost(server.url, PROJECT, call!);
  await shutdown();
  await fake?.close();
  await server.close();
}

await main();
