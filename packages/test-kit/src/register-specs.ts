/**
 * Test helper: the apps the no-code route is tested with, one per supported library, each doing what its explicit
 * wrapper's test does (a request and a stream, a tool call), wrapping by hand when `WRAP` is set.
 * @module
 */
import type { AppSpec } from './register-apps.js';

export const OPENAI_APP: AppSpec = {
  lib: 'openai',
  imports: { openai: 'openai' },
  body: `async function main() {
  const raw = new openai.default({ apiKey: 'sk-test', baseURL: URLS.openai, maxRetries: 0 });
  const client = WRAP ? weft.wrapOpenAI(raw) : raw;
  await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hi' }], temperature: 0 });
  for await (const _ of await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Stream' }], stream: true })) {}
}`,
};

export const ANTHROPIC_APP: AppSpec = {
  lib: '@anthropic-ai/sdk',
  imports: { anthropic: '@anthropic-ai/sdk' },
  body: `async function main() {
  const raw = new anthropic.default({ apiKey: 'sk-ant-test', baseURL: URLS.anthropic, maxRetries: 0 });
  const client = WRAP ? weft.wrapAnthropic(raw) : raw;
  await client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 256, messages: [{ role: 'user', content: 'Say hi' }] });
  for await (const _ of await client.messages.create({ model: 'claude-haiku-4-5', max_tokens: 256, messages: [{ role: 'user', content: 'Stream' }], stream: true })) {}
}`,
};

export const AI_APP: AppSpec = {
  lib: 'ai',
  imports: { aiModule: 'ai', provider: '@ai-sdk/openai' },
  body: `async function main() {
  const ai = WRAP ? weft.wrapAISDK(aiModule) : aiModule;
  const model = provider.createOpenAI({ apiKey: 'sk-test', baseURL: URLS.openai }).chat('gpt-4o-mini');
  await ai.generateText({ model, prompt: 'Say hi', maxRetries: 0 });
  const s = ai.streamText({ model, prompt: 'Stream', maxRetries: 0 });
  for await (const _ of s.textStream) {}
}`,
};

export const GOOGLE_GENAI_APP: AppSpec = {
  lib: '@google/genai',
  imports: { genai: '@google/genai' },
  body: `async function main() {
  const raw = new genai.GoogleGenAI({ apiKey: 'gemini-test-key', httpOptions: { baseUrl: URLS.gemini } });
  const client = WRAP ? weft.wrapGoogleGenAI(raw) : raw;
  await client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Why is the sky blue?' });
  for await (const _ of await client.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Stream' })) {}
}`,
};

export const MCP_APP: AppSpec = {
  lib: '@modelcontextprotocol/sdk',
  imports: { mcpClient: '@modelcontextprotocol/sdk/client/index.js', mcpServer: '@modelcontextprotocol/sdk/server/mcp.js', memory: '@modelcontextprotocol/sdk/inMemory.js', zod: 'zod' },
  body: `async function main() {
  const rawServer = new mcpServer.McpServer({ name: 'tools', version: '1.0.0' });
  const server = WRAP ? weft.wrapMCPServer(rawServer) : rawServer;
  server.registerTool('add', { inputSchema: { a: zod.z.number(), b: zod.z.number() } }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
  const [clientSide, serverSide] = memory.InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const rawClient = new mcpClient.Client({ name: 'agent', version: '1.0.0' });
  const client = WRAP ? weft.wrapMCPClient(rawClient) : rawClient;
  await client.connect(clientSide);
  await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  await client.close();
}`,
};

export const AGENTS_APP: AppSpec = {
  lib: '@openai/agents',
  imports: { agents: '@openai/agents', openai: 'openai' },
  body: `async function main() {
  // the explicit route adds weft's processor beside OpenAI's exporter (which, with no OPENAI_API_KEY, sends nothing)
  if (WRAP) agents.addTraceProcessor(new weft.WeftTracingProcessor());
  const raw = new openai.default({ apiKey: 'sk-test', baseURL: URLS.openai, maxRetries: 0 });
  const client = WRAP ? weft.wrapOpenAI(raw) : raw;
  const model = await new agents.OpenAIProvider({ openAIClient: client, useResponses: true }).getModel('gpt-4o-mini');
  const agent = new agents.Agent({ name: 'writer', instructions: 'be brief', model });
  await agents.run(agent, 'Say hi');
}`,
};

/** The apps above on the newer majors installed under an alias (`openai-v7`, `ai-v7`: Node >= 22), reached as `openai` and `ai`. */
export const NEWER_MAJOR_APPS: readonly (AppSpec & { installed: string })[] = [
  { ...OPENAI_APP, installed: 'openai-v7', aliases: { openai: 'openai-v7' } },
  { ...AI_APP, installed: 'ai-v7', aliases: { ai: 'ai-v7', '@ai-sdk/openai': 'ai-sdk-openai-v4' } },
];

/**
 * LangChain and LangGraph: a `ChatOpenAI` (@langchain/openai) at the loopback fake, alone and as a LangGraph node;
 * by hand, `registerWeftTracer()` at the top of the entry module and its OpenAI client wrapped (docs/integrations.md).
 */
export const LANGCHAIN_APP: AppSpec = {
  lib: '@langchain/core',
  imports: { lc: 'weft-trace/langchain', lcOpenAI: '@langchain/openai', graph: '@langchain/langgraph', openai: 'openai' },
  body: `if (WRAP) lc.registerWeftTracer();
async function main() {
  const options = { model: 'gpt-4o-mini', apiKey: 'sk-test', maxRetries: 0, configuration: { baseURL: URLS.openai } };
  // by hand, the provider client is wrapped too (the no-code route hooks openai, which @langchain/openai uses)
  const completions = new lcOpenAI.ChatOpenAICompletions(options);
  if (WRAP) completions.client = weft.wrapOpenAI(new openai.default({ apiKey: 'sk-test', baseURL: URLS.openai, maxRetries: 0 }));
  const model = new lcOpenAI.ChatOpenAI({ ...options, completions });
  await model.invoke('Say hi');
  const State = graph.Annotation.Root({ question: graph.Annotation(), answer: graph.Annotation() });
  const app = new graph.StateGraph(State)
    .addNode('respond', async (s) => ({ answer: (await model.invoke(s.question)).content }))
    .addEdge(graph.START, 'respond')
    .addEdge('respond', graph.END)
    .compile();
  await app.invoke({ question: 'Why is the sky blue?' });
}`,
};
