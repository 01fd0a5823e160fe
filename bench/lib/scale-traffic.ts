// Upsert-batch items of a big project shaped like real traffic (bench/scale.bench.ts): traces of 1-20 calls (a root
// and its children, some nested), a few 10,000-call traces, several ops and models, 2% errors, start times spread
// over 30 days in time order, ids time-ordered (UUIDv7-shaped, lib/calls-db.ts `idAt`).
import { idAt } from './calls-db.js';

/** Ops of a trace's root, and of its children (LLM calls carry a model's usage). */
export const ROOT_OPS = ['agent', 'chat', 'rag_answer'];
export const CHILD_OPS = ['llm', 'tool', 'retrieve', 'embed', 'parse', 'rerank'];
const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4'];
/** Calls of a big trace. */
export const BIG_TRACE_SIZE = 10_000;
const DAY_MS = 86_400_000;

/** The traffic to seed. */
export interface TrafficShape {
  project: string;
  /** Calls in all (big traces included). */
  calls: number;
  /** Traces of {@link BIG_TRACE_SIZE} calls, spread over the window. */
  bigTraces: number;
  /** The window's end (epoch ms); it starts `days` earlier. */
  endMs: number;
  days: number;
}

/** A small, fast deterministic hash of an integer (for sizes, ops and errors). */
const mix = (n: number): number => {
  let x = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
};

/** What the generator wrote: the ids a bench reads back. */
export interface TrafficIds {
  /** Trace ids of the big traces. */
  bigTraces: string[];
  /** Some call ids, spread over the window. */
  calls: string[];
}

/**
 * Batches of `batchCalls` calls (each call's start item then its end item, as a traced program's batch holds them), in
 * time order, until `shape.calls` calls; fills `ids` as it goes.
 */
export function* trafficBatches(shape: TrafficShape, batchCalls: number, ids: TrafficIds): Generator<Record<string, unknown>[]> {
  const { project, calls } = shape;
  const startMs = shape.endMs - shape.days * DAY_MS;
  const spanMs = shape.days * DAY_MS;
  let seq = 0;
  let batch: Record<string, unknown>[] = [];
  let nextBig = 0;
  const bigAt = (j: number): number => Math.floor((calls * (j + 1)) / (shape.bigTraces + 1));
  for (let trace = 0; seq < calls; trace++) {
    const h = mix(trace);
    const big = nextBig < shape.bigTraces && seq >= bigAt(nextBig);
    if (big) nextBig++;
    const size = Math.min(calls - seq, big ? BIG_TRACE_SIZE : 1 + (h % 20));
    const t0 = startMs + Math.floor((seq / calls) * spanMs);
    const rootId = idAt(t0, seq);
    if (big) ids.bigTraces.push(rootId);
    // each child's parent: the root, or (one in four) the call before it, so some trees are nested
    let previous = rootId;
    for (let j = 0; j < size; j++, seq++) {
      const ms = t0 + j;
      const id = j === 0 ? rootId : idAt(ms, seq);
      const k = mix(seq);
      const op = j === 0 ? ROOT_OPS[h % ROOT_OPS.length]! : CHILD_OPS[k % CHILD_OPS.length]!;
      const parent = j === 0 ? null : (k >>> 8) % 4 === 0 ? previous : rootId;
      const error = (k >>> 12) % 50 === 0;
      const model = op === 'llm' ? MODELS[(k >>> 16) % MODELS.length]! : undefined;
      const usage = model ? { [model]: { requests: 1, prompt_tokens: 200 + (k % 800), completion_tokens: 50 + (k % 300), total_tokens: 250 + (k % 1100) } } : {};
      batch.push({ mode: 'start', req: { start: { project_id: project, id, trace_id: rootId, parent_id: parent, op_name: op, started_at: new Date(ms).toISOString(), inputs: { question: `question ${seq}`, k: k % 1000 }, attributes: {} } } });
      batch.push({ mode: 'end', req: { end: {
        project_id: project, id, ended_at: new Date(ms + 1 + (k % 900)).toISOString(), output: error ? null : `answer ${seq}`,
        ...(error ? { exception: { type: 'ValueError', message: `bad input ${seq}` } } : {}),
        summary: { status_counts: { success: error ? 0 : 1, error: error ? 1 : 0 }, usage },
      } } });
      if (seq % Math.max(1, Math.floor(calls / 64)) === 0) ids.calls.push(id);
      previous = id;
      if (batch.length >= batchCalls * 2) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}
