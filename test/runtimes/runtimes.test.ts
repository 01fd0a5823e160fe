// The SDK on other runtimes, each with its binary from its npm package (devDependencies bun, deno, workerd):
// the shared program (fixtures/traced.mjs: a nested op tree with Promise.all, wrapOpenAI against the loopback fake
// API, addFeedback, flush) runs on Bun, Deno, Cloudflare Workers (workerd with nodejs_compat, run directly from a
// generated capnp config: wrangler and miniflare need Node.js >= 22) and Vercel Edge (edge-runtime, in this
// process) and sends to a real weft server on loopback; the tree is read back from the server. A runtime is skipped
// only when its binary did not install.
import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build, type BuildOptions } from 'esbuild';
import { AsyncLocalStorage } from 'node:async_hooks';
import { EdgeRuntime, runServer } from 'edge-runtime';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { killGroup, spawnTracked } from 'weft-test-kit/child-processes.js';
import { useFakeLlm } from 'weft-test-kit/fake-llm.js';
import { useTestServer } from 'weft-test-kit/server.js';
import type { CallRecord } from 'weft-trace';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const server = useTestServer();
const llm = useFakeLlm();

/** The first of `candidates` (relative to node_modules) that is an executable file, or the reason there is none. */
function binary(name: string, candidates: string[]): { bin?: string; reason?: string } {
  for (const c of candidates) {
    const file = path.join(ROOT, 'node_modules', c);
    try {
      accessSync(file, constants.X_OK);
      return { bin: file };
    } catch {
      // next
    }
  }
  const reason = `${name}: no binary at node_modules/{${candidates.join(',')}} (did its npm package install?); skipped`;
  console.warn(reason);
  return { reason };
}

const bun = binary('bun', ['bun/bin/bun.exe', '@oven/bun-linux-x64/bin/bun', '@oven/bun-linux-x64-baseline/bin/bun']);
const deno = binary('deno', ['@deno/linux-x64-glibc/deno']);
const workerd = binary('workerd', ['@cloudflare/workerd-linux-64/bin/workerd']);

/**
 * Asserts the program's tree as the server stored it: every parent kept, the OpenAI call under `ask`, the feedback
 * on the root. `afterAwaitLost`: the runtime has no AsyncLocalStorage, so `tool` (started after an `await` in
 * `step`) and `ask` (after the `await Promise.all` in `plan`) are roots of their own traces.
 */
async function expectTree(project: string, rootId: string, runtime: string, afterAwaitLost = false): Promise<void> {
  const calls = await readCalls(server().url, project, { include_feedback: true });
  if (afterAwaitLost) return expectSyncOnlyTree(calls, rootId);
  const byId = new Map(calls.map((c) => [c.id, c]));
  const parentOf = (c: CallRecord) => byId.get(c.parent_id ?? '')?.op_name;
  const named = (name: string) => calls.filter((c) => c.op_name === name);
  const [root] = named('plan');
  expect(root).toMatchObject({ id: rootId, parent_id: null, inputs: { where: runtime } });
  expect(root!.ended_at).toBeTruthy();
  expect(named('step').map(parentOf)).toEqual(['plan', 'plan', 'plan']);
  expect(named('tool').map(parentOf)).toEqual(['step', 'step', 'step']);
  expect(named('tool').map((c) => c.output).sort()).toEqual(['a done', 'b done', 'c done']);
  expect(named('ask').map(parentOf)).toEqual(['plan']);
  const chat = named('openai.chat.completions.create');
  expect(chat.map(parentOf)).toEqual(['ask']);
  expect(chat[0]!.summary?.usage).toBeDefined();
  expect(new Set(calls.map((c) => c.trace_id)).size).toBe(1);
  expect(calls.every((c) => c.ended_at)).toBe(true);
  expect(root!.summary!.feedback!.map((f) => [f.feedback_type, f.payload])).toEqual([['score', { value: 1, runtime }]]);
}

