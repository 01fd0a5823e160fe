// A LangGraph.js graph traced with weft-trace/langchain: registerWeftTracer() once, then every LangChain run is a call under op(); the
// graph's chat model sends its request through a wrapped OpenAI client, which nests under the model's run and is counted once.
// Runs against a loopback fake of the OpenAI API (packages/test-kit/src/fake-llm.ts) unless OPENAI_API_KEY is set.
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import OpenAI from 'openai';
import { renderTrees } from '../packages/weft-server/src/cli/trace-tree.js';
import { Client, flush, init, op, shutdown, wrapOpenAI } from '../packages/weft-trace/src/index.js';
import { registerWeftTracer } from '../packages/weft-trace/src/integrations/langchain/index.js'; // in an app: 'weft-trace/langchain'
import { startFakeLlm } from '../packages/test-kit/src/fake-llm.js';
import { connectServer } from './local-server.js';

const PROJECT = process.env['WEFT_PROJECT'] ?? 'local/langchain';
const MODEL = process.env['OPENAI_MODEL'] ?? 'gpt-4o-mini';

/** A LangChain chat model over an OpenAI client (as `@langchain/openai`'s ChatOpenAI is), reporting the response's usage. */
class OpenAIChat extends BaseChatModel {
  constructor(private readonly client: OpenAI) {
    super({});
  }

  _llmType(): string {
    return 'openai';
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const roles: Record<string, 'user' | 'assistant' | 'system'> = { human: 'user', ai: 'assistant', system: 'system' };
    const r = await this.client.chat.completions.create({ model: MODEL, messages: messages.map((m) => ({ role: roles[m.getType()] ?? 'user', content: m.text })) });
    const text = r.choices[0]?.message.content ?? '';
    const usage_metadata = { input_tokens: r.usage?.prompt_tokens ?? 0, output_tokens: r.usage?.completion_tokens ?? 0, total_tokens: r.usage?.total_tokens ?? 0 };
    return { generations: [{ text, message: new AIMessage({ content: text, usage_metadata, response_metadata: { model_name: r.model } }) }] };
  }
}

async function main(): Promise<void> {
  const server = await connectServer();
  const fake = process.env['OPENAI_API_KEY'] ? undefined : await startFakeLlm();
  init({ project: PROJECT, baseUrl: server.url });
  registerWeftTracer(); // every LangChain and LangGraph run from here on, no `callbacks` option needed

  const model = new OpenAIChat(wrapOpenAI(new OpenAI({ apiKey: process.env['OPENAI_API_KEY'] ?? 'sk-fake', baseURL: fake?.openaiURL, maxRetries: 0 })));
  const countWords = op(function count_words(text: string) { return text.split(/\s+/).filter(Boolean).length; });
  const State = Annotation.Root({ question: Annotation<string>(), draft: Annotation<string>(), words: Annotation<number>() });
  const graph = new StateGraph(State)
    .addNode('write', async (s) => ({ draft: (await model.invoke(s.question)).text }))
    .addNode('review', async (s) => ({ words: countWords(s.draft) }))
    .addEdge(START, 'write')
    .addEdge('write', 'review')
    .addEdge('review', END)
    .compile();

  const answer = op(async function answer(question: string) {
    return graph.invoke({ question });
  });
  const [result, call] = await answer.invoke('Say hi in five words.');
  console.log(`draft: ${result.draft} (${result.words} words)\n`);
  await flush();
  const client = new Client({ baseUrl: server.url });
  const records = await client.calls.streamQuery({ project_id: PROJECT, filter: { trace_ids: [call!.traceId] }, include_costs: true }).toArray();
  console.log(renderTrees(records));
  const root = records.find((r) => r.id === call!.id)!;
  for (const [m, usage] of Object.entries(root.summary?.usage ?? {})) {
    console.log(`usage ${m}: ${JSON.stringify(usage)}`);
    const cost = root.summary?.costs?.[m];
    if (cost) console.log(`cost ${m}: $${cost.total_cost.toFixed(6)}`);
  }
  await client.close();
  await shutdown();
  await fake?.close();
  await server.close();
}

await main();
