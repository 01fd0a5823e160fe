// Loads weft for a benchmark: the tsup build in WEFT_BENCH_DIST (what `npm run bench` sets), else src/ through tsx.
import { existsSync } from 'node:fs';
import { dist, load } from './weft-server.js';

export { weftServer } from './weft-server.js';

type WeftModule = typeof import('../../packages/weft-trace/src/index.js');
type OtelModule = typeof import('../../packages/weft-trace/src/otel/index.js');

/** Which code the figures are of (WEFT_BENCH_LABEL names the build, e.g. `tsup build of 8eea656`). */
export const CODE_UNDER_TEST = dist ? (process.env.WEFT_BENCH_LABEL ?? `tsup build in ${dist}`) : 'src/ of the working tree through tsx';

/** The public API (`weft`). */
export const weft: WeftModule = await load<WeftModule>('index.js', '../../packages/weft-trace/src/index.ts');
/** The OTel bridge (`weft-trace/otel`); `undefined` in a build of a commit before it existed. */
export const weftOtel: OtelModule | undefined = dist && !existsSync(`${dist.replace(/\/?$/, '/')}otel/index.js`)
  ? undefined
  : await load<OtelModule>('otel/index.js', '../../packages/weft-trace/src/otel/index.ts');
