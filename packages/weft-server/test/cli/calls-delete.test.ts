// `weft calls delete --before` (the CLI from the sources) against a real server over HTTP: a relative and an ISO
// cutoff delete the traces started before it, --json prints the server's answer, a bad time is a usage error (exit 2)
// and a cutoff later than the server's clock is the server's 422 in one line.
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { newId } from 'weft-trace/wire';
import { spawnTracked } from 'weft-test-kit/child-processes.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { batch, end, endItem, ids, query, start, startItem } from 'weft-test-kit/server-http.js';
import { bundled } from 'weft-test-kit/ts-bundle.js';

interface Run { code: number | null; stdout: string; stderr: string }

const DAY = 86_400_000;
const server = useTestServer();

async function cli(args: string[]): Promise<Run> {
  const child: ChildProcess = spawnTracked(process.execPath, [await bundled('packages/weft-server/src/cli.ts'), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** Stores one root call per age (days ago) in `project`; answers their ids in the same order. */
async function rootsAged(project: string, days: number[]): Promise<string[]> {
  const made = days.map((d) => ({ id: newId(), at: new Date(Date.now() - d * DAY).toISOString() }));
  await batch(server(), made.flatMap(({ id, at }) => [
    startItem(start({ project_id: project, id, trace_id: newId(), started_at: at })),
    endItem(end(id, { project_id: project, ended_at: at })),
  ]));
  return made.map((m) => m.id);
}

const stored = async (project: string): Promise<unknown[]> => ids(await query(server(), { project_id: project, sort_by: [{ field: 'started_at', direction: 'asc' }] }));

describe('weft calls delete --before', () => {
  it('deletes the traces started before a relative cutoff and says how many', async () => {
    const project = uniqueProject('cli-delete');
    const [, , keep] = await rootsAged(project, [60, 40, 3]);
    const run = await cli(['calls', 'delete', '--before', '30d', '--project', project, '--base-url', server().url]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^deleted 2 calls and 0 feedback started before \d{4}-\d\d-\d\dT[\d:.]+Z \(1 batches\)\n$/);
    expect(await stored(project)).toEqual([keep]);
  });

  it('takes an ISO 8601 time and prints the answer with --json', async () => {
    const project = uniqueProject('cli-delete-iso');
    const [, keep] = await rootsAged(project, [20, 2]);
    const before = new Date(Date.now() - 10 * DAY).toISOString().slice(0, 10);
    const run = await cli(['calls', 'delete', '--before', before, '--batch-size', '1', '--json', '--project', project, '--base-url', server().url]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ deleted_calls: 1, deleted_feedback: 0, batches: 1 });
    expect(await stored(project)).toEqual([keep]);
  });

  it('refuses a time it cannot read (exit 2) and reports the server refusing a future cutoff in one line', async () => {
    const project = uniqueProject('cli-delete-bad');
    const [old] = await rootsAged(project, [40]);
    const bad = await cli(['calls', 'delete', '--before', 'last tuesday', '--project', project, '--base-url', server().url]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('expected a duration such as 15m, 2h, 7d or an ISO 8601 time');
    const future = await cli(['calls', 'delete', '--before', '2999-01-01', '--project', project, '--base-url', server().url]);
    expect(future.code).not.toBe(0);
    expect(future.stderr).toMatch(/422.*before must not be later than the server's clock/);
    expect(await stored(project)).toEqual([old]);
  });
});
