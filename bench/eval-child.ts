// Child of eval.ts: rounds of evaluate() over a 1,000-row dataset next to its floors (the task and scorers called directly, the same four calls per row traced by plain op()s, those plus the two feedback items a row writes, publishing a new dataset) in one build of weft; reports process CPU µs per row, per round.
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { report } from './lib/child.js';
import { type EvalRounds, N, ROUNDS, WARM_UPS } from './lib/eval-rounds.js';
import { weft } from './lib/weft.js';

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
async function direct(): Promise<void> {
  for (const row of rows) {
    const output = await task(row);
    await exact({ output, expected: row.expected });
    await distance({ output, expected: row.expected });
  }
}

/** Process CPU (user + system) of `fn`, µs per row. */
async function cpuPerRow(fn: () => Promise<unknown>): Promise<number> {
  const cpu0 = process.cpuUsage();
  await fn();
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / N;
}

const opTask = weft.op(task);
const opExact = weft.op(exact);
const opDistance = weft.op(distance);
/** One row recorded by plain op()s as evaluate() records it: a row call over the task and the two scorers. */
const plainRow = weft.op(async function predict_and_score(row: Row) {
  const output = await opTask(row);
  await opExact({ output, expected: row.expected });
  await opDistance({ output, expected: row.expected });
  return output;
});
async function recordRows(): Promise<void> {
  for (const r of rows) await plainRow(r);
  await weft.flush();
}

/**
 * The least the two feedback items a row writes cost without any tracer: each item as evaluate() makes it (an id, four
 * refs, the score), JSON.stringify'd, joined into batches of 500 (the exporter's maxBatchItems) and POSTed to
 * `/feedback/batch/create` through undici, as the exporter sends them.
 */
async function writeFeedback(): Promise<void> {
  const ref = (kind: string, id: string) => `svc:///${PROJECT}/${kind}/${id}`;
  const items: string[] = [];
  for (const row of rows) {
    const task = randomUUID();
    for (const [scorer, output] of [['exact', row.x * 2 === row.expected], ['distance', Math.abs(row.x * 2 - row.expected)]] as const) {
      items.push(JSON.stringify({ id: randomUUID(), project_id: PROJECT, svc_ref: ref('call', task), call_ref: ref('call', randomUUID()), runnable_ref: ref('op', `${scorer}:${DIGEST}`), feedback_type: `wandb.runnable.${scorer}`, payload: { output }, svc_user_id: undefined }));
    }
  }
  for (let i = 0; i < items.length; i += 500) {
    const res = await request(`${url}/feedback/batch/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from(`{"batch":[${items.slice(i, i + 500).join(',')}]}`) });
    await res.body.arrayBuffer();
    if (res.statusCode !== 200) throw new Error(`feedback floor: HTTP ${res.statusCode}`);
  }
}
const DIGEST = 'd'.repeat(43);

const url = process.env.WEFT_BENCH_EVAL_URL!;
const PROJECT = process.env.WEFT_BENCH_EVAL_PROJECT ?? 'bench/eval';
const out: EvalRounds = { direct: [], off: [], floor: [], feedback: [], evaluate: [], publish: [], tracedRuns: 0 };

weft.init({ project: PROJECT, baseUrl: url, enabled: false });
const untraced = () => weft.evaluate({ name: 'off', dataset: rows, task, scorers: [exact, distance], progress: false });
for (let i = 0; i < 5 * WARM_UPS; i++) await untraced();
for (let i = 0; i < ROUNDS; i++) out.off.push(await cpuPerRow(untraced));

const client = weft.init({ project: PROJECT, baseUrl: url, printViewerLink: false });
const evaluated = (i: number) => async (): Promise<void> => {
  out.tracedRuns++;
  await weft.evaluate({ name: `round-${i}`, client, dataset: rows, task, scorers: [exact, distance], progress: false });
};
let published = 0;
let fresh: Row[] = [];
/** Rows no run published yet (made before the timed part), for a round of `publish`. */
const freshRows = (): void => {
  fresh = rows.map((r) => ({ ...r, fresh: `${process.pid}-${published}` }));
};
const publish = async (): Promise<void> => {
  const dataset = new weft.Dataset({ name: `fresh-${process.pid}-${published++}`, rows: fresh });
  const { ref } = await dataset.publish(client, PROJECT);
  await client.objects.create({ obj: { project_id: PROJECT, object_id: dataset.name, val: { _type: 'Evaluation', dataset: ref } } });
};
const cases: Array<[keyof Omit<EvalRounds, 'tracedRuns' | 'off'>, (i: number) => () => Promise<void>]> = [
  ['floor', () => recordRows],
  ['evaluate', evaluated],
  ['direct', () => direct],
  ['feedback', () => writeFeedback],
  ['publish', () => publish],
];
for (let i = 0; i < WARM_UPS; i++) {
  freshRows();
  for (const [, make] of cases) await make(-1)();
}
for (let i = 0; i < ROUNDS; i++) {
  // alternate the order so drift (load, JIT, GC) falls on both sides of each ratio
  freshRows();
  for (const [key, make] of i % 2 ? [...cases].reverse() : cases) out[key].push(await cpuPerRow(make(i)));
}
await weft.shutdown();
report(out);
