// @weft-test: runtime
// End-to-end test of `weft serve`: spawn the CLI, POST a call, read it back, SIGTERM, exit code 0.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killGroup, spawnCli } from 'weft-test-kit/child-processes.js';


let child: ChildProcess | undefined;
let dir: string;
afterEach(() => {
  if (child) killGroup(child);
  rmSync(dir, { recursive: true, force: true });
});

function serve(args: string[]): { proc: ChildProcess; output: () => string; listening: Promise<string> } {
  // the built CLI run by node itself: a wrapper (tsx) killed would leave its node child serving
  const proc = spawnCli(['serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  let out = '';
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`weft serve exited with ${code} before listening:\n${out}`)));
  });
  return { proc, output: () => out, listening };
}

const exited = (proc: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => (proc.exitCode !== null ? resolve(proc.exitCode) : proc.once('exit', (code) => resolve(code))));

describe('weft serve', () => {
  it('serves on --port 0, stores a call in --db, and exits 0 on SIGTERM', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'weft-cli-'));
    const db = path.join(dir, 'cli.db');
    const { proc, output, listening } = serve(['--port', '0', '--db', db]);
    const url = await listening;
    expect(url).not.toMatch(/:0$/);
    expect(output()).toContain(db);

    const start = { project_id: 'acme/cli', op_name: 'hello', started_at: '2024-05-01T10:00:00Z', attributes: {}, inputs: { who: 'cli' } };
    const res = await fetch(`${url}/call/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ start }) });
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    const q = await fetch(`${url}/calls/stream_query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: 'acme/cli' }) });
    const records = (await q.text()).trim().split('\n').map((l) => JSON.parse(l) as { id: string; inputs: unknown });
    expect(records).toEqual([expect.objectContaining({ id, inputs: { who: 'cli' } })]);

    proc.kill('SIGTERM');
    expect(await exited(proc)).toBe(0);
    expect(existsSync(db)).toBe(true);
  });

  it('says clearly that a busy port is busy and exits 1', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'weft-cli-'));
    const first = serve(['--port', '0', '--db', path.join(dir, 'a.db')]);
    const port = new URL(await first.listening).port;
    const firstProc = first.proc;
    const second = spawnCli(['serve', '--port', port, '--db', path.join(dir, 'b.db')]);
    let err = '';
    second.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    expect(await exited(second)).toBe(1);
    expect(err).toContain(`port ${port} on 127.0.0.1 is already in use`);
    expect(err).not.toMatch(/\n\s+at /);
    expect(readdirSync(dir).filter((f) => f.startsWith('b.db'))).toEqual([]); // no empty database left behind (issue 24 item 11)
    firstProc.kill('SIGTERM');
    expect(await exited(firstProc)).toBe(0);
  });

  it('prints readable help', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'weft-cli-'));
    const proc = spawnCli(['serve', '--help']);
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    expect(await exited(proc)).toBe(0);
    expect(out).toContain('Usage: weft serve');
    // commander wraps the description to the terminal width: the default may sit on the next line
    expect(out).toMatch(/--port <port>.*\(default:\s+6345\)/s);
    expect(out).toContain('--db <path|url>');
    expect(out).toContain('postgres://');
    expect(out).toContain('WEFT_DB_URL');
  });
});
