/**
 * THE table of what the no-code route hooks: one entry per library (its modules, the versions patched, the patch,
 * and the explicit wrapper named when a copy of it cannot be hooked). A new integration is one entry here.
 * @module
 */
import { wrapAISDK } from '../integrations/ai-sdk.js';
import { wrapAnthropic } from '../integrations/anthropic.js';
import { patchBedrockRuntime } from '../integrations/bedrock/bedrock.js';
import { wrapClaudeAgentQuery } from '../integrations/claude-agent/query.js';
import { wrapGoogleGenAI } from '../integrations/google-genai.js';
import { wrapMCPClient } from '../integrations/mcp/client.js';
import { wrapMCPServer } from '../integrations/mcp/server.js';
import { WeftTracingProcessor } from '../integrations/openai-agents.js';
import { wrapOpenAI } from '../integrations/openai.js';
import { addLangChainTracer, LANGCHAIN_MODULES } from './langchain-hook.js';
import { tracedClasses, withOverrides, type Overrides } from './patch-exports.js';

/** One library the no-code route instruments. */
export interface Instrumentation {
  /** The library's package name, as `instrument({ only, except })` names it. */
  readonly name: string;
  /**
   * The modules hooked: the package (its main entry) or a file of it as apps import it
   * (`@modelcontextprotocol/sdk/client/index.js`), matched by require-in-the-middle and import-in-the-middle.
   */
  readonly modules: readonly string[];
  /** The package versions patched: `>=A.B.C <D.E.F` or `^A.B.C` (`version-range.ts`); another version is left alone, said once. */
  readonly versions: string;
  /** What to use instead when a copy cannot be hooked (bundled, or loaded before weft), as the one-line notice says. */
  readonly wrapper: string;
  /**
   * Patches a loaded module: returns its exports with the traced names in place (`esm`: an import-in-the-middle
   * namespace, assigned to; else a CommonJS exports object, copied). Runs once per copy of the module; `baseDir` is
   * the folder of the package it belongs to, when the hook says.
   */
  readonly patch: (exports: unknown, esm: boolean, baseDir?: string) => unknown;
}

/** A patch that replaces the named classes by subclasses whose instances come back through `wrap`. */
function classes(names: readonly string[], wrap: (client: object) => object): Instrumentation['patch'] {
  return (exports, esm) => withOverrides(exports, tracedClasses(exports, names, wrap), esm);
}

/** The AI SDK's functions, as `wrapAISDK` returns them (the names it traces). */
function aiFunctions(exports: unknown, esm: boolean): unknown {
  const src = exports as Record<string, unknown>;
  const traced = wrapAISDK(src);
  const overrides: Overrides = {};
  for (const [k, v] of Object.entries(traced)) if (v !== src[k]) overrides[k] = v;
  return withOverrides(exports, overrides, esm);
}

/**
 * Adds a `WeftTracingProcessor` to the Agents SDK's trace provider, once `@openai/agents` has set OpenAI's exporter as
 * the only processor (its main module does on load); `@openai/agents-core` alone gets one too. A second processor on
 * one provider records nothing more.
 */
function agentsProcessor(exports: unknown): unknown {
  const add = (exports as { addTraceProcessor?: (p: unknown) => void }).addTraceProcessor;
  if (typeof add === 'function') add(new WeftTracingProcessor());
  return exports;
}

/** The Claude Agent SDK's `query`, as `wrapClaudeAgentQuery` returns it. */
function agentQuery(exports: unknown, esm: boolean): unknown {
  const query = (exports as { query?: unknown }).query;
  return typeof query === 'function' ? withOverrides(exports, { query: wrapClaudeAgentQuery(query as (...args: never[]) => unknown) }, esm) : exports;
}

/** Every library the no-code route instruments, by package name. */
export const INSTRUMENTATIONS: readonly Instrumentation[] = [
  { name: 'openai', modules: ['openai'], versions: '>=4 <8', wrapper: 'wrapOpenAI(new OpenAI())', patch: classes(['default', 'OpenAI', 'AzureOpenAI'], wrapOpenAI) },
  { name: '@anthropic-ai/sdk', modules: ['@anthropic-ai/sdk'], versions: '>=0.30.0 <2', wrapper: 'wrapAnthropic(new Anthropic())', patch: classes(['default', 'Anthropic'], wrapAnthropic) },
  { name: 'ai', modules: ['ai'], versions: '>=5 <8', wrapper: "wrapAISDK(await import('ai'))", patch: aiFunctions },
  { name: '@google/genai', modules: ['@google/genai'], versions: '>=1 <4', wrapper: 'wrapGoogleGenAI(new GoogleGenAI())', patch: classes(['GoogleGenAI'], wrapGoogleGenAI) },
  { name: '@openai/agents', modules: ['@openai/agents-core', '@openai/agents'], versions: '>=0.1.0 <1', wrapper: 'addTraceProcessor(new WeftTracingProcessor())', patch: agentsProcessor },
  { name: '@anthropic-ai/claude-agent-sdk', modules: ['@anthropic-ai/claude-agent-sdk'], versions: '>=0.1.0 <1', wrapper: 'wrapClaudeAgentQuery(query)', patch: agentQuery },
  // in place: the client's prototype `send` (every client, and `BedrockRuntime`, which extends it)
  { name: '@aws-sdk/client-bedrock-runtime', modules: ['@aws-sdk/client-bedrock-runtime'], versions: '^3.0.0', wrapper: 'wrapBedrock(new BedrockRuntimeClient())', patch: (exports) => (patchBedrockRuntime(exports as Record<string, unknown>), exports) },
  // not a client to wrap: the first of its public modules to load gives every run a WeftTracer (registerWeftTracer's way)
  { name: '@langchain/core', modules: LANGCHAIN_MODULES, versions: '>=1.0.0 <2', wrapper: 'registerWeftTracer() (weft-trace/langchain)', patch: addLangChainTracer },
  {
    name: '@modelcontextprotocol/sdk',
    modules: ['@modelcontextprotocol/sdk/client/index.js', '@modelcontextprotocol/sdk/server/mcp.js'],
    versions: '^1.0.0',
    wrapper: 'wrapMCPClient(client) / wrapMCPServer(server)',
    patch: (exports, esm) => withOverrides(exports, { ...tracedClasses(exports, ['Client'], wrapMCPClient), ...tracedClasses(exports, ['McpServer'], wrapMCPServer) }, esm),
  },
];
