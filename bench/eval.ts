// evaluate() overhead per row: a 1,000-row dataset with a trivial task and two trivial scorers, evaluate() (traced into the local server, every row's calls and scores recorded, the final flush and read-back included) against calling the task and the scorers directly.
import { contextLine } from './lib/context-line.js';
import { startChildServer } from './lib/server.js';
import { countCompleteCalls } from './lib/stored.js';
import { num, printTable, QUICK, verdict } from './lib/table.js';
import { weft } from './lib/weft.js';

const N = 1_000;
const ROUNDS = QUICK ? 3 : 7;
const PROJECT = 'bench/eval';
type Row = { x: number; expected: number };
const rows: Row[] = Array.from({ length: N }, (_, i) => ({ x: i, expected: i % 10 === 0 ? -1 : i * 2 }));

const task = function double(row: Row): number {
  return row.x * 2;
};
const exact = function exact({ output, expected }: { output: number; expected: number }): boolean {
  return output === expected;
};
const distance = function distance({ output, expected }: { output: number; expected: number }): number {
  return Math.abs(output - expected);
};

/** The same work without evaluate(): each row's task, then each scorer, awaited as evaluate() awaits them. */
async function direct(): Promise<number> {
  let hits = 0;
  for (const row of rows) {
    const output = await task(row);
    if (await exact({ output, expected: row.expected })) hits++;
    await distance({ output, expected: row.expected });
  }
  return hits;
}

/** Process CPU (user + system) and wall time of `fn`, µs. */
async function measure(fn: () => Promise<unknown>): Promise<{ cpuUs: number; wallUs: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wallUs = (performance.now() - t0) * 1000;
  const cpu = process.cpuUsage(cpu0);
  return { cpuUs: cpu.user + cpu.system, wallUs };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** The floor of recording a row as evaluate() does: the same four calls (row, task, two scorers) traced by op(). */
const opRow = weft.op(async function predict_and_score(row: Row) {
  const output = await opTask(row);
  await opExact({ output, expected: row.expected });
  await opDistance({ output, expected: row.expected });
  return output;
});
const opTask = weft.op(task);
const opExact = weft.op(exact);
const opDistance = weft.op(distance);
async function fourOps(): Promise<void> {
  for (const row of rows) await opRow(row);
  await weft.flush();
}

const server = await startChildServer();
try {
  // evaluate() with tracing off: its own machinery (queue, promises, scores, summary) without recording
  weft.init({ project: PROJECT, baseUrl: server.url, enabled: false });
  const untraced: number[] = [];
  await weft.evaluate({ name: 'off', dataset: rows, task, scorers: [exact, distance], progress: false });
  for (let i = 0; i < ROUNDS; i++) untraced.push((await measure(() => weft.evaluate({ name: 'off', dataset: rows, task, scorers: [exact, distance], progress: false }))).cpuUs);
  const client = weft.init({ project: PROJECT, baseUrl: server.url });
  const floor: number[] = [];
  await fourOps();
  const run = (name: string) => weft.evaluate({ name, client, dataset: rows, task, scorers: [exact, distance], progress: false });
  await run('warm-up');
  await direct();
  const plain: { cpuUs: number; wallUs: number }[] = [];
  const evaluated: { cpuUs: number; wallUs: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    // alternate the order so drift (load, JIT) falls on both
    floor.push((await measure(fourOps)).cpuUs);
    if (i % 2 === 0) {
      plain.push(await measure(direct));
      evaluated.push(await measure(() => run(`round-${i}`)));
    } else {
      evaluated.push(await measure(() => run(`round-${i}`)));
      plain.push(await measure(direct));
    }
  }
  await weft.shutdown();
  const stored = countCompleteCalls(server.dbPath, PROJECT, 'Evaluation.predict_and_score');
  const expected = (ROUNDS + 1) * N;
  if (stored !== expected) throw new Error(`stored ${stored} Evaluation.predict_and_score calls, expected ${expected}`);
  const rowCpu = median(plain.map((p) => p.cpuUs)) / N;
  const evalCpu = median(evaluated.map((e) => e.cpuUs)) / N;
  const rowWall = median(plain.map((p) => p.wallUs)) / N;
  const evalWall = median(evaluated.map((e) => e.wallUs)) / N;
  const overheadCpu = evalCpu - rowCpu;
  printTable(
    `evaluate() overhead per row, ${num(N)} rows × 2 scorers, median of ${ROUNDS} (stored: ${num(stored)} rows checked) · ${contextLine()}`,
    ['measure', 'direct µs/row', 'evaluate() µs/row', 'overhead µs/row', 'target'],
    [
      ['process CPU', num(rowCpu, 2), num(evalCpu, 2), num(overheadCpu, 2), verdict(overheadCpu < 50 || overheadCpu < 0.05 * rowCpu, '< 50 µs/row or < 5% of the row')],
      ['wall time', num(rowWall, 2), num(evalWall, 2), num(evalWall - rowWall, 2), ''],
    ],
  );
  const off = median(untraced) / N;
  const four = median(floor) / N;
  printTable(
    'where it goes, process CPU µs/row (same process, same rounds)',
    ['part', 'µs/row', 'share of evaluate() overhead'],
    [
      ['evaluate() with tracing off (queue, promises, scores, summary)', num(off - rowCpu, 2), `${num((100 * (off - rowCpu)) / overheadCpu, 0)}%`],
      ['the same 4 calls per row traced by op() and exported (the floor of recording a row)', num(four - rowCpu, 2), `${num((100 * (four - rowCpu)) / overheadCpu, 0)}%`],
      ['evaluate() beyond that floor (feedback, refs, row bookkeeping)', num(evalCpu - four, 2), `${num((100 * (evalCpu - four)) / overheadCpu, 0)}%`],
    ],
  );
} finally {
  await server.close();
}
