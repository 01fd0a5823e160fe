/**
 * The one process-wide registry, under a versioned `Symbol.for` key, so ESM and CJS copies of weft share state.
 * @module
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import type { ExportStats } from '../export/export-stats.js';
import type { TraceContext } from '../instrument/context.js';
import type { CallSink } from '../instrument/sink.js';
import type { TraceSettings } from '../instrument/trace-settings.js';
import { diag } from './diag.js';
import { newLocalStorage } from './local-storage.js';

/** Major version of the global's shape; copies with another major refuse to share it. */
export const GLOBAL_MAJOR = 0;
const KEY = Symbol.for(`weft.global.v${GLOBAL_MAJOR}`);

/**
 * What the registry holds, one slot per piece of shared state, each read and written only by the module
 * that owns it. The slot names are part of the shared shape (the object is sealed): renaming one needs a
 * new {@link GLOBAL_MAJOR}.
 */
export interface WeftGlobal {
  readonly version: string;
  /** The context of the running code (instrument/context.ts). */
  readonly storage: AsyncLocalStorage<TraceContext>;
  /** The active call sink (instrument/sink.ts): `undefined` before `init()`, `null` when `init()` disabled tracing. */
  runtime: CallSink | null | undefined;
  /** Settings of the instrumentation: sampling, redaction, ... (instrument/trace-settings.ts); `undefined` before `init()`. */
  settings: TraceSettings | undefined;
  /** The export counters behind `getExportStats()` (export/), made by the first copy that loads them. */
  exportStats: ExportStats | undefined;
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
    g = Object.seal<WeftGlobal>({ version: VERSION, storage: newLocalStorage<TraceContext>(), runtime: undefined, settings: undefined, exportStats: undefined });
    Object.defineProperty(host, KEY, { value: g, enumerable: false, configurable: true, writable: false });
  } else if (g.version !== VERSION) {
    diag.once('global-version', 'debug', `sharing weft's global with version ${g.version} (this copy is ${VERSION})`);
  }
  return g;
}
