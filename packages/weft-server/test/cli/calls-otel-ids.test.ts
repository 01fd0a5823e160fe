// The built CLI on an OTel trace sent over OTLP (root call id differs from its trace id): descendant_error found at
// the root, ids taken with or without dashes, the trace id and a viewer link printed, and a mistyped project named.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weftCallId, weftTraceId } from 'weft-trace/otel';
import type { CallRecord } from 'weft-trace';
import type { RunningServer } from '../../src/server/index.js';
import { spawnCli } from 'weft-test-kit/child-processes.js';
import { startTestServer } from 'weft-test-kit/server.js';

interface Run { code: number | null; stdout: string; stderr: string }

function cli(args: string[]): Promise<Run> {
  const { NO_COLOR: _, WEFT_PROJECT: __, ...env } = process.env;
  const child: ChildProcess = spawnCli(args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const PROJECT = 'acme/agent';
const TRACE = 'b4494dd8364ef7b56681bdc99fad539e';
const ROOT_SPAN = '00000000000000b1';
const rootId = weftCallId(TRACE, ROOT_SPAN);
const traceId = weftTraceId(TRACE);
let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer();
  const span = (spanId: string, name: string, extra: Record<string, unknown> = {}) => ({
    traceId: TRACE, spanId, name, kind: 1, startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000001000000000', ...extra,
  });
  const spans = [
    span('00000000000000b2', 'chat gpt-4o-mini', {
      parentSpanId: ROOT_SPAN, status: { code: 2, message: 'rate limited' },
      attributes: [{ key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o-mini' } }, { key: 'gen_ai.usage.input_tokens', value: { intValue: 10 } }],
    }),
    span(ROOT_SPAN, 'agent'),
  ];
  const body = { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'raw' }, spans }] }] };
  const res = await fetch(`${server.url}/otel/v1/traces`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', project_id: PROJECT } });
  expect(res.status).toBe(200);
});
afterAll(() => server?.close());

const conn = (project = PROJECT): string[] => ['--base-url', server.url, '--project', project];

describe('weft calls on an OTel trace', () => {
  it('ls --trace-roots --status descendant_error finds the root whose child span failed', async () => {
    const run = await cli(['calls', 'ls', ...conn(), '--trace-roots', '--status', 'descendant_error', '--json']);
    expect(run.code).toBe(0);
    const records = JSON.parse(run.stdout) as CallRecord[];
    expect(records.map((r) => [r.op_name, r.summary?.status_counts])).toEqual([['agent', { success: 1, error: 1 }]]);
  });

  it('show takes a trace id or a call id without dashes, and prints the trace id and a viewer link', async () => {
    const link = `${server.url}/#/p/acme%2Fagent/trace/${traceId}`;
    for (const id of [TRACE, rootId.replaceAll('-', ''), rootId]) {
      const run = await cli(['calls', 'show', id, ...conn()]);
      expect(run.stderr, id).toBe('');
      expect(run.code, id).toBe(0);
      expect(run.stdout.split('\n')[0], id).toBe(`Trace 1/1 · agent() · trace ${traceId} · ${link}`);
    }
  });

  it('ls prints each row\'s trace id, and a viewer link on stderr', async () => {
    const run = await cli(['calls', 'ls', ...conn(), '--trace-roots']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/\bid\s+trace\s*$/);
    expect(lines[1]).toMatch(new RegExp(`${rootId}\\s+${traceId}\\s*$`));
    expect(run.stderr).toContain(`${server.url}/#/p/acme%2Fagent/trace/${traceId}/${rootId}`);
  });

  it('names the projects that exist, with "did you mean", for a mistyped project', async () => {
    const ls = await cli(['calls', 'ls', ...conn('acme/agnet')]);
    expect(ls.code).toBe(0);
    expect(ls.stdout.trim()).toBe('no calls in acme/agnet match; did you mean acme/agent?; project acme/agnet does not exist on this server, which holds: acme/agent');
    const show = await cli(['calls', 'show', TRACE, ...conn('acme/agnet')]);
    expect(show.code).toBe(1);
    expect(show.stderr).toContain('did you mean acme/agent?');
    const far = await cli(['calls', 'ls', ...conn('zeta/other')]);
    expect(far.stdout.trim()).toBe('no calls in zeta/other match; project zeta/other does not exist on this server, which holds: acme/agent');
  });
});
