// @weft-test: isolated (a framework's process-wide registration, or OpenTelemetry's global context manager)
// WeftTracer over LangChain's own provider integrations (@langchain/openai's ChatOpenAI, @langchain/anthropic's ChatAnthropic) at the loopback
// fake, with the provider client wrapped (wrapOpenAI, wrapAnthropic) and not: concurrent model calls under one LangGraph node each keep their own
// request under them and are counted once; however a run is consumed (invoke, stream, streamEvents, LangGraph's stream modes) its usage is keyed
// by the served model.
import Anthropic from '@anthropic-ai/sdk';
import { ChatAnthropic } from '@langchain/anthropic';
import { ChatOpenAI, ChatOpenAICompletions, ChatOpenAIResponses } from '@langchain/openai';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { op, wrapAnthropic, wrapOpenAI } from '../../src/index.js';
import { WeftTracer } from '../../src/integrations/langchain/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { collect, useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const fake = useFakeLlm();

/** What the loopback fake answers a `gpt-4o-mini` request with: its served name, and the usage of one request (OPENAI_USAGE). */
const SERVED = 'gpt-4o-mini-2024-07-18';
const ONE = { prompt_tokens: 1200, input_tokens: 1200, completion_tokens: 80, output_tokens: 80, total_tokens: 1280, requests: 1, cache_read_input_tokens: 200, reasoning_tokens: 30 };
const times = (n: number): Record<string, number> => Object.fromEntries(Object.entries(ONE).map(([k, v]) => [k, v * n]));

/**
 * `ChatOpenAI` over a `ChatOpenAICompletions` whose client is wrapped (the recipe of docs/integrations.md), or over
 * its own client. (The cast: this repository's `openai` is major 6, @langchain/openai has its own 7.)
 */
function chatOpenAI(wrapped: boolean): ChatOpenAI {
  const completions = new ChatOpenAICompletions({ model: 'gpt-4o-mini', apiKey: 'sk-test', configuration: { baseURL: fake().openaiURL } });
  if (wrapped) completions.client = wrapOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL, maxRetries: 0 })) as unknown as ChatOpenAICompletions['client'];
  return new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'sk-test', completions, configuration: { baseURL: fake().openaiURL } });
}

const tracer = (): { callbacks: WeftTracer[] } => ({ callbacks: [new WeftTracer()] });
const usageOf = (c: CallRecord | undefined): unknown => (c?.summary as { usage?: unknown } | undefined)?.usage;
const named = (calls: CallRecord[], prefix: string): CallRecord[] => calls.filter((c) => c.op_name.startsWith(prefix));

/** Runs `work` under an op() and returns the calls, the root and how many requests the fake answered meanwhile. */
async function run(label: string, work: () => Promise<unknown>): Promise<{ calls: CallRecord[]; root: CallRecord; served: number }> {
  const before = fake().requests.length;
  const calls = await traced(server(), label, () => op(async function root() { await work(); })());
  expect(new Set(calls.map((c) => c.trace_id)).size).toBe(1);
  return { calls, root: calls.find((c) => c.parent_id === undefined || c.parent_id === null)!, served: fake().requests.length - before };
}

/**
 * The model requests under their chat model runs: each provider request (`requestOp`) is the child of a chat model
 * call, each chat model call has exactly one, and the request is its own (the messages it sent are the run's).
 */
function expectEachRequestUnderItsModel(calls: CallRecord[], modelOp: string, requestOp: string, n: number): void {
  const models = calls.filter((c) => c.op_name === modelOp);
  const requests = calls.filter((c) => c.op_name === requestOp);
  expect(models).toHaveLength(n);
  expect(requests).toHaveLength(n);
  for (const model of models) {
    const mine = requests.filter((r) => r.parent_id === model.id);
    expect(mine, `${modelOp} has its own ${requestOp} under it`).toHaveLength(1);
    expect((mine[0]!.inputs as { messages: unknown }).messages).toEqual((model.inputs as { messages: unknown }).messages);
  }
}

const State = Annotation.Root({ q: Annotation<string>(), a: Annotation<string>({ reducer: (x, y) => (x ? `${x}|${y}` : y), default: () => '' }) });

/** A graph of one node `n` running `body`. */
function oneNode(body: () => Promise<string>) {
  return new StateGraph(State).addNode('n', async () => ({ a: await body() })).addEdge(START, 'n').addEdge('n', END).compile();
}