/** The tree without AsyncLocalStorage: parents kept up to the parent's first `await`, and no call lost. */
function expectSyncOnlyTree(calls: CallRecord[], rootId: string): void {
  const byId = new Map(calls.map((c) => [c.id, c]));
  const parentOf = (c: CallRecord) => byId.get(c.parent_id ?? '')?.op_name ?? null;
  const named = (name: string) => calls.filter((c) => c.op_name === name);
  expect(named('plan')[0]).toMatchObject({ id: rootId, parent_id: null });
  expect(named('step').map(parentOf)).toEqual(['plan', 'plan', 'plan']);
  expect(named('tool').map(parentOf)).toEqual([null, null, null]);
  expect(named('ask').map(parentOf)).toEqual([null]);
  expect(named('openai.chat.completions.create').map(parentOf)).toEqual(['ask']);
  expect(calls).toHaveLength(9);
  expect(calls.every((c) => c.ended_at)).toBe(true);
  expect(byId.get(rootId)!.summary!.feedback!.map((f) => f.payload)).toEqual([{ value: 1, runtime: 'edge' }]);
}

/** Runs fixtures/run.mjs with `argv` and checks what it printed and what the server stored. */
async function runProgram(runtime: string, argv: string[]): Promise<void> {
  const project = uniqueProject(runtime);
  const env = { ...process.env, WEFT_BASE_URL: server().url, WEFT_PROJECT: project, OPENAI_URL: llm().openaiURL, NO_COLOR: '1' };
  const { stdout, stderr } = await run(argv[0]!, [...argv.slice(1), path.join(FIXTURES, 'run.mjs'), runtime], { cwd: ROOT, env, timeout: 60_000 });
  const out = JSON.parse(stdout.trim().split('\n').pop()!) as { rootId: string; flushed: { sent: number; dropped: number } };
  expect(stderr).not.toMatch(/\[weft\] (warn|error)/);
  expect(out.flushed).toMatchObject({ sent: 2 * 9 + 1, dropped: 0 }); // a start and an end per call, and the feedback
  await expectTree(project, out.rootId, runtime);
}

it.skipIf(!bun.bin)('Bun: the tree keeps its parents (AsyncLocalStorage) and reaches the server through fetch', async () => {
  await runProgram('bun', [bun.bin!]);
});

it.skipIf(!deno.bin)('Deno: the tree keeps its parents (AsyncLocalStorage) and reaches the server through undici', async () => {
  await runProgram('deno', [deno.bin!, 'run', '--allow-all', '--no-lock', '--quiet']);
});

/** How a platform's bundler builds a function: everything in one file (undici is external: the SDK loads it only on Node.js and Deno). */
const BUNDLE: BuildOptions = { bundle: true, platform: 'browser', keepNames: true, logLevel: 'error', external: ['undici'] };

