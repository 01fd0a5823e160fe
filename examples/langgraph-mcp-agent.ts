// A LangGraph agent on ChatOpenAI over a wrapOpenAI client, whose tool is served by an MCP server in a child process on stdio (wrapMCPClient,
// wrapMCPServer), the tool itself asking a wrapped model: both processes trace to one server, one tree, each model request under its model run.
// Runs against a loopback fake of the OpenAI API (packages/test-kit/src/fake-llm.ts) unless OPENAI_API_KEY is set (npx tsx examples/langgraph-mcp-agent.ts).
import { HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI, ChatOpenAICompletions } from '@langchain/openai';
import { Client as MCPClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import OpenAI from 'openai';
import { z } from 'zod';
import { flush, init, op, shutdown, wrapMCPClient, wrapMCPServer, wrapOpenAI } from '../packages/weft-trace/src/index.js';
import { registerWeftTracer } from '../packages/weft-trace/src/integrations/langchain/index.js'; // in an app: 'weft-trace/langchain'
import { startFakeLlm } from '../packages/test-kit/src/fake-llm.js';
import { connectServer } from './local-server.js';
import { printTraceCost } from './trace-cost.js';

const PROJECT = process.env['WEFT_PROJECT'] ?? 'local/langgraph-mcp-agent';
const MODEL = process.env['OPENAI_MODEL'] ?? 'gpt-4o-mini';
const API_KEY = process.env['OPENAI_API_KEY'] ?? 'sk-fake';

/** The MCP server process (this file run with `serve`): a `get_weather` tool that asks a wrapped model; traced to the agent's server and project. */
async function serve(): Promise<void> {
  init({ flushIntervalMs: 100 }); // WEFT_BASE_URL and WEFT_PROJECT, from the agent
  const openai = wrapOpenAI(new OpenAI({ apiKey: API_KEY, maxRetries: 0 })); // OPENAI_BASE_URL, from the agent
  const server = wrapMCPServer(new McpServer({ name: 'weather', version: '1.0.0' }));
  server.registerTool('get_weather', { description: 'The weather in a city', inputSchema: { city: z.string() } }, async ({ city }) => {
    const r = await openai.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: `Describe the weather in ${city} in five words.` }] });
    return { content: [{ type: 'text', text: `${city}: ${r.choices[0]?.message.content ?? ''}` }] };
  });
  await server.connect(new StdioServerTransport()); // the process ends when the agent closes its stdin
}

/** The agent: a LangGraph graph (model, tools, back to the model until it answers) whose tool calls the MCP server process. */
async function agent(): Promise<void> {
  const server = await connectServer();
  const fake = process.env['OPENAI_API_KEY'] ? undefined : await startFakeLlm();
  const baseURL = fake?.openaiURL ?? process.env['OPENAI_BASE_URL'];
  init({ project: PROJECT, baseUrl: server.url });
  registerWeftTracer(); // every LangChain and LangGraph run from here on

  const env: Record<string, string> = { ...(process.env as Record<string, string>), WEFT_BASE_URL: server.url, WEFT_PROJECT: PROJECT };
  if (baseURL !== undefined) env['OPENAI_BASE_URL'] = baseURL;
  const mcp = wrapMCPClient(new MCPClient({ name: 'agent', version: '1.0.0' }));
  await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [...process.execArgv, process.argv[1] as string, 'serve'], env }));

  const getWeather = tool(
    async ({ city }: { city: string }) => {
      const result = await mcp.callTool({ name: 'get_weather', arguments: { city } });
      return (result.content as { text: string }[])[0]?.text ?? '';
    },
    { name: 'get_weather', description: 'The weather in a city', schema: z.object({ city: z.string() }) },
  );
  // ChatOpenAI sends its chat completions through `completions.client`: a wrapped client records each request as sent and
  // received under the model's run (docs/integrations.md). (The cast: @langchain/openai brings its own `openai`.)
  const completions = new ChatOpenAICompletions({ model: MODEL, apiKey: API_KEY });
  completions.client = wrapOpenAI(new OpenAI({ apiKey: API_KEY, baseURL, maxRetries: 0 })) as unknown as ChatOpenAICompletions['client'];
  const model = new ChatOpenAI({ model: MODEL, apiKey: API_KEY, completions }).bindTools([getWeather]);

  const graph = new StateGraph(MessagesAnnotation)
    .addNode('agent', async (s) => ({ messages: [await model.invoke(s.messages)] }))
    .addNode('tools', new ToolNode([getWeather]))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition, ['tools', END])
    .addEdge('tools', 'agent')
    .compile();

  const ask = op(async function ask(question: string) {
    const out = await graph.invoke({ messages: [new HumanMessage(question)] });
    return out.messages.filter((m) => m.getType() === 'ai').at(-1)?.text; // the model's last turn
  });
  try {
    const [answer, call] = await ask.invoke('What is the weather in Paris?');
    console.log(`answer: ${answer}`);
    await mcp.close(); // the server process flushes its calls as it exits, before the tree below is read
    await flush();
    const records = await printTraceCost(server.url, PROJECT, call!); // the tree, the root's usage and cost
    for (const r of records.filter((c) => c.op_name.startsWith('openai.') || c.op_name.startsWith('langchain.chat_model.'))) {
      console.log(`call ${r.op_name}: ${JSON.stringify(r.summary?.usage ?? {})}`);
    }
  } finally {
    await mcp.close();
    await shutdown();
    await fake?.close();
    await server.close();
  }
}

await (process.argv[2] === 'serve' ? serve() : agent());