/** A graph of two nodes `n1`, `n2` run in parallel (both from START), each running `body` with its name. */
function twoNodes(body: (node: string) => Promise<string>) {
  return new StateGraph(State)
    .addNode('n1', async () => ({ a: await body('n1') }))
    .addNode('n2', async () => ({ a: await body('n2') }))
    .addEdge(START, 'n1')
    .addEdge(START, 'n2')
    .addEdge('n1', END)
    .addEdge('n2', END)
    .compile();
}

describe('concurrent model calls under one LangChain run: each request under its own ChatOpenAI call, counted once', () => {
  const shapes: Record<string, (m: ChatOpenAI) => { invoke(input: { q: string }, config: ReturnType<typeof tracer>): Promise<unknown> }> = {
    'Promise.all': (m) => oneNode(async () => (await Promise.all([m.invoke('a'), m.invoke('b')])).map((r) => r.text).join()),
    batch: (m) => oneNode(async () => (await m.batch(['a', 'b'])).map((r) => r.text).join()),
    'Promise.all, the same prompt twice': (m) => oneNode(async () => (await Promise.all([m.invoke('same'), m.invoke('same')])).map((r) => r.text).join()),
    'parallel nodes': (m) => twoNodes(async (node) => (await m.invoke(`from ${node}`)).text),
  };

  for (const wrapped of [true, false]) {
    for (const [shape, build] of Object.entries(shapes)) {
      it(`${shape}, ${wrapped ? 'wrapped client' : 'unwrapped client'}: the tree, and the root's usage is what the server answered`, async () => {
        const graph = build(chatOpenAI(wrapped));
        const { calls, root, served } = await run('lc-concurrent', () => graph.invoke({ q: 'x' }, tracer()));
        expect(served).toBe(2);
        const models = named(calls, 'langchain.chat_model.ChatOpenAI');
        expect(models).toHaveLength(2);
        for (const m of models) expect(calls.find((c) => c.id === m.parent_id)?.op_name).toMatch(/^langgraph\.node\./);
        if (wrapped) expectEachRequestUnderItsModel(calls, 'langchain.chat_model.ChatOpenAI', 'openai.chat.completions.create', 2);
        else expect(named(calls, 'openai.')).toEqual([]);
        for (const m of models) expect(usageOf(m)).toEqual({ [SERVED]: ONE });
        expect(usageOf(root)).toEqual({ [SERVED]: times(served) });
      });
    }
  }
  it('ChatOpenAI on the Responses API (its `responses` model\'s client wrapped): Promise.all, each request under its run, counted once', async () => {
    const responses = new ChatOpenAIResponses({ model: 'gpt-4o-mini', apiKey: 'sk-test' });
    responses.client = wrapOpenAI(new OpenAI({ apiKey: 'sk-test', baseURL: fake().openaiURL, maxRetries: 0 })) as unknown as ChatOpenAIResponses['client'];
    const m = new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'sk-test', useResponsesApi: true, responses });
    const graph = oneNode(async () => (await Promise.all([m.invoke('a'), m.invoke('b')])).map((r) => r.text).join());
    const { calls, root, served } = await run('lc-responses', () => graph.invoke({ q: 'x' }, tracer()));
    expect(served).toBe(2);
    const models = named(calls, 'langchain.chat_model.ChatOpenAI');
    const requests = named(calls, 'openai.responses.create');
    expect(requests.map((r) => models.findIndex((m) => m.id === r.parent_id)).sort()).toEqual([0, 1]);
    expect((usageOf(root) as Record<string, { requests: number; total_tokens: number }>)[SERVED]).toMatchObject({ requests: 2, total_tokens: 2 * 1280 });
  });
});

