// @weft-test: postgres
// The real Weave TypeScript SDK (npm `weave`) against a real `weft serve` child process, configured as a weave user
// would (WANDB_API_KEY, WANDB_BASE_URL, WF_TRACE_SERVER_URL, weave.init('entity/project')): a program using nested
// async ops, Promise.all, a sync op, a throwing op, a streamed op, withAttributes, invoke + setDisplayName,
// addScore, publish of an object, an op and a Dataset, read back by weave itself, by weft's Client, and the reverse
// (weave's getCalls reading a weft-traced program).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'weft-trace';
import { listRuns, loadRun } from 'weft-trace/eval';
import { killGroup, spawnCli, spawnTracked } from 'weft-test-kit/child-processes.js';
import { type FreshDatabase, freshPgDatabase } from 'weft-test-kit/pg.js';
import { testStore } from 'weft-test-kit/test-store.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
type Json = Record<string, unknown>;

let dir: string;
let serve: ChildProcess;
let url: string;
let database: FreshDatabase | undefined;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'weft-weave-'));
  // in the postgres project the child server gets a fresh PostgreSQL database of the test cluster
  if (testStore() === 'postgres') database = await freshPgDatabase('weave');
  serve = spawnCli(['serve', '--port', '0', '--db', database?.url ?? path.join(dir, 'weft.db')], { stdio: ['ignore', 'pipe', 'pipe'] });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    serve.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    serve.once('exit', (code) => reject(new Error(`weft serve exited with ${code}: ${out}`)));
  });
});

