/**
 * The one process-wide registry, under a versioned `Symbol.for` key, so ESM and CJS copies of weft share state.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { diag } from './diag.js';

/** Major version of the global's shape; copies with another major refuse to share it. */
export const GLOBAL_MAJOR = 0;
const KEY = Symbol.for(`weft.global.v${GLOBAL_MAJOR}`);

/** What the registry holds. `runtime` is typed by its user (instrument/), opaque here. */
export interface WeftGlobal<C = unknown, R = unknown> {
  readonly version: string;
  readonly storage: AsyncLocalStorage<C>;
  runtime: R | undefined;
  /** Settings of the instrumentation (sampling, redaction, ...), typed by instrument/; opaque here. */
  settings: unknown;
  /** The export counters (`getExportStats()`), typed by export/; opaque here. */
  exportStats: unknown;
}

type GlobalHost = typeof globalThis & { [KEY]?: WeftGlobal };

/** Package version written into the global (build-time constant in the bundle). */
export const VERSION = '0.1.0';

/**
 * Returns the shared registry, creating it on first use. A registry written by a copy with another
 * version is still shared when the major matches (it is keyed by major), and reported at debug level.
 */
export function getGlobal<C, R>(): WeftGlobal<C, R> {
  const host = globalThis as GlobalHost;
  let g = host[KEY];
  if (!g) {
    g = Object.seal({ version: VERSION, storage: new AsyncLocalStorage<unknown>(), runtime: undefined, settings: undefined, exportStats: undefined });
    Object.defineProperty(host, KEY, { value: g, enumerable: false, configurable: true, writable: false });
  } else if (g.version !== VERSION) {
    diag.once('global-version', 'debug', `sharing weft's global with version ${g.version} (this copy is ${VERSION})`);
  }
  return g as WeftGlobal<C, R>;
}
