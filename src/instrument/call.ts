/**
 * The in-memory Call: ids, timing, summary, and the start and end events it becomes on the wire.
 * @module
 */
import type { EndedCallSchemaForInsert, StartedCallSchemaForInsert } from '../schema/calls.js';
import type { RunState, TraceContext } from './context.js';
import { newId } from '../internal/ids.js';
import { isoTime } from './iso-time.js';
import { emptySummary, mergeSummary, type SummaryData } from './summary.js';

/** How a call ended: returned, threw, or (a stream) was abandoned by its consumer. */
export type CallOutcome = 'success' | 'error' | 'cancelled';

/** The summary of a call that ended with nothing in it but itself: shared and frozen (events are never changed). */
const LEAF_SUMMARY: Readonly<Record<CallOutcome, SummaryData>> = {
  success: leafSummary('success'),
  error: leafSummary('error'),
  cancelled: leafSummary('cancelled'),
};

function leafSummary(outcome: CallOutcome): SummaryData {
  const summary = countOutcome(emptySummary(), outcome);
  if (outcome === 'cancelled') summary.cancelled = true;
  Object.freeze(summary.status_counts);
  return Object.freeze(summary);
}

/** Adds one call with `outcome` to `summary.status_counts`. */
function countOutcome(summary: SummaryData, outcome: CallOutcome): SummaryData {
  const counts = summary.status_counts;
  counts[outcome] = (counts[outcome] ?? 0) + 1;
  return summary;
}

/** One traced invocation of an op. */
export class Call {
  readonly startedAtMs: number = Date.now();
  readonly id: string = newId(this.startedAtMs);
  readonly traceId: string;
  readonly parentId: string | undefined;
  /** Made on first use: a call without children, usage or summary fields never needs its own. */
  private ownSummary: SummaryData | undefined;
  /** `thread_id`, from `withThread()`. */
  readonly threadId: string | undefined;
  /** `turn_id`: `withThread()`'s `turnId`, else the id of the thread's outermost call in this trace. */
  readonly turnId: string | undefined;
  /** The summary being built while the call runs: children's counts and usage, `summarize()` fields. */
  get summary(): SummaryData {
    return (this.ownSummary ??= emptySummary());
  }

  /** True once {@link Call.end} has run. */
  ended = false;

  /**
   * @param context - the context the call starts in: thread, turn and run come from it.
   */
  constructor(
    readonly projectId: string,
    readonly opName: string,
    private readonly parent: Call | undefined,
    private readonly context: TraceContext | undefined,
  ) {
    this.traceId = parent?.traceId ?? this.id;
    this.parentId = parent?.id;
    const threadId = context?.threadId;
    this.threadId = threadId;
    this.turnId = threadId === undefined ? undefined : (context?.turnId ?? (parent?.threadId === threadId ? parent.turnId : this.id));
  }

  /** The start item body (`StartedCallSchemaForInsert`), with what the call records besides ids, op name and time. */
  startEvent(
    inputs: Record<string, unknown>,
    attributes: Record<string, unknown>,
    displayName: string | undefined,
    userId: string | undefined,
  ): StartedCallSchemaForInsert {
    const ev: StartedCallSchemaForInsert = {
      project_id: this.projectId,
      id: this.id,
      trace_id: this.traceId,
      op_name: this.opName,
      started_at: isoTime(this.startedAtMs),
      inputs,
      attributes,
    };
    if (this.parentId) ev.parent_id = this.parentId;
    if (displayName) ev.display_name = displayName;
    if (userId) ev.svc_user_id = userId;
    if (this.threadId !== undefined) ev.thread_id = this.threadId;
    if (this.turnId !== undefined) ev.turn_id = this.turnId;
    const run: RunState | undefined = this.context?.run;
    if (run) {
      ev.svc_run_id = run.runId;
      if (run.step !== undefined) ev.svc_run_step = run.step;
    }
    return ev;
  }

  /**
   * Ends the call once (later calls return `undefined`): counts its own outcome in
   * `summary.status_counts` (`success`, `error` or `cancelled`), merges its summary into the parent's,
   * and returns the end item body. A cancelled call also gets `summary.cancelled: true` (its own only).
   */
  end(output: unknown, exception: EndedCallSchemaForInsert['exception'], outcome: CallOutcome = exception ? 'error' : 'success'): EndedCallSchemaForInsert | undefined {
    if (this.ended) return undefined;
    this.ended = true;
    const own = this.ownSummary;
    const summary = own === undefined ? LEAF_SUMMARY[outcome] : countOutcome(own, outcome);
    if (this.parent && !this.parent.ended) mergeSummary(this.parent.summary, summary);
    // Its own, not merged up: the server derives `summary.status: "cancelled"` from it.
    if (own !== undefined && outcome === 'cancelled') own.cancelled = true;
    const ev: EndedCallSchemaForInsert = {
      project_id: this.projectId,
      id: this.id,
      ended_at: isoTime(Date.now()),
      summary,
    };
    if (exception) ev.exception = exception;
    else ev.output = output;
    return ev;
  }
}
