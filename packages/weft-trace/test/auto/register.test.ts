// @weft-test: runtime (ESM and CommonJS hooks, and openai 7 / ai 7 on Node >= 22)
// The no-code route (`node --import weft-trace/register`, `node -r weft-trace/register`) against the real SDKs and the
// loopback fakes of the explicit wrappers' tests: in a child process per library, ESM and CommonJS, the calls are the
// explicit wrapper's (same ops, tree, inputs and usage), and an app that also wraps by hand records each once.
// LangChain / LangGraph: the explicit route is registerWeftTracer(), and both on give each run once.
import { afterAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../src/schema/calls.js';
import { useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { useFakeGemini } from 'weft-test-kit/fake-gemini.js';
import { removeApp, runApp, treeOf, writeApp, type AppFormat, type AppSpec } from 'weft-test-kit/register-apps.js';
import { AGENTS_APP, AI_APP, ANTHROPIC_APP, GOOGLE_GENAI_APP, LANGCHAIN_APP, MCP_APP, NEWER_MAJOR_APPS, OPENAI_APP } from 'weft-test-kit/register-specs.js';
import { runsHere } from 'weft-test-kit/sdk-majors.js';
import { useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer();
const fake = useFakeLlm();
const gemini = useFakeGemini();
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeApp));

/** What the explicit wrapper's own test checks of each app's calls: the ops under the app's root, and a call's usage. */
const EXPECTED: Record<string, { ops: string[]; usage?: [op: string, model: string, keys: Record<string, number>] }> = {
  openai: {
    ops: ['openai.chat.completions.create', 'openai.chat.completions.create'],
    usage: ['openai.chat.completions.create', 'gpt-4o-mini-2024-07-18', { prompt_tokens: 1200, completion_tokens: 80, requests: 1, cache_read_input_tokens: 200 }],
  },
  '@anthropic-ai/sdk': { ops: ['anthropic.messages.create', 'anthropic.messages.create'], usage: ['anthropic.messages.create', 'claude-haiku-4-5', { requests: 1 }] },
  ai: { ops: ['ai.generateText', 'ai.generateText.doGenerate', 'ai.streamText', 'ai.streamText.doStream'], usage: ['ai.generateText.doGenerate', 'gpt-4o-mini-2024-07-18', { prompt_tokens: 1200, requests: 1 }] },
  '@google/genai': { ops: ['google_genai.models.generateContent', 'google_genai.models.generateContentStream'] },
  '@modelcontextprotocol/sdk': { ops: ['mcp.callTool', 'mcp.server.callTool'] },
  '@openai/agents': { ops: ['openai.responses.create'] },
  '@langchain/core': {
    ops: ['langchain.chat_model.ChatOpenAI', 'langchain.chat_model.ChatOpenAI', 'langchain.chain.LangGraph', 'langgraph.node.respond'],
    usage: ['langchain.chat_model.ChatOpenAI', 'gpt-4o-mini-2024-07-18', { prompt_tokens: 1200, completion_tokens: 80, requests: 1 }],
  },
};

async function threeWays(spec: AppSpec, format: AppFormat): Promise<Record<'explicit' | 'auto' | 'both', CallRecord[]>> {
  const dir = writeApp(spec);
  dirs.push(dir);
  const urls = { openai: fake().openaiURL, anthropic: fake().anthropicURL, gemini: gemini().url };
  // all three run at once; each is awaited to its end before a failure is reported, so none outlives the test
  const settled = await Promise.allSettled((['explicit', 'auto', 'both'] as const).map((mode) => runApp(dir, spec, format, mode, server().url, urls)));
  const [explicit, auto, both] = settled.map((s) => {
    if (s.status === 'rejected') throw s.reason;
    return s.value;
  });
  return { explicit: explicit!, auto: auto!, both: both! };
}

/** Each app, and the newer majors (openai 7, ai 7) where this Node runs them (>= 22: the Node matrix, vitest.config.ts). */
const APPS: { label: string; spec: AppSpec }[] = [
  ...[OPENAI_APP, ANTHROPIC_APP, AI_APP, GOOGLE_GENAI_APP, MCP_APP, AGENTS_APP, LANGCHAIN_APP].map((spec) => ({ label: spec.lib, spec })),
  ...NEWER_MAJOR_APPS.filter((a) => runsHere(a.installed)).map((spec) => ({ label: `${spec.lib} as ${spec.installed}`, spec })),
];

describe.each(APPS)('$label', ({ spec }) => {
  it.each(['esm', 'cjs'] as const)('%s: the register route records the explicit wrapper calls, and once each with both on', async (format) => {
    const { explicit, auto, both } = await threeWays(spec, format);
    const expected = EXPECTED[spec.lib]!;
    const ops = explicit.map((c) => c.op_name);
    for (const op of expected.ops) expect(ops, `explicit ${op}`).toContain(op);
    if (expected.usage) {
      const [op, model, keys] = expected.usage;
      const call = explicit.find((c) => c.op_name === op);
      expect((call?.summary as { usage?: Record<string, unknown> }).usage?.[model]).toMatchObject(keys);
    }
    expect(treeOf(auto)).toEqual(treeOf(explicit));
    expect(treeOf(both)).toEqual(treeOf(explicit));
  });
});
