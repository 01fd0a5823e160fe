// @weft-test: isolated (a framework's process-wide registration, or OpenTelemetry's global context manager)
// WeftTracer over the real @langchain/core and @langchain/langgraph with their own fakes: the exact tree under op(), chat requests and completions, usage once (streamed too), a wrapped client inside a run.
import { AIMessage, AIMessageChunk, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { tool } from '@langchain/core/tools';
import { FakeListChatModel, FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getCurrentCall, op, wrapMCPClient, wrapMCPServer, wrapOpenAI } from '../../src/index.js';
import { registerWeftTracer, WeftTracer } from '../../src/integrations/langchain/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { chatOfCall } from 'weft-server/src/ui/chat/chat-of-call.js';
import { useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const fake = useFakeLlm();

const MODEL = 'fake-gpt-1';
const LC_USAGE = { input_tokens: 30, output_tokens: 7, total_tokens: 37, input_token_details: { cache_read: 10 }, output_token_details: { reasoning: 2 } };
const USAGE = { prompt_tokens: 30, input_tokens: 30, completion_tokens: 7, output_tokens: 7, total_tokens: 37, requests: 1, cache_read_input_tokens: 10, reasoning_tokens: 2 };
const twice = (u: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(u).map(([k, v]) => [k, v * 2]));

/** FakeListChatModel reporting usage and its model as a provider integration does (`usage_metadata`, `response_metadata`); streamed, in a last chunk. */
class MeteredChat extends FakeListChatModel {
  override async _generate(messages: BaseMessage[], options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    const result = await super._generate(messages, options, runManager);
    const text = String(result.generations[0]!.message.content);
    result.generations[0]!.message = new AIMessage({ content: text, usage_metadata: LC_USAGE, response_metadata: { model_name: MODEL, finish_reason: 'stop' } });
    return result;
  }

  override async *_streamResponseChunks(messages: BaseMessage[], options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun): AsyncGenerator<ChatGenerationChunk> {
    yield* super._streamResponseChunks(messages, options, runManager);
    yield new ChatGenerationChunk({ text: '', message: new AIMessageChunk({ content: '', usage_metadata: LC_USAGE, response_metadata: { model_name: MODEL } }) });
  }
}

/** The calls as `op_name <- parent op_name`, in start order; every call in one trace. */
function tree(calls: CallRecord[]): string[] {
  expect(new Set(calls.map((c) => c.trace_id)).size).toBe(1);
  const byId = new Map(calls.map((c) => [c.id, c]));
  return calls.map((c) => `${c.op_name} <- ${c.parent_id ? byId.get(c.parent_id)!.op_name : '(root)'}`);
}

const usageOf = (c: CallRecord): unknown => (c.summary as { usage?: unknown }).usage;
const tracer = (): { callbacks: WeftTracer[] } => ({ callbacks: [new WeftTracer()] });

describe('WeftTracer', () => {
  it('a chain (prompt | chat model | parser) under op(): the exact tree, the chat request and completion, usage once', async () => {
    const chain = ChatPromptTemplate.fromMessages([['system', 'Be brief.'], ['human', 'Tell me about {topic}']])
      .pipe(new MeteredChat({ responses: ['Bees buzz.'] }))
      .pipe(new StringOutputParser());
    let out: unknown;
    const calls = await traced(server(), 'lc-chain', () => op(async function pipeline() { out = await chain.invoke({ topic: 'bees' }, tracer()); })());
    expect(out).toBe('Bees buzz.');
    expect(tree(calls)).toEqual([
      'pipeline <- (root)',
      'langchain.chain.RunnableSequence <- pipeline',
      'langchain.prompt.ChatPromptTemplate <- langchain.chain.RunnableSequence',
      'langchain.chat_model.MeteredChat <- langchain.chain.RunnableSequence',
      'langchain.parser.StrOutputParser <- langchain.chain.RunnableSequence',
    ]);
    const model = one(calls, 'langchain.chat_model.MeteredChat');
    expect(model.inputs).toEqual({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Tell me about bees' }] });
    expect(model.output).toEqual({ object: 'chat.completion', model: MODEL, choices: [{ index: 0, message: { role: 'assistant', content: 'Bees buzz.' }, finish_reason: 'stop' }] });
    expect(model.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'langchain.run_type': 'llm' });
    expect(model.summary).toMatchObject({ usage: { [MODEL]: USAGE }, 'gen_ai.response.model': MODEL, 'gen_ai.response.finish_reasons': ['stop'] });
    expect(usageOf(one(calls, 'pipeline'))).toEqual({ [MODEL]: USAGE });
    expect(chatOfCall(model)?.format).toBe('openai-chat');
    expect(chatOfCall(model)?.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
  });

  it('a streamed chain records the usage of its chunks once and the time to first token', async () => {
    const chain = ChatPromptTemplate.fromMessages([['human', '{q}']]).pipe(new MeteredChat({ responses: ['Hi!'] }));
    const chunks: string[] = [];
    const calls = await traced(server(), 'lc-stream', () =>
      op(async function streaming() {
        for await (const c of await chain.stream({ q: 'hello' }, tracer())) chunks.push(String(c.content));
      })(),
    );
    expect(chunks.join('')).toBe('Hi!');
    const model = one(calls, 'langchain.chat_model.MeteredChat');
    expect(usageOf(model)).toEqual({ [MODEL]: USAGE });
    expect((model.summary as Record<string, number>)['time_to_first_token_ms']).toBeGreaterThanOrEqual(0);
    expect((model.output as { choices: { message: unknown }[] }).choices[0]!.message).toEqual({ role: 'assistant', content: 'Hi!' });
    expect(usageOf(one(calls, 'streaming'))).toEqual({ [MODEL]: USAGE });
  });

  it('a tool-calling agent loop: tool calls in the OpenAI shape, op() and a wrapped client inside the tool nest under it, an error recorded', async () => {
    const openai = wrapOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL, maxRetries: 0 }));
    let current: string | undefined;
    const add = tool(
      async ({ a, b }: { a: number; b: number }) => {
        current = getCurrentCall()?.opName;
        await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'check' }] });
        return op(function sum(x: number, y: number) { return x + y; })(a, b);
      },
      { name: 'add', description: 'Adds two numbers', schema: z.object({ a: z.number(), b: z.number() }) },
    );
    const fails = tool(async () => { throw new Error('no such city'); }, { name: 'weather', description: 'Weather', schema: z.object({ city: z.string() }) });
    const caller = new FakeStreamingChatModel({ responses: [new AIMessage('Let me add.')], chunks: [new AIMessageChunk({ content: '', tool_calls: [{ id: 'call_1', name: 'add', args: { a: 2, b: 2 }, type: 'tool_call' }] })] }).bindTools([add]);
    const answerer = new FakeListChatModel({ responses: ['2 + 2 = 4'] });
    let answer = '';
    let thrown: unknown;
    const calls = await traced(server(), 'lc-agent', () =>
      op(async function agent() {
        const messages: BaseMessage[] = [new HumanMessage('What is 2 + 2?')];
        const ai = await caller.invoke(messages, tracer());
        messages.push(ai);
        for (const call of ai.tool_calls ?? []) messages.push(await add.invoke(call, tracer()));
        answer = String((await answerer.invoke(messages, tracer())).content);
        await fails.invoke({ city: 'Atlantis' }, tracer()).catch((e: unknown) => (thrown = e));
      })(),
    );
    expect(answer).toBe('2 + 2 = 4');
    expect(current).toBe('langchain.tool.add');
    expect((thrown as Error).message).toBe('no such city');
    expect(tree(calls)).toEqual([
      'agent <- (root)',
      'langchain.chat_model.FakeStreamingChatModel <- agent',
      'langchain.tool.add <- agent',
      'openai.chat.completions.create <- langchain.tool.add',
      'sum <- langchain.tool.add',
      'langchain.chat_model.FakeListChatModel <- agent',
      'langchain.tool.weather <- agent',
    ]);
    const toolCalls = [{ id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":2}' } }];
    expect(one(calls, 'langchain.chat_model.FakeStreamingChatModel').inputs).toMatchObject({ tools: [{ type: 'function', function: { name: 'add', description: 'Adds two numbers' } }] });
    expect(one(calls, 'langchain.chat_model.FakeStreamingChatModel').output).toMatchObject({ choices: [{ message: { role: 'assistant', content: 'Let me add.', tool_calls: toolCalls } }] });
    const addCall = one(calls, 'langchain.tool.add');
    expect(addCall.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'add', 'gen_ai.tool.call.id': 'call_1' });
    expect(addCall.output).toMatchObject({ role: 'tool', content: '4', tool_call_id: 'call_1' });
    expect(one(calls, 'langchain.chat_model.FakeListChatModel').inputs).toEqual({
      messages: [{ role: 'user', content: 'What is 2 + 2?' }, { role: 'assistant', content: 'Let me add.', tool_calls: toolCalls }, { role: 'tool', content: '4', name: 'add', tool_call_id: 'call_1' }],
    });
    expect(one(calls, 'langchain.tool.weather').exception).toMatchObject({ message: 'no such city' });
  });

  it('a LangGraph StateGraph with two nodes: each node a call under the graph, its model and ops under the node, usage once', async () => {
    const model = new MeteredChat({ responses: ['a plan'] });
    const lookup = op(async function lookup(plan: string) { return `${plan}, looked up`; });
    const State = Annotation.Root({ question: Annotation<string>(), plan: Annotation<string>(), answer: Annotation<string>() });
    const graph = new StateGraph(State)
      .addNode('planner', async (s) => ({ plan: String((await model.invoke(s.question)).content) }))
      .addNode('actor', async (s) => ({ answer: await lookup(s.plan) }))
      .addEdge(START, 'planner')
      .addEdge('planner', 'actor')
      .addEdge('actor', END)
      .compile();
    let result: unknown;
    const calls = await traced(server(), 'lc-graph', () => op(async function run() { result = await graph.invoke({ question: 'how?' }, tracer()); })());
    expect(result).toEqual({ question: 'how?', plan: 'a plan', answer: 'a plan, looked up' });
    expect(tree(calls)).toEqual([
      'run <- (root)',
      'langchain.chain.LangGraph <- run',
      'langgraph.node.planner <- langchain.chain.LangGraph',
      'langchain.chat_model.MeteredChat <- langgraph.node.planner',
      'langgraph.node.actor <- langchain.chain.LangGraph',
      'lookup <- langgraph.node.actor',
    ]);
    expect(one(calls, 'langgraph.node.actor').attributes).toMatchObject({ 'langgraph.node': 'actor', 'langgraph.step': 2 });
    expect(one(calls, 'langgraph.node.actor').output).toEqual({ answer: 'a plan, looked up' });
    expect(usageOf(one(calls, 'run'))).toEqual({ [MODEL]: USAGE });
  });
});

