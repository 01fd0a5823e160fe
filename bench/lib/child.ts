// Runs a TypeScript benchmark script in a child process (tsx loader, same env) and hands back what it reports over IPC.
import { fork, type ChildProcess } from 'node:child_process';

/** Forks `script` (a .ts file URL) with the tsx loader, IPC, and this process's stdout/stderr; `env` adds to this process's. */
export function forkTs(script: URL, args: readonly string[] = [], execArgv: readonly string[] = [], env?: Record<string, string>): ChildProcess {
  return fork(script, [...args], { execArgv: ['--import', 'tsx', ...execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], ...(env ? { env: { ...process.env, ...env } } : {}) });
}

/** Runs `script` to the end; resolves with the last message it sent, rejects when it exits non-zero or sent none. */
export function runTs<T>(script: URL, args: readonly string[] = [], execArgv: readonly string[] = [], env?: Record<string, string>): Promise<T> {
  const child = forkTs(script, args, execArgv, env);
  let result: { value: T } | undefined;
  child.on('message', (msg) => {
    result = { value: msg as T };
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0 && result) resolve(result.value);
      else reject(new Error(`${script.pathname} ${args.join(' ')} exited with code ${code}${result ? '' : ' and no result'}`));
    });
  });
}

/** Sends the result to the parent (when run by {@link runTs}) and lets the process end. */
export function report(value: unknown): void {
  process.send?.(value);
}
