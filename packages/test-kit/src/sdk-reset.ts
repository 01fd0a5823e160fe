/**
 * Vitest setup file of the projects whose files share their worker's modules (isolate: false): after each file, the
 * SDK's process-wide state goes back to a process's start, so the next file in the worker begins as it would in a
 * process of its own: the sink `init()` made is shut down (what is still queued gets `timeoutMs` to go) and
 * dropped, the trace settings return to their defaults, and `process.env` to what it was before the file.
 * A file whose subject is the state before any `init()` (the first-call warnings, the exit hooks) is tagged
 * `isolated` (its first line `// @weft-test: isolated (why)`: vitest.config.ts).
 * @module
 */
import { afterAll } from 'vitest';
import { shutdown } from 'weft-trace';
import { getGlobal } from 'weft-trace/src/internal/global.js';

const envBefore = { ...process.env };

afterAll(async () => {
  await shutdown({ timeoutMs: 2_000 });
  const global = getGlobal();
  global.runtime = undefined;
  global.settings = undefined;
  for (const key of Object.keys(process.env)) if (!(key in envBefore)) delete process.env[key];
  Object.assign(process.env, envBefore);
});
