// Test helper: run an example program as a child process, `node <the example bundled>` (one process: no npx, no tsx
// CLI wrapper or loader, each of which costs a second of CPU; ts-bundle.ts), by default with no WEFT_BASE_URL, so it
// starts its own server.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundled } from './ts-bundle.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** How a program ended: its exit code (`null` when killed) and its output. */
export interface ExampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `file` (a path from the repository root, bundled once per test process) with `args`, from the root; resolves
 * with its exit code and output (timeout 60 s), never rejects.
 * @param env - variables to set (a value `undefined` removes one); WEFT_BASE_URL is removed unless given.
 */
export async function runExample(file: string, args: string[] = [], env: Record<string, string | undefined> = {}): Promise<ExampleRun> {
  let script: string;
  try {
    script = await bundled(file);
  } catch (err) {
    return { code: 1, stdout: '', stderr: `${file} did not compile: ${String(err)}` };
  }
  const merged: NodeJS.ProcessEnv = { ...process.env, WEFT_BASE_URL: undefined, ...env };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { cwd: ROOT, env: merged, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }));
  });
}

/** Like {@link runExample}, resolving with its stdout; rejects, with its stderr, when it exits non-zero. */
export async function runExampleOk(file: string, args: string[] = [], env: Record<string, string | undefined> = {}): Promise<string> {
  const run = await runExample(file, args, env);
  if (run.code !== 0) throw new Error(`${file} exited with ${run.code}:\n${run.stderr}`);
  return run.stdout;
}
