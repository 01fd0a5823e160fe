// The data commands of the built CLI (`weft calls ls/show/export/import/tail`, `weft feedback stats`)
// against real servers over HTTP: output piped and on a pseudo-terminal, --json, exit codes, and an
// export imported into a second server reading back identical records.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFeedback, op } from 'weft-trace';
import type { CallRecord } from 'weft-trace';
import type { RunningServer } from '../../src/server/index.js';
import { BUILT_CLI, killGroup, spawnCli, spawnTracked } from 'weft-test-kit/child-processes.js';
import { readCalls } from 'weft-test-kit/calls.js';
import { startTestServer } from 'weft-test-kit/server.js';
import { traced } from 'weft-test-kit/traced-calls.js';

interface Run { code: number | null; stdout: string; stderr: string }

const ANSI = /\x1b\[[0-9;]*m/;

function collect(child: ChildProcess): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** Runs the built CLI to its end, piped; `env` is added to this process's (NO_COLOR unset). */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const { NO_COLOR: _, ...rest } = process.env;
  return collect(spawnCli(args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...rest, ...env } }));
}

/** Runs the built CLI on a pseudo-terminal (util-linux `script`): stdout and stderr are a TTY, merged. */
function tty(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const { NO_COLOR: _, ...rest } = process.env;
  const command = [process.execPath, BUILT_CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return collect(spawnTracked('script', ['-qec', command, '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...rest, TERM: 'xterm', COLUMNS: '160', ...env } }));
}

let source: RunningServer;
let target: RunningServer;
let project: string;
let dir: string;
let calls: CallRecord[];

beforeAll(async () => {
  source = await startTestServer();
  target = await startTestServer();
  dir = mkdtempSync(path.join(tmpdir(), 'weft-cli-calls-'));
  const retrieve = op(async function retrieve(q: string) { return [`doc about ${q}`]; });
  const answer = op(async function answer(q: string) {
    const docs = await retrieve(q);
    return { text: `${docs.length} docs`, usage: { 'gpt-4o': { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150, requests: 1 } } };
  }, { summarize: (out) => ({ usage: out.usage }) });
  const broken = op(async function broken() { throw new TypeError('index out of range'); });
  const agent = op(async function agent(q: string) {
    const a = await answer(q);
    await broken().catch(() => undefined);
    addFeedback({ feedbackType: 'rating', payload: { score: 4 } });
    return a.text;
  });
  calls = await traced(source, 'cli-calls', async () => {
    for (const q of ['tides', 'moons', 'comets']) await agent(q);
  });
  project = calls[0]!.project_id;
}, 60_000);

afterAll(async () => {
  await source?.close();
  await target?.close();
  rmSync(dir, { recursive: true, force: true });
});

const conn = (server: RunningServer): string[] => ['--base-url', server.url, '--project', project];

describe('weft calls ls', () => {
  it('prints the newest calls as a table, piped without color', async () => {
    const run = await cli(['calls', 'ls', ...conn(source), '--trace-roots']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(ANSI);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/time\s+op\s+status\s+latency\s+tokens\s+cost\s+id/);
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).every((l) => /agent\s+descendant_error/.test(l))).toBe(true);
    // newest first: the last root traced is on the first row
    const roots = calls.filter((c) => !c.parent_id).sort((a, b) => b.started_at.localeCompare(a.started_at));
    expect(lines[1]).toContain(roots[0]!.id);
    expect(lines[1]).toMatch(/150/);
  });

  it('filters by op and status and prints JSON that parses', async () => {
    const [run, retrieves] = await Promise.all([
      cli(['calls', 'ls', ...conn(source), '--status', 'error', '--json']),
      cli(['calls', 'ls', ...conn(source), '--op', 'retrieve', '--json', '-n', '2']),
    ]);
    expect(run.code).toBe(0);
    const records = JSON.parse(run.stdout) as CallRecord[];
    expect(records.map((r) => r.op_name)).toEqual(['broken', 'broken', 'broken']);
    const byOp = JSON.parse(retrieves.stdout) as CallRecord[];
    expect(byOp.map((r) => r.op_name)).toEqual(['retrieve', 'retrieve']);
  });

  it('colors on a terminal, and not with NO_COLOR', async () => {
    const [colored, plain] = await Promise.all([tty(['calls', 'ls', ...conn(source)]), tty(['calls', 'ls', ...conn(source)], { NO_COLOR: '1' })]);
    expect(colored.code).toBe(0);
    expect(colored.stdout).toMatch(ANSI);
    expect(colored.stdout).toContain('descendant_error');
    expect(plain.stdout).toContain('descendant_error');
    expect(plain.stdout).not.toMatch(ANSI);
  });

  it('fails with one line and a documented exit code: 2 for usage, 1 for an unreachable server', async () => {
    const [usage, bad, down, verbose] = await Promise.all([
      cli(['calls', 'ls', '--base-url', source.url]),
      cli(['calls', 'ls', ...conn(source), '--since', 'yesterday-ish']),
      cli(['calls', 'ls', '--base-url', 'http://127.0.0.1:9', '--project', project]),
      cli(['calls', 'ls', '--base-url', 'http://127.0.0.1:9', '--project', project, '--verbose']),
    ]);
    expect(usage.code).toBe(2);
    expect(usage.stderr.trim()).toBe('weft: no project: pass --project entity/project or set WEFT_PROJECT');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--since.*expected a duration/);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^weft: cannot reach the server: .*ECONNREFUSED/);
    expect(down.stderr).not.toMatch(/\n\s+at /);
    expect(verbose.stderr).toMatch(/\n\s+at /);
  });
});

