// End to end: calls/s from one process into the local server (child process), flush included, and event-loop delay p99 meanwhile.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { contextLine } from './lib/context-line.js';
import { BACKLOG, callInBursts, weftBehind } from './lib/drive.js';
import { startChildServer } from './lib/server.js';
import { countCompleteCalls } from './lib/stored.js';
import { num, printTable, QUICK, verdict } from './lib/table.js';
import { weft } from './lib/weft.js';
import { addWith, Tally } from './lib/work.js';

const N = QUICK ? 40_000 : 100_000;
const PER_TURN = 100;
const PROJECT = 'bench/e2e';

const server = await startChildServer();
weft.init({ project: PROJECT, baseUrl: server.url });
const tally = new Tally();
const add = weft.op(addWith(tally), { name: 'add' });
await callInBursts(() => add(1, 2), 2_000); // warm-up: JIT and connections
await weft.flush();

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const t0 = performance.now();
await callInBursts(() => add(1, 2), N, PER_TURN, weftBehind);
const report = await weft.flush();
const seconds = (performance.now() - t0) / 1000;
delay.disable();

const stored = countCompleteCalls(server.dbPath, PROJECT, 'add');
await weft.shutdown();
await server.close();

const callsPerSec = N / seconds;
const p99Ms = delay.percentile(99) / 1e6;
printTable(
  `End to end: ${num(N)} sync op() calls, ${PER_TURN} per event-loop turn (pausing while > ${num(BACKLOG)} events wait), then flush() · ${contextLine()}`,
  ['figure', 'value', 'target'],
  [
    ['calls/s (flush included)', num(callsPerSec), verdict(callsPerSec >= 100_000, '>= 100,000')],
    ['event-loop delay p99 (ms)', num(p99Ms, 2), verdict(p99Ms < 5, '< 5 ms')],
    ['event-loop delay max (ms)', num(delay.max / 1e6, 2), ''],
    ['calls stored / made', `${num(stored)}/${num(tally.n)}`, ''],
    ['events dropped by the exporter', num(report.dropped), ''],
  ],
);
if (stored !== tally.n) {
  console.log('CHECK FAILED: calls did not all reach the server');
  process.exitCode = 1;
}
