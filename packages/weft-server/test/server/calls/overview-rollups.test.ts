// @weft-test: postgres
// The overview's hour rollups (issue 40, point 1) over loopback HTTP, on both stores: after a random workload (batches
// of starts and ends, late ends, re-sent batches, failures below roots, several ops and models, /calls/delete,
// retention) with the rollup job run at random points, POST /weft/calls/overview (stored rollups + live SQL) answers
// exactly what the store answers counting every root live; and the job's refresh never clears a mark it raced.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newId } from 'weft-trace/wire';
import { CALLS_DELETE_BEFORE_PATH } from 'weft-trace/wire';
import { type RefreshOptions, refreshStaleHours } from '../../../src/server/calls/jobs/rollup-job.js';
import type { CallStore } from '../../../src/server/calls/call-store.js';
import { planBuckets } from '../../../src/server/stats/stats-buckets.js';
import { storeParts } from '../../../src/server/server-store.js';
import { uniqueProject } from 'weft-test-kit/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { batch, endItem, type Json, post, startItem } from 'weft-test-kit/server-http.js';
import { storeRows } from 'weft-test-kit/store-sql.js';

const server = useTestServer();
const T0 = Date.parse('2024-05-01T00:00:00.000Z');
const MIN = 60_000;
const HOUR = 3_600_000;
const OPS = ['agent', 'search', 'plan'];
const MODELS = ['gpt-4o', 'acme-llm', 'claude-3-5-sonnet-20241022'];
const iso = (ms: number): string => new Date(ms).toISOString();

/** One generated trace: its root and up to two children. */
interface TraceSpec {
  minute: number;
  op: number;
  latencyMs: number;
  failed: boolean;
  /** The root's end carries status_counts (weft's SDK) or not (Weave's: descendant_error derived from descendants). */
  counts: boolean;
  usage: { model: number; input: number; output: number }[];
  children: { failed: boolean }[];
  /** The children's ends come after the root's (a failure reaching a root that ended, Weave-style). */
  childrenLate: boolean;
}

const traceArb: fc.Arbitrary<TraceSpec> = fc.record({
  minute: fc.integer({ min: 0, max: 30 * 60 }),
  op: fc.integer({ min: 0, max: OPS.length - 1 }),
  latencyMs: fc.oneof(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 3_000_000 })),
  failed: fc.boolean(),
  counts: fc.boolean(),
  usage: fc.array(fc.record({ model: fc.integer({ min: 0, max: MODELS.length - 1 }), input: fc.nat(100_000), output: fc.nat(10_000) }), { maxLength: 2 }),
  children: fc.array(fc.record({ failed: fc.boolean() }), { maxLength: 2 }),
  childrenLate: fc.boolean(),
});

