/**
 * The in-memory Call: ids, timing, summary, and the start and end events it becomes on the wire.
 * @module
 */
import type { CallException, EndedCallSchemaForInsert, StartedCallSchemaForInsert } from '../schema/calls.js';
import { newId } from '../internal/ids.js';
import { isoTime } from './iso-time.js';
import { closeSummary, emptySummary, interruptedSummary, type CallOutcome, type SummaryData } from './summary.js';

/** The run a call belongs to (`svc_run_id`, `svc_run_step`); `step` changes with `setRunStep()`. */
export interface RunState {
  readonly runId: string;
  step: number | undefined;
}

/** What a call reads from the context it starts in (a `TraceContext` of context.ts is one). */
export interface CallContext {
  /** The call whose body is running. */
  readonly call?: Call | undefined;
  /** `thread_id` and `turn_id` from `withThread()`. */
  readonly threadId?: string;
  readonly turnId?: string | undefined;
  /** The run from `withRun()`. */
  readonly run?: RunState;
}

/** Ids chosen for a call instead of the defaults (the OTel context hook, `otel-hook.ts`). */
export interface CallIds {
  id: string;
  traceId: string;
  parentId: string | undefined;
}

/** What a {@link Call} starts from. */
export interface CallInit {
  /** `project_id` of its events, `<entity>/<project>`. */
  projectId: string;
  /** `op_name` of its events. */
  opName: string;
  /** The context the call starts in: its parent call, thread, turn and run come from it. */
  context: CallContext | undefined;
  /** Id, trace id and parent id to use (an OTel parent span). @defaultValue a new UUIDv7, the parent's trace and id */
  ids?: CallIds | undefined;
  /** When the call started, in ms since the epoch (a framework's span that began before weft heard of it). @defaultValue now */
  startedAtMs?: number | undefined;
}

/** One traced invocation of an op. */
export class Call {
  readonly startedAtMs: number;
  readonly id: string;
  readonly traceId: string;
  readonly parentId: string | undefined;
  /** Made on first use: a call without children, usage or summary fields never needs its own. */
  private ownSummary: SummaryData | undefined;
  /** `thread_id`, from `withThread()`. */
  readonly threadId: string | undefined;
  /** `turn_id`: `withThread()`'s `turnId`, else the id of the thread's outermost call in this trace. */
  readonly turnId: string | undefined;
  /** The summary its children merge their counts and usage into while it runs. */
  private get summary(): SummaryData {
    return (this.ownSummary ??= emptySummary());
  }

  /** True once {@link Call.end} has run. */
  ended = false;

  readonly projectId: string;
  readonly opName: string;
  /** The weft call this one started under (its context's call), whether or not it is the stored parent. */
  readonly parent: Call | undefined;
  private readonly context: CallContext | undefined;

  constructor({ projectId, opName, context, ids, startedAtMs }: CallInit) {
    this.startedAtMs = startedAtMs ?? Date.now();
    this.projectId = projectId;
    this.opName = opName;
    const parent = context?.call;
    this.parent = parent;
    this.context = context;
    this.id = ids?.id ?? newId(this.startedAtMs);
    this.traceId = ids?.traceId ?? parent?.traceId ?? this.id;
    this.parentId = ids ? ids.parentId : parent?.id;
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

  /** Sets `key` on this call's own summary as given (not merged into the parent's), while it runs (e.g. `cache`). */
  setSummaryField(key: string, value: unknown): void {
    if (!this.ended) this.summary[key] = value;
  }

  /**
   * Ends the call once (later calls return `undefined`) with `outcome` and returns the end item body:
   * `output` or `exception`, and the summary (see {@link closeSummary}; `extra` holds the `summarize`
   * fields), which is merged into the parent's while the parent runs.
   */
  end(outcome: CallOutcome, output: unknown, exception: CallException | undefined, extra: Record<string, unknown> | undefined): EndedCallSchemaForInsert | undefined {
    if (this.ended) return undefined;
    this.ended = true;
    const parent = this.countingParent();
    return this.endEvent(closeSummary(this.ownSummary, outcome, extra, parent), output, exception, parent);
  }

  /**
   * Ends the call once, as cut short by the process exiting: `exception` says why, and the summary's
   * `status_counts` are those of its children (the call itself is not counted). `undefined` if it had ended.
   */
  interrupt(exception: CallException): EndedCallSchemaForInsert | undefined {
    if (this.ended) return undefined;
    this.ended = true;
    const parent = this.countingParent();
    return this.endEvent(interruptedSummary(this.ownSummary, parent), undefined, exception, parent);
  }

  /**
   * The summary this call's counts and usage merge into: its weft parent's while that runs, when the parent is also
   * its stored parent. Under an OTel span (the OTel context hook) the span is the stored parent: the server rolls the
   * call up through the span (packages/weft-server/src/server/calls/write/rollup.ts), so counting it here too would count it twice.
   */
  private countingParent(): SummaryData | undefined {
    const parent = this.parent;
    return parent && !parent.ended && parent.id === this.parentId ? parent.summary : undefined;
  }

  /**
   * The end item; `counting` is the summary this call's was merged into (none: a call with a stored parent says
   * `counted_in_parent: false`, so the server adds it up the trace: the parent is in another process, an OTel span, or ended).
   */
  private endEvent(summary: SummaryData, output: unknown, exception: CallException | undefined, counting: SummaryData | undefined): EndedCallSchemaForInsert {
    const ev: EndedCallSchemaForInsert = {
      project_id: this.projectId,
      id: this.id,
      ended_at: isoTime(Date.now()),
      summary,
    };
    if (exception) ev.exception = exception;
    else ev.output = output;
    // the run step when the call ended (`setRunStep` may have moved it since the start), as Weave's `wb_run_step_end`
    const step = this.context?.run?.step;
    if (step !== undefined) ev.svc_run_step_end = step;
    if (counting === undefined && this.parentId !== undefined) ev.counted_in_parent = false;
    return ev;
  }
}
