/**
 * The no-code route's LangChain hook: when a copy of `@langchain/core` loads, a `WeftTracer` joins every run as
 * `registerWeftTracer()` adds it, through that copy's own public `@langchain/core/context` (ESM or CommonJS, as loaded).
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { addToEveryRun, type LangChainContextApi } from '../integrations/langchain/configure-hook.js';
import type { WeftTracer } from '../integrations/langchain/weft-tracer.js';

/**
 * The public entry points of `@langchain/core` (its package.json `exports`) that apps and LangChain's own packages
 * (`@langchain/openai`, `@langchain/anthropic`, `@langchain/langgraph`) import: the first of them to load starts the
 * tracer. The hooks see a module imported by this name, not the package's files imported from inside it.
 */
export const LANGCHAIN_MODULES: readonly string[] = [
  '@langchain/core',
  ...['callbacks/base', 'callbacks/manager', 'context', 'documents', 'embeddings', 'language_models/base', 'language_models/chat_models', 'language_models/llms', 'messages', 'output_parsers', 'outputs', 'prompts', 'retrievers', 'runnables', 'singletons', 'tools', 'tracers/base', 'utils/env', 'utils/types', 'vectorstores'].map((p) => `@langchain/core/${p}`),
];

/** The copies of `@langchain/core` (folder and format) already given a tracer, shared by every copy of weft. */
const DONE: Set<string> = ((globalThis as Record<symbol, Set<string> | undefined>)[Symbol.for('weft.langchainHooked')] ??= new Set<string>());

type ExportTarget = string | { default?: ExportTarget; [condition: string]: ExportTarget | undefined } | undefined;

/** The file of `subpath` in the package at `baseDir` under `condition` (`import` or `require`), from its `exports`. */
function exportedFile(baseDir: string, subpath: string, condition: 'import' | 'require'): string {
  const pkg = JSON.parse(readFileSync(path.join(baseDir, 'package.json'), 'utf8')) as { exports?: Record<string, ExportTarget> };
  let target: ExportTarget = pkg.exports?.[subpath];
  while (typeof target === 'object') target = target[condition] ?? target.default;
  if (typeof target !== 'string') throw new Error(`@langchain/core exports no ${subpath} for ${condition}`);
  return path.join(baseDir, target);
}

/**
 * Adds a `WeftTracer` to every run of the copy of `@langchain/core` at `baseDir` (its ESM build when `esm`), once
 * per copy: `registerConfigureHook` and `setContextVariable` are that copy's (an ESM app's runs read the ESM build's
 * hooks; Node.js's `require()` of an ES module returns the instance the app imports, Node.js >= 20.19 / 22.12), the
 * tracer weft's own (`weft-trace/langchain`). Runs inside the app's first import of LangChain, so it holds for the
 * code that follows, as `registerWeftTracer()` at the top of the entry module does; an app that also calls that or
 * passes a `WeftTracer` has it once. Returns `exports` untouched. While weft's own LangChain module is still loading
 * (it imports `@langchain/core`), nothing is done: the next module of {@link LANGCHAIN_MODULES} to load does it.
 * @throws when that copy's context module cannot be loaded (the caller says so once, with the explicit route).
 */
export function addLangChainTracer(exports: unknown, esm: boolean, baseDir: string | undefined): unknown {
  if (baseDir === undefined) return exports;
  const key = `${esm ? 'esm' : 'cjs'}:${baseDir}`;
  if (DONE.has(key)) return exports;
  // while `weft-trace/langchain` itself loads (it imports @langchain/core), its exports are not there yet: the next
  // module of the list to load tries again (`in`, not a read: Node.js warns at a read of a missing name in a cycle)
  const lc = createRequire(import.meta.url)('weft-trace/langchain') as { WeftTracer?: new () => WeftTracer };
  if (!('WeftTracer' in lc) || typeof lc.WeftTracer !== 'function') return exports;
  DONE.add(key);
  const api = createRequire(path.join(baseDir, 'package.json'))(exportedFile(baseDir, './context', esm ? 'import' : 'require')) as LangChainContextApi;
  addToEveryRun(api, new lc.WeftTracer());
  return exports;
}
