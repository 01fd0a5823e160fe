// Loads weft's server module for a benchmark (the tsup build in WEFT_BENCH_DIST, else src/ through tsx) without the SDK, whose build of an old commit may not load in Node.
import { pathToFileURL } from 'node:url';

type ServerModule = typeof import('../../packages/weft-server/src/server/index.js');

/** The tsup build under test (`npm run bench` sets it), or undefined for src/ through tsx. */
export const dist = process.env.WEFT_BENCH_DIST;

/** Imports an entry of the build (`distEntry`, e.g. `server/index.js`), else the source file `srcEntry` (relative to this folder). */
export function load<T>(distEntry: string, srcEntry: string): Promise<T> {
  const url = dist ? pathToFileURL(`${dist.replace(/\/?$/, '/')}${distEntry}`).href : new URL(srcEntry, import.meta.url).href;
  return import(url) as Promise<T>;
}

/** The local server (`weft-trace/server`). */
export const weftServer: ServerModule = await load<ServerModule>('server/index.js', '../../packages/weft-server/src/server/index.ts');
