// Loads weft for a benchmark: the tsup build in WEFT_BENCH_DIST (what `npm run bench` sets), else src/ through tsx.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

type WeftModule = typeof import('../../src/index.js');
type ServerModule = typeof import('../../src/server/index.js');
type OtelModule = typeof import('../../src/otel/index.js');

const dist = process.env.WEFT_BENCH_DIST;

/** Which code the figures are of (WEFT_BENCH_LABEL names the build, e.g. `tsup build of 8eea656`). */
export const CODE_UNDER_TEST = dist ? (process.env.WEFT_BENCH_LABEL ?? `tsup build in ${dist}`) : 'src/ of the working tree through tsx';

function load<T>(distEntry: string, srcEntry: string): Promise<T> {
  const url = dist ? pathToFileURL(`${dist.replace(/\/?$/, '/')}${distEntry}`).href : new URL(srcEntry, import.meta.url).href;
  return import(url) as Promise<T>;
}

/** The public API (`weft`). */
export const weft: WeftModule = await load<WeftModule>('index.js', '../../src/index.ts');
/** The local server (`weft-trace/server`). */
export const weftServer: ServerModule = await load<ServerModule>('server/index.js', '../../src/server/index.ts');
/** The OTel bridge (`weft-trace/otel`); `undefined` in a build of a commit before it existed. */
export const weftOtel: OtelModule | undefined = dist && !existsSync(`${dist.replace(/\/?$/, '/')}otel/index.js`)
  ? undefined
  : await load<OtelModule>('otel/index.js', '../../src/otel/index.ts');