describe('weft calls show', () => {
  it('prints the trace of a call id as a tree with the error', async () => {
    const child = calls.find((c) => c.op_name === 'retrieve')!;
    const [run, missing] = await Promise.all([
      cli(['calls', 'show', child.id], { WEFT_BASE_URL: source.url, WEFT_PROJECT: project }),
      cli(['calls', 'show', 'no-such-id', ...conn(source)]),
    ]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Trace 1\/1 · agent\(q=/);
    expect(lines.slice(1).map((l) => l.replace(/\s+\S+ ms.*$|\s+<1 ms.*$/, '').trimEnd())).toEqual(['✓ agent', '  ✓ answer', '    ✓ retrieve', '  ✗ broken']);
    expect(run.stdout).toContain('error: TypeError: index out of range');
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(`weft: no call or trace no-such-id in project ${project}`);
  });
});

describe('weft calls export and import', () => {
  it('exports every call as JSONL and an import into a second server reads back identical records, twice without duplicates', async () => {
    const file = path.join(dir, 'calls.jsonl');
    const out = await cli(['calls', 'export', ...conn(source), '--out', file]);
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(/exported 12 calls in [\d.]+ s \([\d,]+\/s\) to /);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(calls.length);

    for (let i = 0; i < 2; i++) {
      const run = await cli(['calls', 'import', file, '--base-url', target.url]);
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/imported 12 calls/);
    }
    const strip = (records: CallRecord[]): unknown[] => records.map(({ summary, ...rest }) => ({ ...rest, summary: { ...summary, feedback: undefined } })).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(strip(await readCalls(target.url, project))).toEqual(strip(await readCalls(source.url, project)));
  });

  it('carries each call\'s feedback, ids kept, into another project of another server; an import run twice stores it once', async () => {
    const file = path.join(dir, 'with-feedback.jsonl');
    expect((await cli(['calls', 'export', ...conn(source), '--op', 'agent', '--out', file])).code).toBe(0);
    const moved = `${project}-moved`;
    for (let i = 0; i < 2; i++) {
      const run = await cli(['calls', 'import', file, '--base-url', target.url, '--project', moved]);
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/imported 3 calls .*, with 3 feedback records/);
    }
    type Fb = { id: string; svc_ref: string; feedback_type: string; payload: unknown };
    const feedbackOf = async (server: RunningServer, p: string) => (await readCalls(server.url, p, { include_feedback: true, filter: { op_names: ['agent'] } }))
      .flatMap((c) => ((c.summary?.feedback ?? []) as Fb[]).map((f) => ({ call: c.id, id: f.id, type: f.feedback_type, payload: f.payload, ref: f.svc_ref })));
    const before = await feedbackOf(source, project);
    expect(before).toHaveLength(3);
    expect(await feedbackOf(target, moved)).toEqual(before.map((f) => ({ ...f, ref: `svc:///${moved}/call/${f.call}` })));
  });

  it('shows a bar with count, rate and ETA on a terminal, and to stdout writes only records', async () => {
    const [run, piped] = await Promise.all([tty(['calls', 'export', ...conn(source)]), cli(['calls', 'export', ...conn(source), '--op', 'broken'])]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/exporting \[.*\] 100% \| 12\/12 calls \| [\d,]+\/s \| ETA/);
    expect(piped.stdout.trim().split('\n').map((l) => (JSON.parse(l) as CallRecord).op_name)).toEqual(['broken', 'broken', 'broken']);
  });

  it('names the line of a file that is not JSONL and stores what came before it', async () => {
    const file = path.join(dir, 'bad.jsonl');
    const good = readFileSync(path.join(dir, 'calls.jsonl'), 'utf8').split('\n')[0];
    writeFileSync(file, `${good}\n{not json\n`);
    const run = await cli(['calls', 'import', file, '--base-url', target.url, '--project', 'other/p']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/bad\.jsonl:2: not JSON/);
  });
});

