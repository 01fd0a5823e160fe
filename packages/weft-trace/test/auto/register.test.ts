// @weft-test: runtime (ESM and CommonJS hooks, and openai 7 / ai 7 on Node >= 22)
// The no-code route (`node --import weft-trace/register`, `node -r weft-trace/register`) against the real SDKs and the
// loopback fakes of the explicit wrappers' tests, ESM and CommonJS: per library, the calls are the explicit wrapper's
// (same ops, tree, inputs and usage), and an app that also wraps by hand records each once. The libraries' apps share
// a child process per format and mode (wrapped by hand, by the register route, both), run in turn, each under a root
// op named for its library, and the calls split back by that root: none may be outside one.
// LangChain / LangGraph: the explicit route is registerWeftTracer(), and both on give each run once.
import { afterAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../src/schema/calls.js';
import { useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { useFakeGemini } from 'weft-test-kit/fake-gemini.js';
import { appRoot, byApp, removeApps, runApps, treeOf, writeApps, type AppFormat, type AppGroup, type AppMode } from 'weft-test-kit/register-apps.js';
import { AGENTS_APP, AI_APP, ANTHROPIC_APP, GOOGLE_GENAI_APP, LANGCHAIN_APP, MCP_APP, NEWER_MAJOR_APPS, OPENAI_APP } from 'weft-test-kit/register-specs.js';
import { runsHere } from 'weft-test-kit/sdk-majors.js';
import { useTestServer } from 'weft-test-kit/server.js';

const server = useTestServer();
const fake = useFakeLlm();
const gemini = useFakeGemini();

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

type Runs = Record<AppMode, Map<string, CallRecord[]>>;
const MODES = ['explicit', 'auto', 'both'] as const;

/**
 * The libraries' apps in one child per format and mode (a process start and an SDK load each, not one per app):
 * the current majors together, and the newer majors (openai 7, ai 7, reached as `openai` and `ai`: their own child,
 * as `openai` cannot be two majors in one process) where this Node runs them (>= 22: the Node matrix, vitest.config.ts).
 */
const GROUPS = [[OPENAI_APP, ANTHROPIC_APP, AI_APP, GOOGLE_GENAI_APP, MCP_APP, AGENTS_APP, LANGCHAIN_APP], NEWER_MAJOR_APPS.filter((a) => runsHere(a.installed))]
  .filter((specs) => specs.length > 0)
  .map((specs) => ({ specs, group: undefined as AppGroup | undefined, runs: new Map<AppFormat, Promise<Runs>>() }));
afterAll(() => GROUPS.forEach((g) => g.group && removeApps(g.group)));

/** A group's calls in each mode, split per app, run once per format (the first test asking starts it). */
function runsOf(g: (typeof GROUPS)[number], format: AppFormat): Promise<Runs> {
  let runs = g.runs.get(format);
  if (!runs) {
    const group = (g.group ??= writeApps(g.specs));
    const urls = { openai: fake().openaiURL, anthropic: fake().anthropicURL, gemini: gemini().url };
    // the three modes run at once; each is awaited to its end before a failure is reported, so none outlives the test
    runs = Promise.allSettled(MODES.map((mode) => runApps(group, format, mode, server().url, urls))).then((settled) => {
      const split = settled.map((s) => {
        if (s.status === 'rejected') throw s.reason;
        return byApp(s.value);
      });
      return { explicit: split[0]!, auto: split[1]!, both: split[2]! };
    });
    g.runs.set(format, runs);
  }
  return runs;
}

const APPS = GROUPS.flatMap((g) => g.specs.map((spec) => ({ label: 'installed' in spec ? `${spec.lib} as ${spec.installed}` : spec.lib, spec, g })));

describe.each(APPS)('$label', ({ spec, g }) => {
  it.each(['esm', 'cjs'] as const)(
    '%s: the register route records the explicit wrapper calls, and once each with both on',
    async (format) => {
      const runs = await runsOf(g, format);
      for (const mode of MODES) {
        // every call of the run is under one app's root, and this app's root ended without an error
        expect(runs[mode].get('')?.map((c) => c.op_name) ?? [], `${mode}: calls under no app's root`).toEqual([]);
        const root = runs[mode].get(spec.lib)?.find((c) => c.op_name === appRoot(spec.lib));
        expect(root, `${mode}: the app's root call`).toBeDefined();
        expect(root!.exception ?? null, `${mode}: the app threw`).toBeNull();
      }
      const [explicit, auto, both] = MODES.map((mode) => runs[mode].get(spec.lib)!);
      const expected = EXPECTED[spec.lib]!;
      const ops = explicit!.map((c) => c.op_name);
      for (const op of expected.ops) expect(ops, `explicit ${op}`).toContain(op);
      if (expected.usage) {
        const [op, model, keys] = expected.usage;
        const call = explicit!.find((c) => c.op_name === op);
        expect((call?.summary as { usage?: Record<string, unknown> }).usage?.[model]).toMatchObject(keys);
      }
      expect(treeOf(auto!)).toEqual(treeOf(explicit!));
      expect(treeOf(both!)).toEqual(treeOf(explicit!));
    },
    // the first test of a group and format waits for its three children (every app's SDK loaded in each)
    120_000,
  );
});
