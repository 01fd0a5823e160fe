// Server side: stream_query time to the first record on a database of 1M calls (generated once, cached).
import type { CallsQueryReq } from '../packages/weft-trace/src/schema/calls.js';
import { callsDatabase, QUERY_PROJECT } from './lib/calls-db.js';
import { contextLine } from './lib/context-line.js';
import { startChildServer } from './lib/server.js';
import { num, printTable, QUICK, verdict } from './lib/table.js';
import { weft } from './lib/weft.js';

const ROWS = Number(process.env.BENCH_QUERY_ROWS) || (QUICK ? 100_000 : 1_000_000);

/** label, query, times to run it (median reported), whether the issue's < 50 ms target applies. */
const queries: [string, Omit<CallsQueryReq, 'project_id'>, number, boolean][] = [
  ['default order (started_at, id)', {}, 7, true],
  ['sort_by started_at desc', { sort_by: [{ field: 'started_at', order: 'desc' }] }, 5, false],
  ['filter trace_roots_only + op_names', { filter: { trace_roots_only: true, op_names: ['answer'] } }, 5, false],
  ['$expr $contains on inputs.question', { query: { $expr: { $contains: { input: { $getField: 'inputs.question' }, substr: { $literal: 'question 99999' } } } } }, 3, false],
  ['sort_by inputs.k desc (unindexed: full sort)', { sort_by: [{ field: 'inputs.k', order: 'desc' }] }, 1, false],
];

const db = callsDatabase(ROWS);
if (db.generatedSeconds !== undefined) console.log(`generated ${num(ROWS)} calls in ${num(db.generatedSeconds, 1)} s: ${db.path}\n`);
const server = await startChildServer(db.path);
const client = new weft.Client({ baseUrl: server.url, timeoutMs: 120_000 });

/** ms from sending the query to the first parsed record (the stream is then abandoned, which aborts it). */
async function firstRecordMs(query: Omit<CallsQueryReq, 'project_id'>): Promise<number> {
  const t0 = performance.now();
  for await (const record of client.calls.streamQuery({ project_id: QUERY_PROJECT, ...query })) {
    if (!record.id) throw new Error('record without id');
    return performance.now() - t0;
  }
  throw new Error('the query returned no record');
}

const rows: string[][] = [];
for (const [label, query, repeat, targeted] of queries) {
  const times: number[] = [];
  for (let i = 0; i < repeat; i++) times.push(await firstRecordMs(query));
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? NaN;
  rows.push([label, String(repeat), num(median, 1), num(times[times.length - 1] ?? NaN, 1), targeted ? verdict(median < 50, '< 50 ms') : '']);
}
await client.close();
await server.close();
printTable(`stream_query: ms to the first record over ${num(ROWS)} calls · ${contextLine()}`, ['query', 'runs', 'median ms', 'max ms', 'target'], rows);
