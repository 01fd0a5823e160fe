// What a newcomer trips on in the CLI (issue 24): a mistyped --status or --project is a usage error,
// a URL that is not weft serve is one line, `export | head -1` ends quietly, costs print without float
// noise, and `feedback stats --help` shows `24h` as the default of --since.
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/index.js';
import { BUILT_CLI, spawnCli, spawnTracked } from 'weft-test-kit/child-processes.js';
import { startCannedServer, type CannedServer } from 'weft-test-kit/canned-server.js';
import { batch, end, endItem, start, startItem } from 'weft-test-kit/server-http.js';
import { startTestServer } from 'weft-test-kit/server.js';

interface Run { code: number | null; stdout: string; stderr: string }

function collect(child: ChildProcess): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** Runs the built CLI to its end, piped, without any WEFT_* variable of this process. */
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WEFT_') && k !== 'NO_COLOR'));
  return collect(spawnCli(args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...clean, ...env } }));
}

const PROJECT = 'acme/newcomer';
let server: RunningServer;
let canned: CannedServer;

beforeAll(async () => {
  server = await startTestServer();
  canned = await startCannedServer({ service: 'something else', items: [{ id: 1 }] });
  const usage = { 'gpt-4o-mini': { prompt_tokens: 100, completion_tokens: 25, total_tokens: 125, requests: 1 } };
  const items = [startItem(start({ project_id: PROJECT, id: 'priced', op_name: 'llm' })), endItem(end('priced', { project_id: PROJECT, summary: { usage } }))];
  // enough JSONL that `export | head -1` closes the pipe while the CLI still writes (a pipe buffers 64 KiB)
  const text = 'x'.repeat(2_000);
  for (let i = 0; i < 300; i++) items.push(startItem(start({ project_id: PROJECT, id: `bulk-${i}`, inputs: { text } })));
  await batch(server, items);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await canned?.close();
});

const conn = (): string[] => ['--base-url', server.url, '--project', PROJECT];

describe('--status is one of its choices (issue 24 item 6)', () => {
  it.each([['ls'], ['tail'], ['export']])('calls %s --status eror: exit 2 with the choices and "did you mean"', async (command) => {
    const run = await cli(['calls', command, ...conn(), '--status', 'eror']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("argument 'eror' is invalid");
    expect(run.stderr).toContain('Allowed choices are success, error, descendant_error, running, cancelled.');
    expect(run.stderr).toContain('Did you mean error?');
  });

  it('still takes several valid statuses', async () => {
    const run = await cli(['calls', 'ls', ...conn(), '--status', 'running', '--status', 'success', '--json']);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as unknown[]).length).toBe(20);
  });
});

describe('--project is <entity>/<project> (issue 24 item 2)', () => {
  it.each([['quickstart'], ['/quickstart'], ['acme/quick/start']])('--project %s is a usage error showing the shape and the value', async (bad) => {
    const run = await cli(['calls', 'ls', '--base-url', server.url, '--project', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`expected <entity>/<project> such as acme/demo, got ${JSON.stringify(bad)}`);
  });

  it('names WEFT_PROJECT when the bad value came from it', async () => {
    const run = await cli(['calls', 'ls', '--base-url', server.url], { WEFT_PROJECT: 'quickstart' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("from env 'WEFT_PROJECT'");
    expect(run.stderr).toContain('expected <entity>/<project> such as acme/demo, got "quickstart"');
  });
});

it('a --base-url that is not weft serve fails in one line naming the URL (issue 24 item 9)', async () => {
  const run = await cli(['calls', 'ls', '--base-url', canned.url, '--project', PROJECT]);
  expect(run.code).toBe(1);
  expect(run.stderr.trim().split('\n')).toEqual([
    `weft: the server at ${canned.url} does not answer as weft serve does (its answer is not the records asked for); check --base-url or WEFT_BASE_URL (--verbose shows the answer)`,
  ]);
});

it('a --base-url serving web pages (HTML 404s) fails in one line too, without the page', async () => {
  const web = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end(`<!DOCTYPE html><html><body>${'<p>Not here</p>\n'.repeat(40)}</body></html>`));
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  try {
    const run = await cli(['calls', 'ls', '--base-url', url, '--project', PROJECT]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      `weft: the server at ${url} does not answer as weft serve does (it answered HTTP 404 with a body that is not JSON); check --base-url or WEFT_BASE_URL (--verbose shows the answer)`,
    ]);
  } finally {
    await new Promise((resolve) => web.close(resolve));
  }
});

it('`calls export | head -1` ends quietly with exit 0 when the pipe closes (issue 24 item 10)', async () => {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WEFT_')));
  const command = `set -o pipefail; '${process.execPath}' '${BUILT_CLI}' calls export --base-url '${server.url}' --project '${PROJECT}' | head -1`;
  const run = await collect(spawnTracked('bash', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'], env: clean }));
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  expect(JSON.parse(run.stdout) as { project_id: string }).toMatchObject({ project_id: PROJECT });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
});

describe('small things (issue 24 item 11)', () => {
  it('costs print without float noise', async () => {
    const run = await cli(['calls', 'ls', ...conn(), '--op', 'llm', '--json']);
    const [call] = JSON.parse(run.stdout) as { summary: { costs: Record<string, { total_cost: number; prompt_tokens_total_cost: number }> } }[];
    const cost = Object.values(call!.summary.costs)[0]!;
    expect(cost.total_cost).toBe(0.00003); // 100 x $0.15/M + 25 x $0.60/M
    expect(cost.prompt_tokens_total_cost).toBe(0.000015);
    // a fraction of 12 digits or more (0.000029999999999999997), not any 12 digits: a random trace id can hold those
    expect(run.stdout).not.toMatch(/\.\d{12,}/);
  });

  it('feedback stats --help shows 24h as the default of --since, not a computed time', async () => {
    const run = await cli(['feedback', 'stats', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/--since <when>[\s\S]*\(default: 24h\)/);
    expect(run.stdout).not.toMatch(/default: "\d{4}-/);
  });
});
