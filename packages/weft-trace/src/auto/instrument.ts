/**
 * instrument(): hooks the supported libraries as they load (require-in-the-middle for `require`, import-in-the-middle
 * for `import`), so every client the app makes is traced as the explicit wrappers trace it. The hooking libraries are
 * loaded here, on the first call, never by `weft-trace` itself.
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import { INSTRUMENTATIONS, type Instrumentation } from './instrumentations.js';
import { registerImportHooks } from './import-hooks.js';
import { sayUnhookable } from './unhookable.js';
import { inRange } from './version-range.js';

/** Options of {@link instrument}. */
export interface InstrumentOptions {
  /** Only these libraries (package names, e.g. `['openai', 'ai']`). @defaultValue every supported library */
  only?: readonly string[];
  /** Every supported library but these (package names). @defaultValue none */
  except?: readonly string[];
}

/** The package names `instrument()` knows, in the order of the table. */
export const INSTRUMENTED_LIBRARIES: readonly string[] = INSTRUMENTATIONS.map((i) => i.name);

/** The libraries hooked in this process, shared by every copy of weft (ESM and CommonJS). */
const HOOKED: Set<string> = ((globalThis as Record<symbol, Set<string> | undefined>)[Symbol.for('weft.instrumented')] ??= new Set<string>());

function chosen(options: InstrumentOptions): Instrumentation[] {
  for (const name of [...(options.only ?? []), ...(options.except ?? [])]) {
    if (!INSTRUMENTED_LIBRARIES.includes(name)) throw new ConfigError(`instrument: unknown library ${JSON.stringify(name)}; expected one of ${INSTRUMENTED_LIBRARIES.join(', ')}`);
  }
  return INSTRUMENTATIONS.filter((i) => (options.only === undefined || options.only.includes(i.name)) && !(options.except ?? []).includes(i.name));
}

/** The installed version of the package at `baseDir`, when its package.json says. */
function versionAt(baseDir: string | undefined): string | undefined {
  if (!baseDir) return undefined;
  try {
    return (JSON.parse(readFileSync(path.join(baseDir, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** Patches one loaded copy of a module; the exports are handed back untouched when its version is not covered or the patch fails. */
export function patchLoaded(entry: Instrumentation, exports: unknown, baseDir: string | undefined, esm: boolean): unknown {
  try {
    const version = versionAt(baseDir);
    if (version !== undefined && !inRange(version, entry.versions)) {
      diag.once(`instrument-version:${entry.name}`, 'warn', `${entry.name} ${version} is outside the versions weft instruments (${entry.versions}); it is not traced: use ${entry.wrapper}`);
      return exports;
    }
    return entry.patch(exports, esm, baseDir);
  } catch (err) {
    diag.once(`instrument-failed:${entry.name}`, 'warn', `instrumenting ${entry.name} failed (${safeMessage(err)}); it is not traced: use ${entry.wrapper}`);
    return exports;
  }
}

/** What installs the hooking libraries (optional peers: the SDK's install stays under 10 MB without them, docs/packaging.md). */
const INSTALL_HOOKS = 'npm install import-in-the-middle require-in-the-middle';

/** Whether `err` is require()'s not-found of one of the hooking libraries. */
function hookLibraryMissing(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  return e?.code === 'MODULE_NOT_FOUND' && /(import|require)-in-the-middle/.test(String(e.message));
}

/**
 * Instruments every supported library the app loads from now on (openai, @anthropic-ai/sdk, ai, @google/genai,
 * @langchain/core (LangChain and LangGraph runs, as `registerWeftTracer()` traces them), @openai/agents,
 * @modelcontextprotocol/sdk, @anthropic-ai/claude-agent-sdk, @aws-sdk/client-bedrock-runtime; `only` /
 * `except` choose; the hooking libraries import-in-the-middle and require-in-the-middle are optional peers to install), as `node --import weft-trace/register` does
 * (that route also calls `init()` from the environment): each client made later is the explicit wrapper's
 * (`wrapOpenAI(new OpenAI())`), so the calls and their tree are the same, and wrapping one by hand too records each
 * request once. A `require()` is hooked at once; an `import` once the returned promise resolves (the loader thread
 * has the list), so `await instrument()` before a dynamic `import()` of the library. A library loaded before this call,
 * or bundled into the app (not loaded from node_modules), cannot be hooked: that is said once, with the wrapper to
 * use. Calling it again adds libraries, never hooks one twice.
 * @returns a promise of the libraries hooked in this process; never rejects.
 * @throws {ConfigError} when `only` or `except` names a library weft does not instrument.
 * @example
 * import { init, instrument } from 'weft-trace';
 * init({ project: 'acme/app' });
 * await instrument({ except: ['ai'] });
 * const { default: OpenAI } = await import('openai'); // traced
 * @see https://github.com/nodejs/require-in-the-middle and https://github.com/nodejs/import-in-the-middle
 */
export function instrument(options: InstrumentOptions = {}): Promise<readonly string[]> {
  const entries = chosen(options).filter((i) => !HOOKED.has(i.name));
  if (entries.length === 0) return Promise.resolve([...HOOKED]);
  try {
    const req = createRequire(import.meta.url);
    const ritm = req('require-in-the-middle') as typeof import('require-in-the-middle');
    for (const entry of entries) {
      HOOKED.add(entry.name);
      // eslint-disable-next-line no-new
      new ritm.Hook([...entry.modules], (exports, _name, baseDir) => patchLoaded(entry, exports, baseDir, false) as typeof exports);
    }
    sayUnhookable(entries, import.meta.url);
    return registerImportHooks(req, entries, (entry, exports, baseDir) => void patchLoaded(entry, exports, baseDir, true)).then(
      () => [...HOOKED],
      (err: unknown) => {
        diag.warn(`instrument: import hooks unavailable (${safeMessage(err)}); libraries loaded by import are not traced`);
        return [...HOOKED];
      },
    );
  } catch (err) {
    if (hookLibraryMissing(err)) diag.warn(`instrument: the no-code route needs the hooking libraries, optional peers of weft-trace: ${INSTALL_HOOKS} (or use the explicit wrappers)`);
    else diag.warn(`instrument: hooks unavailable (${safeMessage(err)}); use the explicit wrappers`);
    return Promise.resolve([...HOOKED]);
  }
}