describe('the served model keys the usage however a run is consumed', () => {
  /** Each way of consuming a ChatOpenAI run inside a LangGraph node: the node's body, and how the graph is run. */
  const consumers: Record<string, { body: (m: ChatOpenAI) => Promise<string>; drive?: (g: ReturnType<typeof oneNode>) => Promise<unknown> }> = {
    invoke: { body: async (m) => (await m.invoke('a')).text },
    stream: { body: async (m) => (await collect(await m.stream('a'))).map((c) => c.text).join('') },
    streamEvents: { body: async (m) => String((await collect(m.streamEvents('a', { version: 'v2' }))).length) },
    "LangGraph streamMode 'messages'": { body: async (m) => (await m.invoke('a')).text, drive: async (g) => collect(await g.stream({ q: 'x' }, { streamMode: 'messages', ...tracer() })) },
    'LangGraph streamEvents v2': { body: async (m) => (await m.invoke('a')).text, drive: async (g) => collect(g.streamEvents({ q: 'x' }, { version: 'v2', ...tracer() })) },
    'LangGraph streamEvents v3': {
      body: async (m) => (await m.invoke('a')).text,
      // v3 answers a run to iterate (typed by the graph's stream transformers)
      drive: async (g) => collect(await (g as unknown as { streamEvents(i: unknown, o: unknown): Promise<AsyncIterable<unknown>> }).streamEvents({ q: 'x' }, { version: 'v3', ...tracer() })),
    },
  };

  for (const wrapped of [false, true]) {
    for (const [how, { body, drive }] of Object.entries(consumers)) {
      it(`${how}, ${wrapped ? 'wrapped client' : 'unwrapped client'}: usage keyed ${SERVED}, gen_ai.response.model set, the request under its model`, async () => {
        const m = chatOpenAI(wrapped);
        const graph = oneNode(async () => body(m));
        const { calls, root, served } = await run('lc-served', () => (drive ? drive(graph) : graph.invoke({ q: 'x' }, tracer())));
        expect(served).toBe(1);
        const [model] = named(calls, 'langchain.chat_model.ChatOpenAI');
        expect(calls.find((c) => c.id === model!.parent_id)?.op_name).toBe('langgraph.node.n');
        if (wrapped) expectEachRequestUnderItsModel(calls, 'langchain.chat_model.ChatOpenAI', 'openai.chat.completions.create', 1);
        expect(model!.summary).toMatchObject({ 'gen_ai.response.model': SERVED });
        expect((model!.output as { model: string }).model).toBe(SERVED);
        expect(usageOf(model)).toEqual({ [SERVED]: ONE });
        expect(usageOf(root)).toEqual({ [SERVED]: ONE });
      });
    }
  }
});

describe('ChatAnthropic with its client wrapped (createClient: wrapAnthropic)', () => {
  const REQUESTED = 'claude-haiku-4-5';
  const DATED = 'claude-haiku-4-5-20251001';
  /** The fake answers with the requested name; this fetch makes it answer with a dated one, as Anthropic's API does for an alias. */
  const dated: typeof fetch = async (input, init) => {
    const r = await fetch(input, init);
    return new Response((await r.text()).replaceAll(`"model":"${REQUESTED}"`, `"model":"${DATED}"`), { status: r.status, headers: r.headers });
  };
  /** (The cast: this repository's `@anthropic-ai/sdk` is major 1, @langchain/anthropic has its own 0.x.) */
  const chatAnthropic = (wrapped: boolean): ChatAnthropic => {
    const fields = { model: REQUESTED, apiKey: 'sk-test', anthropicApiUrl: fake().anthropicURL, clientOptions: { fetch: dated } };
    return new ChatAnthropic(wrapped ? { ...fields, createClient: (options) => wrapAnthropic(new Anthropic(options as ConstructorParameters<typeof Anthropic>[0])) } : fields);
  };

  for (const wrapped of [true, false]) {
    it(`${wrapped ? 'wrapped' : 'unwrapped'}: two concurrent calls and a stream, each request under its model run, usage once, keyed ${DATED}`, async () => {
      const m = chatAnthropic(wrapped);
      const { calls, root, served } = await run('lc-anthropic', async () => {
        await Promise.all([m.invoke('x', tracer()), m.invoke('y', tracer())]);
        await collect(await m.stream('z', tracer()));
      });
      expect(served).toBe(3);
      if (wrapped) expectEachRequestUnderItsModel(calls, 'langchain.chat_model.ChatAnthropic', 'anthropic.messages.create', 3);
      else expect(named(calls, 'anthropic.')).toEqual([]);
      for (const model of named(calls, 'langchain.chat_model.ChatAnthropic')) {
        expect(model.summary).toMatchObject({ 'gen_ai.response.model': DATED });
        expect(Object.keys(usageOf(model) as object)).toEqual([DATED]);
      }
      const total = (usageOf(root) as Record<string, { requests: number; input_tokens: number; output_tokens: number }>)[DATED];
      expect(total).toMatchObject({ requests: 3, input_tokens: 3 * 1500 });
      // the wrapper's usage is the API's; LangChain's own, for a stream, adds message_start's output_tokens (1 here) to
      // message_delta's, which already count them
      if (wrapped) expect(total!.output_tokens).toBe(3 * 80);
    });
  }
});
