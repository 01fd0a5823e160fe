// describeEval over a published dataset given by name (issue 50 point 4): its rows are read from the server while
// the file is collected (an async describe body), one test per row, and the suite recorded as one run over that
// dataset. The dataset is made here from traced calls through `POST /weft/datasets/add_calls`, before collection
// (top-level await), as a test file reading a dataset made in the viewer would find it.
import { afterAll, describe, expect, it } from 'vitest';
import { exactMatch, flush, init, op } from '../../src/index.js';
import { describeEval } from '../../src/vitest/index.js';
import { listRuns } from '../../src/eval/runs/load-runs.js';
import { readCalls, uniqueProject } from 'weft-test-kit/calls.js';
import { startTestServer } from 'weft-test-kit/server.js';

const server = await startTestServer();
afterAll(() => server.close());
const project = uniqueProject('ds-vitest');
const client = init({ project, baseUrl: server.url, flushIntervalMs: 50, printViewerLink: false });
const CAPITALS: Record<string, string> = { France: 'Paris', Japan: 'Tokyo' };
const capital = op(function capital(country: string): string {
  return CAPITALS[country]!;
});
capital('France');
capital('Japan');
await flush();
const calls = await readCalls(server.url, project);
await client.datasets.addCalls({ project_id: project, dataset: 'golden', calls: calls.map((c) => ({ id: c.id })) });

type Row = { input: { country: string }; expected: string };
describeEval<Row, string>('golden by name', {
  dataset: 'golden',
  task: (row) => capital(row.input.country),
  scorers: [exactMatch()],
  threshold: 1,
  testName: (row) => row.input.country,
});

describe('the run of the suite above', () => {
  it('is recorded over the dataset read by name, one row per traced call', async () => {
    const runs = await listRuns(client, project);
    expect(runs.map((r) => [r.name, r.dataset, r.scores])).toEqual([['golden by name', 'golden', { exact_match: 1 }]]);
  });
});