describe('weft calls tail', () => {
  it('shows a call that starts and ends while it runs, then stops on SIGINT', async () => {
    const child = spawnCli(['calls', 'tail', ...conn(source), '--interval', '100', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const done = collect(child);
    let seen = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => (seen += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    try {
      // the calls traced before the tail started are not printed; it says 'tailing' once its look-back window is read
      while (!err.includes('tailing')) await new Promise((r) => setTimeout(r, 20));
      // the call ends only after the tail printed it running (a fixed wait lost the race on a loaded machine)
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const slow = op(async function slow() { await gate; return 'late'; });
      const { init, flush } = await import('weft-trace');
      init({ project, baseUrl: source.url, flushIntervalMs: 20 });
      const pending = slow();
      await flush();
      const seenNew = Date.now() + 10_000;
      while (!/"event":"new"/.test(seen) && Date.now() < seenNew) await new Promise((r) => setTimeout(r, 50));
      release();
      await pending;
      await flush();
      const deadline = Date.now() + 10_000;
      while (!/"event":"ended"/.test(seen) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      child.kill('SIGINT');
      const run = await done;
      expect(run.code).toBe(0);
      const events = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { event: string; call: CallRecord });
      expect(events.map((e) => [e.event, e.call.op_name, e.call.ended_at ? 'ended' : 'running'])).toEqual([['new', 'slow', 'running'], ['ended', 'slow', 'ended']]);
      expect(events[1]!.call.output).toBe('late');
    } finally {
      killGroup(child);
    }
  });
});

describe('weft feedback stats', () => {
  it('prints buckets with the metric and a sparkline, and --json parses', async () => {
    const [run, jsonRun] = await Promise.all([
      cli(['feedback', 'stats', ...conn(source), '--since', '1h', '--metric', 'score', '--timezone', 'UTC']),
      cli(['feedback', 'stats', ...conn(source), '--metric', 'score', '--json']),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/bucket\s+count\s+avg_score/);
    expect(run.stdout).toMatch(/score\s+\S+\s+avg over the window: 4/);
    const json = JSON.parse(jsonRun.stdout) as { window_stats: Record<string, Record<string, number>> };
    expect(json.window_stats.score).toMatchObject({ avg: 4 });
  });
});

describe('weft trajectories export', () => {
  it('writes a model\'s groups as JSONL, or OpenAI fine-tuning lines of the best per group; a bad --top-k is a usage error', async () => {
    const model = `cli-${Date.now()}`;
    const answer = (content: string) => ({ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop' });
    const tools = [{ type: 'function', function: { name: 'calc', parameters: { type: 'object' } } }];
    const t = (reward: number, content: string) => ({ reward, tools, messages_and_choices: [{ role: 'user', content: '2+2?' }, answer(content)] });
    const res = await fetch(`${source.url}/v1/preview/models/${model}/log`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ split: 'train', trajectory_groups: [{ trajectories: [t(0, '5'), t(1, '4')] }, { trajectories: [t(0.5, '4?')] }] }),
    });
    expect(res.status).toBe(200);
    await fetch(`${source.url}/v1/preview/models/${model}/log`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ split: 'val', trajectory_groups: [{ trajectories: [t(1, 'four')] }] }) });

    const groups = await cli(['trajectories', 'export', '--base-url', source.url, '--model', model, '--split', 'train']);
    expect(groups.code, groups.stderr).toBe(0);
    expect(groups.stdout.trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([{ trajectories: [t(0, '5'), t(1, '4')] }, { trajectories: [t(0.5, '4?')] }]);

    const out = path.join(dir, 'sft.jsonl');
    const sft = await cli(['trajectories', 'export', '--base-url', source.url, '--model', model, '--format', 'openai-sft', '--top-k', '1', '-o', out]);
    expect(sft.code, sft.stderr).toBe(0);
    expect(sft.stderr).toContain('exported 3 examples');
    const example = (content: string) => ({ messages: [{ role: 'user', content: '2+2?' }, { role: 'assistant', content }], tools });
    expect(readFileSync(out, 'utf8').split('\n')).toEqual([JSON.stringify(example('4')), JSON.stringify(example('4?')), JSON.stringify(example('four')), '']);

    const bad = await cli(['trajectories', 'export', '--base-url', source.url, '--model', model, '--format', 'openai-sft', '--top-k', '0']);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--top-k must be an integer >= 1')]);
  });
});
