/**
 * TraceSampler: the sink `init({ sampling })` puts in front of the exporter. It sends a trace whole or not at all:
 * kept by the rate (decided from the trace id at its first call), or held until its last open call here ends and
 * kept when a tail rule matches (a failure, a slow call, a chosen attribute); held calls are bounded in memory.
 * @module
 */
import { diag } from '../internal/diag.js';
import { otelLeftOut } from '../internal/otel-global.js';
import { keptByRate } from '../internal/trace-ratio.js';
import type { FeedbackCreateReq } from '../schema/feedback.js';
import type { EndedCallSchemaForInsert, StartedCallSchemaForInsert } from '../schema/calls.js';
import type { CallSink, ExportReport } from '../instrument/sink.js';
import { samplingStats } from './sampling-stats.js';
import { hasTailRules, type SamplingConfig } from './sampling-options.js';

type Held = { start: StartedCallSchemaForInsert } | { end: EndedCallSchemaForInsert };

/** One trace seen in this process: its calls still open here, and its events while no decision is made. */
interface TraceState {
  readonly traceId: string;
  open: number;
  /** `undefined` while held; then whether it is sent. */
  kept: boolean | undefined;
  /** Events held in order (only while `kept` is undefined). */
  events: Held[];
  calls: number;
}

/** Traces decided and closed here, remembered so a call that starts later in the same trace follows them. */
const REMEMBERED = 4096;

export class TraceSampler implements CallSink {
  private readonly traces = new Map<string, TraceState>();
  private readonly traceOfCall = new Map<string, TraceState>();
  private readonly closed = new Map<string, boolean>();
  private readonly tail: boolean;
  private held = 0;

  constructor(
    readonly inner: CallSink,
    private readonly config: SamplingConfig,
  ) {
    this.tail = hasTailRules(config);
  }

  get projectId(): string {
    return this.inner.projectId;
  }
  get userId(): string | undefined {
    return this.inner.userId;
  }
  get connection(): CallSink['connection'] {
    return this.inner.connection;
  }

  start(start: StartedCallSchemaForInsert): void {
    const traceId = start.trace_id ?? start.id ?? '';
    let t = this.traces.get(traceId);
    if (t === undefined) {
      const decided = this.closed.get(traceId);
      // a trace first seen here under an OTel span whose sampled flag is off was left out upstream: left out whole
      // (no tail rule: the caller sends nothing of it), as an MCP `traceparent` ending in -00 is
      const kept = decided ?? (otelLeftOut(traceId) ? false : keptByRate(traceId, this.config.rate) ? true : this.tail ? undefined : false);
      t = { traceId, open: 0, kept, events: [], calls: 0 };
      this.traces.set(traceId, t);
    }
    t.open++;
    t.calls++;
    if (start.id != null) this.traceOfCall.set(start.id, t);
    if (t.kept === true) return this.inner.start(start);
    if (t.kept === false) return;
    t.events.push({ start });
    this.held++;
    if (this.config.keepAttributes.length > 0 && this.config.keepAttributes.some((k) => Object.hasOwn(start.attributes ?? {}, k))) t.kept = true;
    if (t.kept === true) this.release(t, false);
    else if (this.held > this.config.maxHeldCalls) this.release(t, true);
  }

  end(end: EndedCallSchemaForInsert): void {
    const t = this.traceOfCall.get(end.id);
    if (t === undefined) return this.inner.end(end); // a call that started before sampling was set up
    this.traceOfCall.delete(end.id);
    t.open--;
    if (t.kept === true) this.inner.end(end);
    else if (t.kept === undefined) {
      t.events.push({ end });
      if (this.matches(t, end)) this.release(t, false);
    }
    if (t.open === 0) this.close(t);
  }

  /** True when `traceId` is left out whatever happens in it: upstream (an OTel parent not sampled), or by the rate with no tail rule set. */
  leavesOut(traceId: string): boolean {
    return this.traces.get(traceId)?.kept === false || (!this.tail && !keptByRate(traceId, this.config.rate));
  }

  feedback(item: FeedbackCreateReq): void {
    this.inner.feedback(item);
  }

  flush(timeoutMs?: number): Promise<ExportReport> {
    return this.inner.flush(timeoutMs);
  }

  /** Sends the traces still held (undecided: sent, not lost), then shuts the exporter down. */
  shutdown(timeoutMs?: number): Promise<ExportReport> {
    this.releaseAll();
    this.report();
    return this.inner.shutdown(timeoutMs);
  }

  /** Sends every trace still held (undecided: sent, not lost); their later calls pass straight through. */
  releaseAll(): void {
    for (const t of this.traces.values()) if (t.kept === undefined) this.release(t, false);
  }

  /** Says once how many traces sampling left out (at shutdown, or at exit). */
  report(): void {
    const s = samplingStats;
    if (s.sampledOutTraces === 0 && s.keptTraces === 0) return;
    diag.once('sampling-report', 'warn', `sampling: sent ${s.keptTraces} trace(s), left out ${s.sampledOutTraces} (${s.sampledOutCalls} calls)${s.overBoundTraces > 0 ? `; ${s.overBoundTraces} sent early, over maxHeldCalls` : ''} (getExportStats().sampling)`);
  }

  /** True when an ended call makes a tail rule keep its trace. */
  private matches(t: TraceState, end: EndedCallSchemaForInsert): boolean {
    if (this.config.keepErrors && end.exception != null) return true;
    const slow = this.config.keepSlowerThanMs;
    if (slow === undefined) return false;
    const start = t.events.find((e) => 'start' in e && e.start.id === end.id) as { start: StartedCallSchemaForInsert } | undefined;
    return start !== undefined && Date.parse(end.ended_at) - Date.parse(start.start.started_at) > slow;
  }

  /** Sends a held trace's events in order; the rest of it passes straight through. */
  private release(t: TraceState, overBound: boolean): void {
    t.kept = true;
    this.held -= t.events.filter((e) => 'start' in e).length;
    for (const e of t.events) {
      if ('start' in e) this.inner.start(e.start);
      else this.inner.end(e.end);
    }
    t.events = [];
    if (overBound) samplingStats.overBoundTraces++;
  }

  /** The trace's last open call here ended: a held trace is left out now; either way the decision is remembered. */
  private close(t: TraceState): void {
    if (t.kept === undefined) {
      t.kept = false;
      this.held -= t.events.filter((e) => 'start' in e).length;
      t.events = [];
    }
    this.traces.delete(t.traceId);
    if (t.kept) samplingStats.keptTraces++;
    else {
      samplingStats.sampledOutTraces++;
      samplingStats.sampledOutCalls += t.calls;
    }
    this.closed.set(t.traceId, t.kept);
    if (this.closed.size > REMEMBERED) this.closed.delete(this.closed.keys().next().value as string);
  }
}
