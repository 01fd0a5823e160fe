/**
 * `node -r weft-trace/register app.cjs`: the no-code start (CommonJS build, which `require` loads). `init()` from the
 * environment, then every supported library instrumented; `require()` is hooked at once, `import()` shortly after.
 *
 * Node runs `-r` preloads in the module loader's own thread too (the one `module.register` starts for
 * import-in-the-middle), and the main thread waits until that thread is ready. So this file loads nothing but
 * `node:worker_threads` there, and the SDK (the `auto-start` entry beside it, kept out of this bundle by
 * tsup.config.ts) only on the main thread: loading it in the loader's thread too cost every start about 0.2 s of CPU.
 * @module
 */
import { isMainThread } from 'node:worker_threads';

type AutoStart = typeof import('./auto/start-from-env.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- dist/auto-start.cjs, loaded only on the main thread
if (isMainThread) void (require('./auto-start.cjs') as AutoStart).startFromEnv();
