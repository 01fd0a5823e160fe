/**
 * import-in-the-middle's loader, registered once per process with only the hooked modules intercepted, and one hook
 * per instrumented library.
 * @module
 */
import module from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Instrumentation } from './instrumentations.js';

type Iitm = typeof import('import-in-the-middle');
/** Called with each loaded copy of one of `entry`'s modules (an ESM namespace). */
export type OnImport = (entry: Instrumentation, exports: unknown, baseDir: string | undefined) => void;

interface LoaderState {
  /** Acknowledges the module names sent to the loader thread. */
  wait: () => Promise<void>;
}
const KEY = Symbol.for('weft.importLoader');

/** The loader of this process: registered by the first call (the one registered by another copy of weft when there is one). */
function loader(iitm: Iitm, hookUrl: string): LoaderState {
  const g = globalThis as Record<symbol, LoaderState | undefined>;
  const known = g[KEY];
  if (known) return known;
  const { registerOptions, waitForAllMessagesAcknowledged } = iitm.createAddHookMessageChannel();
  module.register(hookUrl, undefined, registerOptions);
  const state = { wait: waitForAllMessagesAcknowledged };
  g[KEY] = state;
  return state;
}

/**
 * Hooks `entries`' modules when imported; resolves once the loader thread has their names (an import before that is
 * not seen). Rejects where `module.register` is missing (Node.js before 20.6, Deno, Bun).
 */
export async function registerImportHooks(req: NodeJS.Require, entries: readonly Instrumentation[], onImport: OnImport): Promise<void> {
  if (typeof module.register !== 'function') throw new Error('module.register is not available in this runtime');
  const iitm = req('import-in-the-middle') as Iitm;
  const { wait } = loader(iitm, pathToFileURL(req.resolve('import-in-the-middle/hook.mjs')).href);
  for (const entry of entries) {
    // import-in-the-middle assigns a hook's returned value to the module's default export: return nothing
    // eslint-disable-next-line no-new
    new iitm.Hook([...entry.modules], (exports, _name, baseDir) => {
      onImport(entry, exports, baseDir ?? undefined);
    });
  }
  await wait();
}