/** What happens next: a batch of the next items, a re-sent batch, the job, a delete, retention. */
type Step =
  | { kind: 'send'; items: number }
  | { kind: 'resend'; which: number }
  | { kind: 'job' }
  | { kind: 'slicedJob'; after: number; items: number; stopAfter: number | null }
  | { kind: 'delete'; which: number; root: boolean }
  | { kind: 'retention'; minute: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('send' as const), items: fc.integer({ min: 1, max: 8 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('resend' as const), which: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('job' as const) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('slicedJob' as const), after: fc.integer({ min: 1, max: 3 }), items: fc.integer({ min: 1, max: 8 }), stopAfter: fc.option(fc.integer({ min: 1, max: 6 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), which: fc.nat(), root: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('retention' as const), minute: fc.integer({ min: 0, max: 30 * 60 }) }) },
);

/**
 * The items of a trace: its starts, and its ends (each after its call's start; a child's end before or after its
 * root's, as `childrenLate` says).
 */
function traceItems(project: string, t: TraceSpec): { starts: Json[]; ends: Json[]; root: string; children: string[] } {
  const root = newId();
  const trace_id = newId();
  const at = T0 + t.minute * MIN + (t.minute % 7) * 1000;
  const children = t.children.map(() => newId());
  const usage = Object.fromEntries(t.usage.map((u) => [MODELS[u.model]!, { input_tokens: u.input, output_tokens: u.output, requests: 1 }]));
  const childFailed = t.children.some((c) => c.failed);
  const summary: Json = { usage, ...(t.counts ? { status_counts: { success: 1, error: childFailed ? 1 : 0 } } : {}) };
  const starts: Json[] = [startItem({ project_id: project, id: root, trace_id, op_name: OPS[t.op], started_at: iso(at), attributes: {}, inputs: {} })];
  const ends: Json[] = [];
  t.children.forEach((c, i) => {
    starts.push(startItem({ project_id: project, id: children[i], trace_id, parent_id: root, op_name: 'child', started_at: iso(at + 1), attributes: {}, inputs: {} }));
    ends.push(endItem({ project_id: project, id: children[i], ended_at: iso(at + 2), summary: {}, ...(c.failed ? { exception: 'child failed' } : {}) }));
  });
  const rootEnd = endItem({ project_id: project, id: root, ended_at: iso(at + t.latencyMs), summary, ...(t.failed ? { exception: 'boom' } : {}) });
  if (t.childrenLate) ends.unshift(rootEnd);
  else ends.push(rootEnd);
  return { starts, ends, root, children };
}

/** The windows compared: whole hours, hours cut by the window's edges, buckets under an hour, each split. */
const WINDOWS: { start: number; end: number; granularity: number }[] = [
  { start: T0 - HOUR, end: T0 + 32 * HOUR, granularity: 3600 },
  { start: T0, end: T0 + 36 * HOUR, granularity: 21600 },
  { start: T0 + 10 * MIN, end: T0 + 30 * HOUR + 25 * MIN, granularity: 7200 },
  { start: T0 + 2 * HOUR, end: T0 + 5 * HOUR, granularity: 1800 },
];

/**
 * Asserts the overview of each window and split equals the live count alone: the 12 reads at once (nothing writes
 * meanwhile), each answer compared with its own live count.
 */
async function expectSameAsLive(project: string): Promise<void> {
  const calls = storeParts(server().store).calls;
  const reads = WINDOWS.flatMap((w) => ([null, 'op_name', 'model'] as const).map(async (groupBy) => {
    const edges = planBuckets(w.start, w.end, w.granularity, 'UTC').edges;
    const [res, live] = await Promise.all([
      post(server(), '/weft/calls/overview', { project_id: project, start: iso(w.start), end: iso(w.end), granularity: w.granularity, group_by: groupBy }),
      calls.overview({ projectId: project, startMs: w.start, endMs: w.end, edges, groupBy }, false),
    ]);
    expect(res.status).toBe(200);
    const { totals, buckets, groups } = (await res.json()) as Json;
    expect({ totals, buckets, groups }, `window ${iso(w.start)} ${w.granularity} s, ${groupBy}`).toEqual(JSON.parse(JSON.stringify(live)));
  }));
  await Promise.all(reads);
}

const refresh = (options: RefreshOptions = {}): Promise<number> =>
  refreshStaleHours(storeParts(server().store).calls, new Date(T0 + 400 * HOUR), { sliceRoots: 2, ...options });

/**
 * The job in slices of 2 roots, with `write` run between two slices (after every `after`-th, in its turn), and stopped
 * after `stopAfter` slices (the hour in progress given back) when set.
 */
async function slicedJob(after: number, stopAfter: number | null, write: (hour: string) => unknown): Promise<number> {
  const calls = storeParts(server().store).calls;
  const slice = calls.rollupHourSlice.bind(calls);
  let seen = 0;
  calls.rollupHourSlice = ((...args: Parameters<CallStore['rollupHourSlice']>) => {
    const out = slice(...args);
    if (++seen % after !== 0) return out;
    return out instanceof Promise ? out.then(async (v) => (await write(args[1]), v)) : (write(args[1]), out);
  }) as CallStore['rollupHourSlice'];
  try {
    return await refresh({ stopped: () => stopAfter !== null && seen >= stopAfter });
  } finally {
    calls.rollupHourSlice = slice;
  }
}

/**
 * Runs a workload: the steps `during` while the traces' items are sent (starts first, then ends), the rest of the
 * items, the job, the steps `after`; checks the overview against the live count, runs the job, checks again.
 * @returns how many hours the job refreshed.
 */
async function workload(traces: TraceSpec[], during: Step[], after: Step[]): Promise<number> {
  let rolledUp = 0;
  const project = uniqueProject('rollups');
  const made = traces.map((t) => traceItems(project, t));
  // all starts first, then the ends: ends arrive late, in batches of their own
  const pending = [...made.flatMap((m) => m.starts), ...made.flatMap((m) => m.ends)];
  // the overview hour of each call (its root's start)
  const hourOfCall = new Map(traces.flatMap((t, i) => [made[i]!.root, ...made[i]!.children].map((id) => [id, new Date(T0 + t.minute * MIN).toISOString().slice(0, 13)])));
  const sent: Json[][] = [];
  for (const step of [...during, { kind: 'send', items: pending.length }, { kind: 'job' }, ...after] as Step[]) {
    if (step.kind === 'send' && pending.length > 0) {
      const items = pending.splice(0, step.items);
      await batch(server(), items);
      sent.push(items);
    } else if (step.kind === 'resend' && sent.length > 0) {
      await batch(server(), sent[step.which % sent.length]!);
    } else if (step.kind === 'job') {
      rolledUp += await refresh();
    } else if (step.kind === 'slicedJob') {
      // the next items written between two slices of the job (straight to the store: in the slice's turn on SQLite)
      const calls = storeParts(server().store).calls;
      rolledUp += await slicedJob(step.after, step.stopAfter, (hour) => {
        // the items of the traces of the hour being refreshed first (a write behind or ahead of the job's cursor)
        const ofHour = pending.filter((item) => hourOfCall.get(callIdOf(item)) === hour).slice(0, step.items);
        const items = ofHour.length > 0 ? ofHour : pending.slice(0, step.items);
        for (const item of items) pending.splice(pending.indexOf(item), 1);
        if (items.length === 0) return undefined;
        sent.push(items);
        return calls.upsertBatch(items as never);
      });
    } else if (step.kind === 'delete') {
      const m = made[step.which % made.length]!;
      const id = step.root || m.children.length === 0 ? m.root : m.children[step.which % m.children.length]!;
      expect((await post(server(), '/calls/delete', { project_id: project, call_ids: [id] })).status).toBe(200);
    } else if (step.kind === 'retention') {
      expect((await post(server(), CALLS_DELETE_BEFORE_PATH, { project_id: project, before: iso(T0 + step.minute * MIN) })).status).toBe(200);
    }
  }
  await expectSameAsLive(project);
  rolledUp += await refresh();
  await expectSameAsLive(project);
  const stale = await storeRows<{ n: number }>(server(), 'SELECT count(*) AS n FROM call_rollup_marks WHERE project_id = ?', [project]);
  expect(Number(stale[0]!.n)).toBe(0);
  return rolledUp;
}

/** The call id of a start or end item. */
const callIdOf = (item: Json): string => {
  const req = item['req'] as Json;
  return ((req['start'] ?? req['end']) as Json)['id'] as string;
};

const trace = (over: Partial<TraceSpec>): TraceSpec => ({ minute: 90, op: 0, latencyMs: 1200, failed: false, counts: true, usage: [], children: [], childrenLate: false, ...over });

describe('overview rollups', () => {
  it('answer exactly what counting every root live answers, after any workload with the job run at any point', async () => {
    let rolledUp = 0;
    const steps = fc.array(stepArb, { minLength: 1, maxLength: 24 });
    await fc.assert(fc.asyncProperty(fc.array(traceArb, { minLength: 1, maxLength: 10 }), steps, steps, async (traces, during, after) => {
      rolledUp += await workload(traces, during, after);
    }), { numRuns: 25 });
    expect(rolledUp).toBeGreaterThan(0);
  }, 240_000);

  it('see a late end of a root, and a failure arriving below a root that ended without status_counts (Weave SDKs)', async () => {
    const usage = [{ model: 0, input: 10, output: 2 }];
    // starts, job, the root's end, job, the failed child's end: each write after the job must mark the root's hour
    const late = trace({ counts: false, usage, children: [{ failed: true }], childrenLate: true });
    const send1: Step = { kind: 'send', items: 1 };
    expect(await workload([late], [send1, send1, { kind: 'job' }, send1, { kind: 'job' }, send1], [])).toBeGreaterThan(0);
    expect(await workload([trace({ usage })], [send1, { kind: 'job' }, send1], [])).toBeGreaterThan(0);
  });

  it('see deletes and retention after the job', async () => {
    const two = [trace({ children: [{ failed: true }] }), trace({ minute: 200, usage: [{ model: 1, input: 5, output: 1 }] })];
    expect(await workload(two, [], [{ kind: 'delete', which: 0, root: false }, { kind: 'job' }, { kind: 'delete', which: 1, root: true }])).toBeGreaterThan(0);
    expect(await workload(two, [], [{ kind: 'retention', minute: 150 }])).toBeGreaterThan(0);
  });
});
