/**
 * One pass of online scoring: for each monitor, the calls of its op that ended after its progress, read in pages
 * (`ended_at`, then `id`), the sampled ones scored as evaluate() scores a row, each score stored as feedback on its
 * call (`wandb.runnable.<scorer>`, payload `{output}`, `runnable_ref` the scorer as an object ref, as Weave refers to
 * a scorer object: no scorer call is traced, so no `call_ref`; `trigger_ref` the monitor), then the progress saved.
 * @module
 */
import { setImmediate as turn } from 'node:timers/promises';
import type { FeedbackCreateReq } from '../../schema/feedback.js';
import { monitorTriggerRef, type Monitor } from '../../schema/monitors.js';
import { safeMessage } from '../../internal/safe-message.js';
import type { Scorer } from '../scorer.js';
import { sourceDigest } from '../source-digest.js';
import type { EndedCall, MonitorPort } from './monitor-port.js';
import { resolveScorer } from './monitor-scorer.js';
import { isSampled, monitorFeedbackId } from './sampling.js';

/** Options of a pass. */
export interface MonitorPassOptions {
  /** Calls read per page. @defaultValue 200 */
  pageSize?: number;
  /**
   * Only calls that ended at least this long ago are read, in ms, so a call whose end arrives a little late (a
   * client's batch in flight) is not passed by the progress. @defaultValue 10000
   */
  settleMs?: number;
  /** Receives one line per failure (a scorer that throws, a module that does not load). @defaultValue stderr */
  log?: (line: string) => void;
  /** Stops the pass after the page in progress. */
  signal?: AbortSignal;
}

/** What a pass did. */
export interface MonitorPassResult {
  /** Ended calls read, over every monitor. */
  read: number;
  /** Feedback items written (one per sampled call whose scorer answered). */
  scored: number;
}

/** A resolved scorer: its name, function and version. */
interface Prepared { name: string; fn: Scorer; digest: string }

/** The `/calls/stream_query` body of a page of a monitor's ended calls after its progress, ended before `until`. */
export function endedCallsQuery(m: Monitor, until: string, limit: number): Record<string, unknown> & { project_id: string } {
  const ended = { $getField: 'ended_at' };
  const after = m.cursor_ended_at === null
    ? { $gt: [ended, { $literal: '' }] }
    : { $or: [{ $gt: [ended, { $literal: m.cursor_ended_at }] }, { $and: [{ $eq: [ended, { $literal: m.cursor_ended_at }] }, { $gt: [{ $getField: 'id' }, { $literal: m.cursor_call_id }] }] }] };
  return {
    project_id: m.project_id, filter: { op_names: [m.op_name] }, limit,
    query: { $expr: { $and: [after, { $lt: [ended, { $literal: until }] }] } },
    sort_by: [{ field: 'ended_at', order: 'asc' }, { field: 'id', order: 'asc' }],
    columns: ['id', 'op_name', 'ended_at', 'inputs', 'output', 'exception'],
  };
}

/** Runs monitors over a port; keeps each monitor's resolved scorer (and its judge's rate limit) across passes. */
export class MonitorRunner {
  readonly #scorers = new Map<string, Promise<Prepared>>();

  constructor(private readonly port: MonitorPort, private readonly options: MonitorPassOptions = {}) {}

  /** One pass over every monitor; a failing monitor is logged and the others run. Never throws. */
  async pass(signal = this.options.signal): Promise<MonitorPassResult> {
    const result: MonitorPassResult = { read: 0, scored: 0 };
    let monitors: Monitor[];
    try {
      monitors = await this.port.monitors();
    } catch (e) {
      this.log(`monitors: cannot list the monitors: ${safeMessage(e)}`);
      return result;
    }
    for (const m of monitors) {
      if (signal?.aborted) break;
      try {
        await this.runMonitor(m, result, signal);
      } catch (e) {
        this.log(`monitor ${m.id} (${m.op_name}, ${m.scorer}): ${safeMessage(e)}`);
      }
    }
    return result;
  }

  /** Reads the monitor's pages until none is left, scoring and saving progress page by page. */
  private async runMonitor(m: Monitor, result: MonitorPassResult, signal: AbortSignal | undefined): Promise<void> {
    const scorer = await this.scorer(m);
    const pageSize = this.options.pageSize ?? 200;
    const until = new Date(Date.now() - (this.options.settleMs ?? 10_000)).toISOString();
    let cursor = m;
    for (;;) {
      const page = await this.port.query(endedCallsQuery(cursor, until, pageSize));
      if (page.length === 0) return;
      result.read += page.length;
      const items = await Promise.all(page.filter((c) => c.exception == null && isSampled(c.id, m.sample_rate)).map((c) => this.score(m, scorer, c)));
      const feedback = items.filter((f): f is FeedbackCreateReq => f !== undefined);
      if (feedback.length > 0) await this.port.writeFeedback(feedback);
      result.scored += feedback.length;
      const last = page[page.length - 1]!;
      if (!(await this.port.saveProgress(m, last.ended_at!, last.id))) return; // removed meanwhile
      cursor = { ...cursor, cursor_ended_at: last.ended_at!, cursor_call_id: last.id };
      if (page.length < pageSize || signal?.aborted) return;
      await turn(); // a page at a time: ingestion gets its turns between them
    }
  }

  /** The feedback of one call's score, or undefined when the scorer threw (logged). */
  private async score(m: Monitor, s: Prepared, call: EndedCall): Promise<FeedbackCreateReq | undefined> {
    let output: unknown;
    try {
      output = await s.fn({ row: (call.inputs ?? {}) as Record<string, unknown>, output: call.output, expected: undefined });
    } catch (e) {
      this.log(`monitor ${m.id}: the ${s.name} scorer failed on call ${call.id}: ${safeMessage(e)}`);
      return undefined;
    }
    if (output === undefined) return undefined;
    const p = m.project_id;
    return {
      id: monitorFeedbackId(m.id, call.id), project_id: p, svc_ref: `svc:///${p}/call/${call.id}`, feedback_type: `wandb.runnable.${s.name}`,
      payload: { output }, runnable_ref: `svc:///${p}/object/${s.name}:${s.digest}`, trigger_ref: monitorTriggerRef(p, m.id), creator: 'weft monitor',
    };
  }

  private scorer(m: Monitor): Promise<Prepared> {
    const key = `${m.id}\u0000${m.scorer}`;
    let found = this.#scorers.get(key);
    if (!found) {
      found = resolveScorer(m.scorer, m.options).then(({ name, fn }) => ({ name, fn, digest: sourceDigest(fn) }));
      found.catch(() => this.#scorers.delete(key)); // a module fixed later loads at the next pass
      this.#scorers.set(key, found);
    }
    return found;
  }

  private log(line: string): void {
    (this.options.log ?? ((l: string) => console.error(l)))(line);
  }
}
