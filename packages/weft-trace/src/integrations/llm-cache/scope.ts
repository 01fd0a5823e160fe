/**
 * Where recorded model calls belong: the running test file (vitest's, read from its `expect`) and whether a `weft-trace/vitest` eval runs in it.
 * @module
 */

/** Shared by every copy of weft loaded in the process (ESM and CJS builds, the vitest subpath). */
interface ScopeState {
  /** Test files in which describeEval ran (collected). */
  evalFiles: Set<string>;
  /** The test file describeEval last saw, for runners whose `expect` says none. */
  lastFile: string | undefined;
}

const KEY = Symbol.for('weft.llmCache.scope.v1');

function state(): ScopeState {
  const g = globalThis as { [KEY]?: ScopeState };
  return (g[KEY] ??= { evalFiles: new Set(), lastFile: undefined });
}

/** vitest's (and Jest's) global `expect`, whose state names the running test file. */
type ExpectGlobal = { getState?: () => { testPath?: unknown } };

/** The running test file's absolute path (vitest's `expect.getState().testPath`), or `undefined` outside a test runner. */
export function currentTestFile(): string | undefined {
  try {
    const e = (globalThis as Record<symbol, ExpectGlobal | undefined>)[Symbol.for('expect-global')];
    const path = e?.getState?.().testPath;
    if (typeof path === 'string' && path !== '') return path;
  } catch {
    // a runner whose expect state cannot be read: fall back
  }
  return state().lastFile;
}

/** Called by describeEval while the file collects: model requests of this file may replay in CI. */
export function enterEvalFile(testFile: string | undefined): void {
  const s = state();
  const file = testFile ?? currentTestFile() ?? '';
  s.evalFiles.add(file);
  if (testFile !== undefined) s.lastFile = testFile;
}

/** Whether describeEval ran in the running test file (or, when the file is unknown, anywhere in this process). */
export function inEvalFile(): boolean {
  const s = state();
  if (s.evalFiles.size === 0) return false;
  const file = currentTestFile();
  return file === undefined || s.evalFiles.has(file) || s.evalFiles.has('');
}