/** A chat model whose request goes through a wrapped OpenAI client, reporting the response's usage as `@langchain/openai` does. */
class OpenAIBackedChat extends FakeListChatModel {
  constructor(private readonly client: OpenAI, private readonly viaHook = false) {
    super({ responses: [''] });
  }

  override async _generate(messages: BaseMessage[], _options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    const request = () => this.client.chat.completions.create({ model: 'gpt-4o-mini', messages: messages.map((m) => ({ role: 'user' as const, content: String(m.content) })) });
    // a core with the `wrapRunExecution` hook runs the model's body through each handler's hook (BaseRunManager.withRunContext)
    const hook = this.viaHook ? (runManager?.handlers.find((h) => 'wrapRunExecution' in h) as WeftTracer | undefined) : undefined;
    const r = hook && runManager ? await hook.wrapRunExecution(runManager.runId, request) : await request();
    const u = r.usage!;
    const usage_metadata = { input_tokens: u.prompt_tokens, output_tokens: u.completion_tokens, total_tokens: u.total_tokens };
    return { generations: [{ text: r.choices[0]!.message.content ?? '', message: new AIMessage({ content: r.choices[0]!.message.content ?? '', usage_metadata, response_metadata: { model_name: r.model } }) }] };
  }
}

describe('WeftTracer with a wrapped provider client under a chat model (one model request, counted once)', () => {
  const OPENAI_MODEL = 'gpt-4o-mini-2024-07-18';

  for (const viaHook of [false, true]) {
    it(`nests the client's call under the chat model run, which records no usage of its own (${viaHook ? 'wrapRunExecution' : 'core 1.4: no hook'})`, async () => {
      const chat = new OpenAIBackedChat(wrapOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL, maxRetries: 0 })), viaHook);
      const calls = await traced(server(), 'lc-once', () => op(async function ask() { return chat.invoke('Say hi', tracer()); })());
      expect(tree(calls)).toEqual(['ask <- (root)', 'langchain.chat_model.OpenAIBackedChat <- ask', 'openai.chat.completions.create <- langchain.chat_model.OpenAIBackedChat']);
      const request = usageOf(one(calls, 'openai.chat.completions.create')) as Record<string, Record<string, number>>;
      expect(request[OPENAI_MODEL]!['total_tokens']).toBe(1280);
      expect(usageOf(one(calls, 'langchain.chat_model.OpenAIBackedChat'))).toEqual(request);
      expect(usageOf(one(calls, 'ask'))).toEqual(request);
      expect(usageOf(one(calls, 'ask'))).not.toEqual({ [OPENAI_MODEL]: twice(request[OPENAI_MODEL]!) });
    });
  }
});

