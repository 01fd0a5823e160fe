/**
 * `node --import weft-trace/register app.mjs`: the no-code start (ESM build). `init()` from the environment, then
 * every supported library instrumented; the app's static imports wait until the loader has the hooked modules.
 * @module
 */
import { startFromEnv } from './auto/start-from-env.js';

await startFromEnv();
