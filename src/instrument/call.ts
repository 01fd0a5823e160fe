/**
 * The in-memory Call: ids, timing, summary, and the start and end events it becomes on the wire.
 * @module
 */
import type { EndedCallSchemaForInsert, StartedCallSchemaForInsert } from '../schema/calls.js';
import type { TraceContext } from './context.js';
import { isoTime, newId } from './ids.js';
import { emptySummary, mergeSummary, type SummaryData } from './summary.js';

/** What a new call needs to know. */
export interface CallInit {
  projectId: string;
  opName: string;
  inputs: Record<string, unknown>;
  attributes: Record<string, unknown>;
  parent: Call | undefined;
  displayName?: string | undefined;
  userId?: string | undefined;
  /** The context the call starts in: thread, turn and run come from it. */
  context?: TraceContext | undefined;
}

/** How a call ended: returned, threw, or (a stream) was abandoned by its consumer. */
export type CallOutcome = 'success' | 'error' | 'cancelled';

/** One traced invocation of an op. */
export class Call {
  readonly id: string = newId();
  readonly traceId: string;
  readonly parentId: string | undefined;
  readonly opName: string;
  readonly projectId: string;
  readonly startedAtMs: number = Date.now();
  readonly summary: SummaryData = emptySummary();
  /** `thread_id`, from `withThread()`. */
  readonly threadId: string | undefined;
  /** `turn_id`: `withThread()`'s `turnId`, else the id of the thread's outermost call in this trace. */
  readonly turnId: string | undefined;
  private readonly parent: Call | undefined;
  /** True once {@link Call.end} has run. */
  ended = false;

  constructor(private readonly init: CallInit) {
    this.parent = init.parent;
    this.traceId = init.parent?.traceId ?? this.id;
    this.parentId = init.parent?.id;
    this.opName = init.opName;
    this.projectId = init.projectId;
    const ctx = init.context;
    this.threadId = ctx?.threadId;
    this.turnId = ctx?.threadId === undefined ? undefined : (ctx.turnId ?? (this.parent?.threadId === ctx.threadId ? this.parent.turnId : this.id));
  }

  /** The start item body (`StartedCallSchemaForInsert`). */
  startEvent(): StartedCallSchemaForInsert {
    const ev: StartedCallSchemaForInsert = {
      project_id: this.projectId,
      id: this.id,
      trace_id: this.traceId,
      op_name: this.opName,
      started_at: isoTime(this.startedAtMs),
      inputs: this.init.inputs,
      attributes: this.init.attributes,
    };
    if (this.parentId) ev.parent_id = this.parentId;
    if (this.init.displayName) ev.display_name = this.init.displayName;
    if (this.init.userId) ev.svc_user_id = this.init.userId;
    if (this.threadId !== undefined) ev.thread_id = this.threadId;
    if (this.turnId !== undefined) ev.turn_id = this.turnId;
    const run = this.init.context?.run;
    if (run) {
      ev.svc_run_id = run.runId;
      if (run.step !== undefined) ev.svc_run_step = run.step;
    }
    return ev;
  }

  /**
   * Ends the call once (later calls return `undefined`): counts its own outcome in
   * `summary.status_counts` (`success`, `error` or `cancelled`), merges its summary into the parent's,
   * and returns the end item body.
   */
  end(output: unknown, exception: EndedCallSchemaForInsert['exception'], outcome: CallOutcome = exception ? 'error' : 'success'): EndedCallSchemaForInsert | undefined {
    if (this.ended) return undefined;
    this.ended = true;
    const counts = this.summary.status_counts;
    counts[outcome] = (counts[outcome] ?? 0) + 1;
    if (this.parent && !this.parent.ended) mergeSummary(this.parent.summary, this.summary);
    const ev: EndedCallSchemaForInsert = {
      project_id: this.projectId,
      id: this.id,
      ended_at: isoTime(Date.now()),
      summary: this.summary,
    };
    if (exception) ev.exception = exception;
    else ev.output = output;
    return ev;
  }
}