/** A free loopback port (workerd takes its socket address from the config). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** workerd's config: the bundled worker on 127.0.0.1:`port`, nodejs_compat, outbound allowed to loopback. */
function capnp(port: number): string {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.js") ],
  compatibilityDate = "2026-01-01",
  compatibilityFlags = ["nodejs_compat"],
  globalOutbound = "internet",
);
`;
}

it.skipIf(!workerd.bin)('Cloudflare Workers: the tree keeps its parents (nodejs_compat AsyncLocalStorage), sent by ctx.waitUntil(flush())', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'weft-workerd-'));
  try {
    // as wrangler bundles a worker: esbuild, the worker conditions, node: builtins left to nodejs_compat
    await build({ ...BUNDLE, entryPoints: [path.join(FIXTURES, 'worker.mjs')], format: 'esm', conditions: ['workerd', 'worker', 'browser'], external: ['node:*', 'undici'], outfile: path.join(dir, 'worker.js') });
    const port = await freePort();
    writeFileSync(path.join(dir, 'config.capnp'), capnp(port));
    const child = spawnTracked(workerd.bin!, ['serve', path.join(dir, 'config.capnp')], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout!.on('data', (c: Buffer) => (log += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    try {
      const project = uniqueProject('workers');
      const query = new URLSearchParams({ base: server().url, project, openai: llm().openaiURL });
      const res = await fetchWhenUp(`http://127.0.0.1:${port}/?${query}`, () => log);
      expect(res.status).toBe(200);
      const out = (await res.json()) as { rootId: string };
      // the response goes out before ctx.waitUntil's flush ends: wait for the trace to be stored
      await until(async () => (await readCalls(server().url, project)).filter((c) => c.ended_at).length === 9, () => log);
      await expectTree(project, out.rootId, 'workers');
      expect(log).not.toMatch(/\[weft\] (warn|error)/);
    } finally {
      killGroup(child);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** GETs `url` once workerd listens (connection refused until then), within 20 s. */
async function fetchWhenUp(url: string, log: () => string): Promise<Response> {
  let res: Response | undefined;
  await until(async () => {
    res = await fetch(url).catch(() => undefined);
    return res !== undefined;
  }, log);
  return res!;
}

/** Polls `check` (every 20 ms, within 20 s); fails with the runtime's log. */
async function until(check: () => Promise<boolean>, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out; runtime log:\n${log()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('Vercel Edge (edge-runtime: no process, Buffer or node: modules; process.env as Vercel defines it)', () => {
  let code: string;
  beforeAll(async () => {
    const out = await build({ ...BUNDLE, entryPoints: [path.join(FIXTURES, 'edge.mjs')], format: 'iife', conditions: ['edge-light', 'worker', 'browser'], write: false });
    code = out.outputFiles[0]!.text;
    // for the browser platform esbuild fails on any `node:` import it meets; and no require() was left to the runtime
    expect(code).not.toMatch(/__require\(["']/);
  });

  /** Serves the bundled function from an edge-runtime with `globals` added, requests it, and waits for its waitUntil(flush()). */
  async function serveEdge(globals: Record<string, unknown>, spoolDir?: string): Promise<{ project: string; rootId: string; warnings: string[] }> {
    const runtime = new EdgeRuntime({ initialCode: code, extend: (context) => Object.assign(context, { process: { env: {} } }, globals) });
    const warnings: string[] = [];
    const consoleError = runtime.context.console.error; // where weft's diagnostics go
    runtime.context.console.error = (...args: unknown[]) => warnings.push(args.join(' '));
    const edge = await runServer({ runtime, port: 0, host: '127.0.0.1' });
    try {
      const project = uniqueProject('edge');
      const query = new URLSearchParams({ base: server().url, project, openai: llm().openaiURL, ...(spoolDir ? { spool: spoolDir } : {}) });
      const res = await fetch(`${edge.url}?${query}`);
      expect(res.status).toBe(200);
      const { rootId } = (await res.json()) as { rootId: string };
      await edge.waitUntil();
      return { project, rootId, warnings };
    } finally {
      runtime.context.console.error = consoleError;
      await edge.close();
    }
  }

  it('without AsyncLocalStorage: parents kept up to the first await, every call and the feedback sent by event.waitUntil(flush()); no spool (each said once)', async () => {
    const { project, rootId, warnings } = await serveEdge({}, '/tmp/weft-edge-spool');
    expect(warnings.filter((w) => w.includes('no AsyncLocalStorage'))).toHaveLength(1);
    expect(warnings.filter((w) => w.includes('has no file system (node:fs): the disk spool is off'))).toHaveLength(1);
    expect(warnings).toHaveLength(2);
    await expectTree(project, rootId, 'edge', true);
  });

  it('with the global AsyncLocalStorage of Next.js\'s Edge sandbox: the whole tree keeps its parents', async () => {
    const { project, rootId, warnings } = await serveEdge({ AsyncLocalStorage });
    expect(warnings).toEqual([]);
    await expectTree(project, rootId, 'edge');
  });
});
