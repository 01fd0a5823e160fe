// Child of nested.ts: one round of the nested workload for one mode (weft or otel); reports process CPU per traced call.
// Workload (issue 31): ROOTS roots, each an async op awaiting two async child ops (3 traced async bodies per root),
// a turn of the event loop every 16 roots, then flush(). weft exports to a sink in another process that answers
// 200 to every POST /call/upsert_batch at once and counts the end items it received; OpenTelemetry runs the same
// shape as spans through a BatchSpanProcessor into a discarding exporter.
import { spawn } from 'node:child_process';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { report } from './lib/child.js';
import { setupOtel, otelAsync } from './lib/otel.js';
import { QUICK } from './lib/table.js';

/** What one round reports. */
export interface NestedResult {
  mode: 'weft' | 'otel';
  /** Traced calls (spans) made in the timed part: ROOTS x 3. */
  calls: number;
  cpuNsPerCall: number;
  /** Calls the far end received (end items, or exported spans), warm-up included. */
  received: number;
  expected: number;
}

export const ROOTS = QUICK ? 1_000 : 3_000;
const WARMUP_ROOTS = 500;
const PER_TURN = 16;

/** The sink: reads each body, counts its `"mode":"end"` items, answers `{"res":[]}`; `count` over IPC asks the total. */
const SINK = `let ends = 0;
const s = require('node:http').createServer((q, r) => {
  const parts = []; q.on('data', (c) => parts.push(c));
  q.on('end', () => { const body = Buffer.concat(parts).toString(); let i = -1; while ((i = body.indexOf('"mode":"end"', i + 1)) !== -1) ends++; r.end('{"res":[]}'); });
});
process.on('message', (m) => { if (m === 'count') process.send({ ends }); else process.exit(0); });
s.listen(0, '127.0.0.1', () => process.send('http://127.0.0.1:' + s.address().port));`;

async function leaf(x: number): Promise<number> {
  await Promise.resolve();
  return x * 2;
}

async function drive(root: (i: number) => Promise<unknown>, roots: number): Promise<void> {
  const pending: Promise<unknown>[] = [];
  for (let i = 0; i < roots; i++) {
    pending.push(root(i));
    if ((i + 1) % PER_TURN === 0) await nextTurn();
  }
  await Promise.all(pending);
}

async function weftRound(): Promise<NestedResult> {
  const { weft } = await import('./lib/weft.js');
  const sink = spawn(process.execPath, ['-e', SINK], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve) => sink.once('message', (m) => resolve(String(m))));
  weft.init({ project: 'bench/nested', baseUrl: url });
  const child = weft.op(leaf, { name: 'child' });
  const root = weft.op(async (i: number) => (await Promise.all([child(i), child(i + 1)])).reduce((a, b) => a + b, 0), { name: 'root' });
  await drive(root, WARMUP_ROOTS);
  await weft.flush();
  const before = process.cpuUsage();
  await drive(root, ROOTS);
  await weft.flush();
  const used = process.cpuUsage(before);
  await weft.shutdown();
  sink.send('count');
  const { ends } = await new Promise<{ ends: number }>((resolve) => sink.once('message', (m) => resolve(m as { ends: number })));
  sink.send('exit');
  const calls = ROOTS * 3;
  return { mode: 'weft', calls, cpuNsPerCall: ((used.user + used.system) * 1000) / calls, received: ends, expected: (ROOTS + WARMUP_ROOTS) * 3 };
}

async function otelRound(): Promise<NestedResult> {
  const otel = setupOtel();
  const child = otelAsync(otel.tracer, 'child', ['x'], leaf);
  const root = otelAsync(otel.tracer, 'root', ['i'], async (i: number) => (await Promise.all([child(i), child(i + 1)])).reduce((a, b) => a + b, 0));
  await drive(root, WARMUP_ROOTS);
  await otel.flush();
  const before = process.cpuUsage();
  await drive(root, ROOTS);
  await otel.flush();
  const used = process.cpuUsage(before);
  const received = otel.exported();
  await otel.shutdown();
  const calls = ROOTS * 3;
  return { mode: 'otel', calls, cpuNsPerCall: ((used.user + used.system) * 1000) / calls, received, expected: (ROOTS + WARMUP_ROOTS) * 3 };
}

report(process.argv[2] === 'otel' ? await otelRound() : await weftRound());
