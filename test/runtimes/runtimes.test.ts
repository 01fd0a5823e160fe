// The SDK on other runtimes, each with its binary from its npm package (devDependencies bun, deno, workerd):
// the shared program (fixtures/traced.mjs: a nested op tree with Promise.all, wrapOpenAI against the loopback fake
// API, addFeedback, flush) runs on Bun, Deno and Cloudflare Workers (workerd with nodejs_compat, run directly
// from a generated capnp config: wrangler and miniflare need Node.js >= 22) and sends to a real weft server on
// loopback; the tree is read back from the server. A runtime is skipped only when its binary did not install.
import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { expect, it } from 'vitest';
import { readCalls, uniqueProject } from '../helpers/calls.js';
import { killGroup, spawnTracked } from '../helpers/child-processes.js';
import { useFakeLlm } from '../helpers/fake-llm.js';
import { useTestServer } from '../helpers/server.js';
import type { CallRecord } from '../../src/schema/calls.js';

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

/** Asserts the program's tree as the server stored it: every parent kept, the OpenAI call under `ask`, the feedback on the root. */
async function expectTree(project: string, rootId: string, runtime: string): Promise<void> {
  const calls = await readCalls(server().url, project, { include_feedback: true });
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
    await build({
      entryPoints: [path.join(FIXTURES, 'worker.mjs')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['workerd', 'worker', 'browser'],
      external: ['node:*', 'undici'],
      keepNames: true,
      outfile: path.join(dir, 'worker.js'),
      logLevel: 'error',
    });
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
