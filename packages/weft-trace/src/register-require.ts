/**
 * `node -r weft-trace/register app.cjs`: the no-code start (CommonJS build, which `require` loads). `init()` from the
 * environment, then every supported library instrumented; `require()` is hooked at once, `import()` shortly after.
 * @module
 */
import { startFromEnv } from './auto/start-from-env.js';

void startFromEnv();
