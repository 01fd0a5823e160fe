// @weft-test: isolated runtime (a process's life: its exit, its first warnings, its spool and its memory)
// A short script that exits without calling flush() loses no call: beforeExit drains the queue.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { useTestServer } from 'weft-test-kit/server.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { expectIsoUtc, expectUuidv7 } from 'weft-test-kit/shapes.js';
import { bundled } from 'weft-test-kit/ts-bundle.js';

const run = promisify(execFile);
const server = useTestServer();

it('a child process that exits without flush() loses none of its calls', async () => {
  const project = uniqueProject('exit');
  const calls = 300;
  const { stdout } = await run(process.execPath, [await bundled('test/fixtures/exit-without-flush.ts')], {
    env: { ...process.env, WEFT_BASE_URL: server().url, WEFT_PROJECT: project, CALLS: String(calls) },
    timeout: 30_000,
  });
  expect(stdout).toContain(`ran ${calls}`);
  const records = await readCalls(server().url, project);
  expect(records).toHaveLength(calls + 1);
  for (const r of records) {
    expectUuidv7(r.id);
    expectIsoUtc(r.ended_at);
  }
  expect(new Set(records.map((r) => r.id)).size).toBe(calls + 1);
});