afterAll(async () => {
  if (serve.exitCode === null && serve.signalCode === null) {
    const exited = new Promise((resolve) => serve.once('exit', resolve));
    killGroup(serve, 'SIGTERM');
    await exited;
  }
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a fixture with `node`, in the temp dir (weave may write weaveErrors.log there); resolves with its exit code and output. */
function run(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnTracked(process.execPath, [path.join(FIXTURES, script)], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WANDB_API_KEY: 'any-key', WANDB_BASE_URL: url, WF_TRACE_SERVER_URL: url, WEFT_BASE_URL: url, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => killGroup(child), 60_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

function resultOf(run: { code: number | null; stdout: string; stderr: string }): unknown {
  expect(run.code, `exit code; stderr:\n${run.stderr}`).toBe(0);
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  expect(line, run.stdout).toMatch(/^RESULT [[{]/);
  return JSON.parse(line!.slice('RESULT '.length)) as unknown;
}

const opName = (ref: unknown): string => /\/op\/([^:]+):/.exec(String(ref))?.[1] ?? String(ref);

describe('weave SDK → weft serve', () => {
  const project = 'acme/weave-demo';
  let result: Json;

  beforeAll(async () => {
    result = resultOf(await run('weave-program.cjs', { WEAVE_TEST_PROJECT: project })) as Json;
  }, 90_000);

  it('runs the program to exit 0 and stores every call once, ended and correctly nested (read back by weave itself)', () => {
    expect(result['result']).toEqual({ sums: [11, 12, 13], doubled: 22 });
    expect(result['words']).toEqual(['a', 'b', 'c']);
    const calls = result['calls'] as Json[];
    expect(calls.map((c) => opName(c['op_name'])).sort()).toEqual(['add', 'add', 'add', 'add', 'double', 'fail', 'grade', 'pipeline', 'tokens']);
    expect(new Set(calls.map((c) => c['id'])).size).toBe(calls.length);
    for (const c of calls) expect(c['ended_at'], String(c['op_name'])).not.toBeNull();
    const pipeline = calls.find((c) => opName(c['op_name']) === 'pipeline')!;
    const children = calls.filter((c) => c['parent_id'] === pipeline['id']);
    expect(children.map((c) => opName(c['op_name'])).sort()).toEqual(['add', 'add', 'add', 'double', 'fail']);
    for (const c of children) expect(c['trace_id']).toBe(pipeline['trace_id']);
    expect(pipeline['output']).toEqual({ sums: [11, 12, 13], doubled: 22 });
    expect(calls.find((c) => opName(c['op_name']) === 'fail')!['exception']).toBe('failed: on purpose');
    expect(calls.find((c) => opName(c['op_name']) === 'tokens')!['output']).toEqual(['a', 'b', 'c']);
    expect(calls.filter((c) => c['parent_id'] === null).length).toBe(4);
  });

  it('keeps the name set with setDisplayName after the call ended (call/update), also through getCall()', () => {
    const renamed = (result['calls'] as Json[]).filter((c) => c['display_name'] === 'two plus three');
    expect(renamed).toHaveLength(1);
    expect(result['one']).toEqual({ id: renamed[0]!['id'], display_name: 'two plus three' });
  });

  it("publishes objects and a Dataset (obj/create, table/create) that weave reads back, with the Weave server's digest", () => {
    // digest of {"model": "small", "temperature": 0.5} as the Weave server computes it (Python json.dumps, sort_keys)
    expect(result['configRef']).toBe(`weave:///${project}/object/config:sxNOAUXAYNG96vswXbXlmQbMpd979eELTzStdCyVa6Y`);
    expect(result['loadedRows']).toEqual([{ q: 'a', a: 1 }, { q: 'b', a: 2 }]);
  });

  it("is read by weft's own Client: same calls, attributes from withAttributes, the score as feedback, the Dataset's table", async () => {
    const client = new Client({ baseUrl: url, maxRetries: 0 });
    try {
      const records: Json[] = [];
      for await (const r of client.calls.streamQuery({ project_id: project, include_feedback: true })) records.push(r as Json);
      expect(records.map((r) => r['id']).sort()).toEqual((result['calls'] as Json[]).map((c) => c['id']).sort());
      const pipeline = records.find((r) => opName(r['op_name']) === 'pipeline')!;
      expect((pipeline['attributes'] as Json)['request_id']).toBe('req-1');
      expect((pipeline['attributes'] as Json)['weave']).toMatchObject({ source: 'js-sdk' });
      // weave sends no status_counts: the failed child makes the root descendant_error all the same
      expect((pipeline['summary'] as Json)['status']).toBe('descendant_error');
      const scored = records.find((r) => r['display_name'] === 'two plus three')!;
      expect((scored['summary'] as Json)['feedback']).toEqual([
        expect.objectContaining({ id: result['feedbackId'], feedback_type: 'wandb.runnable.grade', payload: { output: { correct: true } } }),
      ]);
      const objs = (await (await fetch(`${url}/objs/query`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ project_id: project, filter: { base_object_classes: ['Dataset'], latest_only: true } }),
      })).json()) as { objs: Json[] };
      expect(objs.objs.map((o) => o['object_id'])).toEqual(['grammar']);
      const tableDigest = /\/table\/(.+)$/.exec((objs.objs[0]!['val'] as Json)['rows'] as string)![1]!;
      const table = await client.tables.query({ project_id: project, digest: tableDigest });
      expect(table.rows.map((r) => r.val)).toEqual([{ q: 'a', a: 1 }, { q: 'b', a: 2 }]);
    } finally {
      await client.close();
    }
  });
});

describe('a weave SDK Evaluation → weft serve', () => {
  it("is listed and read as weft's own runs are (eval ls / show read the same calls)", async () => {
    const project = 'acme/weave-eval';
    const written = resultOf(await run('weave-evaluation.cjs', { WEAVE_TEST_PROJECT: project })) as Json;
    expect(written['summary']).toMatchObject({ correct: { true_count: 1, true_fraction: 0.5 }, off_by: { mean: 0.5 } });
    const client = new Client({ baseUrl: url, maxRetries: 0 });
    try {
      const runs = await listRuns(client, project);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ sdk: 'weave', dataset: 'sums', scores: { correct: 0.5, off_by: 0.5 } });
      const detail = await loadRun(client, project, runs[0]!.id);
      expect(detail!.rows.map((r) => [r.output, r.scores]).sort()).toEqual([[3, { correct: true, off_by: 0 }], [4, { correct: false, off_by: 1 }]]);
    } finally {
      await client.close();
    }
  }, 90_000);
});

describe('weft SDK → weft serve → weave SDK', () => {
  it("weave's getCalls() reads a weft-traced program: every call, nested, ended, with its exception", async () => {
    const project = 'acme/weft-made';
    const written = resultOf(await run('weft-program.mjs', { WEFT_PROJECT: project })) as Json;
    expect(written['out']).toEqual([2, 3]);
    const calls = resultOf(await run('weave-reader.cjs', { WEAVE_TEST_PROJECT: project })) as Json[];
    expect(calls.map((c) => c['op_name']).sort()).toEqual(['broken', 'leaf', 'leaf', 'root']);
    const root = calls.find((c) => c['op_name'] === 'root')!;
    expect(root['parent_id']).toBeNull();
    expect(root['output']).toEqual([2, 3]);
    for (const c of calls.filter((c) => c !== root)) {
      expect(c['parent_id']).toBe(root['id']);
      expect(c['trace_id']).toBe(root['trace_id']);
    }
    for (const c of calls) expect(c['ended_at']).not.toBeNull();
    expect(calls.find((c) => c['op_name'] === 'broken')!['exception']).toMatchObject({ type: 'TypeError', message: 'no good' });
  }, 90_000);
});
