/**
 * The one process-wide registry, under a versioned `Symbol.for` key, so ESM and CJS copies of weft share state.
 * @module
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import { diag } from './diag.js';
import { newLocalStorage } from './local-storage.js';

/** Major version of the global's shape; copies with another major refuse to share it. */
export const GLOBAL_MAJOR = 0;
const KEY = Symbol.for(`weft.global.v${GLOBAL_MAJOR}`);

/**
 * What the registry holds, one slot per piece of shared state, each read and written only by the module
 * that owns it. The slot names are part of the shared shape (the object is sealed): renaming one needs a
 * new {@link GLOBAL_MAJOR}. The registry sits below the modules that own its slots, so it types their
 * contents `unknown`: each owner narrows the registry to its own slot's type once, as it loads (an `as`,
 * erased by the compiler), e.g. `getGlobal() as { runtime: CallSink | null | undefined }`.
 */
export interface WeftGlobal {
  readonly version: string;
  /** The context of the running code: a `TraceContext` (instrument/context.ts). */
  readonly storage: AsyncLocalStorage<unknown>;
  /** The active call sink, a `CallSink` (instrument/sink.ts): `undefined` before `init()`, `null` when `init()` disabled tracing. */
  runtime: unknown;
  /** Settings of the instrumentation, `TraceSettings`: sampling, redaction, ... (instrument/trace-settings.ts); `undefined` before `init()`. */
  settings: unknown;
  /**
   * The export counters behind `getExportStats()`, `ExportStats`: an object made by the first copy that loads them
   * (export/stats-slot.ts), whose fields export-stats.ts, sampling-stats.ts (`sampling`) and file-stats.ts (`files`) fill.
   */
  exportStats: unknown;
}

type GlobalHost = typeof globalThis & { [KEY]?: WeftGlobal };

/** This copy's package version, written into the global; kept by hand, and test/internal/global.test.ts checks it equals package.json's. */
export const VERSION = '0.1.0';

/**
 * Returns the shared registry, creating it on first use. A registry written by a copy with another
 * version is still shared when the major matches (it is keyed by major), and reported at debug level.
 */
export function getGlobal(): WeftGlobal {
  const host = globalThis as GlobalHost;
  let g = host[KEY];
  if (!g) {
    g = Object.seal<WeftGlobal>({ version: VERSION, storage: newLocalStorage<unknown>(), runtime: undefined, settings: undefined, exportStats: undefined });
    Object.defineProperty(host, KEY, { value: g, enumerable: false, configurable: true, writable: false });
  } else if (g.version !== VERSION) {
    diag.once('global-version', 'debug', `sharing weft's global with version ${g.version} (this copy is ${VERSION})`);
  }
  return g;
}