describe('WeftTracer with an MCP client inside a tool', () => {
  it("the MCP client's call nests under the tool run whose function makes it, the server's handler under it", async () => {
    const mcpServer = wrapMCPServer(new McpServer({ name: 'weather', version: '1.0.0' }));
    mcpServer.registerTool('forecast', { inputSchema: { city: z.string() } }, async ({ city }) => ({ content: [{ type: 'text' as const, text: `${city}: rain` }] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcpServer.connect(serverSide);
    const mcp = wrapMCPClient(new Client({ name: 'agent', version: '1.0.0' }));
    await mcp.connect(clientSide);
    const forecast = tool(async ({ city }: { city: string }) => JSON.stringify((await mcp.callTool({ name: 'forecast', arguments: { city } })).content), {
      name: 'forecast',
      description: 'The weather in a city',
      schema: z.object({ city: z.string() }),
    });
    const calls = await traced(server(), 'lc-mcp', () => op(async function plan() { return forecast.invoke({ city: 'Lisbon' }, tracer()); })());
    await mcp.close();
    // as a set: the tool's run and the client's call may start in the same millisecond
    expect(tree(calls).sort()).toEqual(['langchain.tool.forecast <- plan', 'mcp.callTool <- langchain.tool.forecast', 'mcp.server.callTool <- mcp.callTool', 'plan <- (root)']);
  });
});

describe('registerWeftTracer', () => {
  it('traces every run from here on with no callbacks option, once even when a WeftTracer is also passed', async () => {
    registerWeftTracer();
    const model = new FakeListChatModel({ responses: ['ok'] });
    const calls = await traced(server(), 'lc-global', () =>
      op(async function everywhere() {
        await model.invoke('one');
        await model.invoke('two', tracer());
      })(),
    );
    expect(tree(calls)).toEqual(['everywhere <- (root)', 'langchain.chat_model.FakeListChatModel <- everywhere', 'langchain.chat_model.FakeListChatModel <- everywhere']);
  });
});
