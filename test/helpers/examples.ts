// Test helper: run an example program as a child process (with no WEFT_BASE_URL, so it starts its own server).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

/** Runs `tsx <file>` from the repository root; resolves with its exit code and output (timeout 60 s). */
export function runExample(file: string, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env['WEFT_BASE_URL'];
  return new Promise((resolve) => {
    execFile(TSX, [file, ...args], { cwd: ROOT, env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }));
  });
}
