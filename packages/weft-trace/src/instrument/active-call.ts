/**
 * ActiveCall: a call in flight (the call, its op, sink, settings and context) and the verbs that end it: succeed, fail, cancel; chunk for streams.
 * @module
 */
import { truncatedMark } from '../internal/truncation.js';
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import type { CallException } from '../schema/calls.js';
import { Call } from './call.js';
import type { Context as OtelContext } from '@opentelemetry/api';
import { bridgedIds } from './otel-hook.js';
import { captureAttributes, captureDisplayName, captureInputs, captureOutput, captureSummary, describeError } from './capture.js';
import type { TraceContext } from './context.js';
import type { OpDefinition } from './op-definition.js';
import { addOpenCall, removeOpenCall, type OpenCall } from './open-calls.js';
import type { CallSink } from './sink.js';
import { streamKind, wrapStream, type StreamObserver } from './streams.js';
import type { CallOutcome } from './summary.js';
import type { Settler } from './thenable.js';
import type { TraceSettings } from './trace-settings.js';

/** Output recorded when `streamReducer` threw. */
export const REDUCER_FAILED = '[streamReducer threw]';

/** `exception.type` of a call ended because the process exited while it ran. */
export const INTERRUPTED = 'WeftInterrupted';

const UNRESOLVED = Symbol('unresolved');

/**
 * Starts a call of `op` with `args` in the context `parent` (thread, turn, run and parent call come from
 * it): makes the call and queues its start event. `undefined` if anything in tracing failed. With `otelCtx`
 * (a context manager is registered: the active OTel context) the ids come from it (`bridgedIds`); `startedAtMs`
 * dates the call's start (a framework span already running), else now.
 */
export function startCall(
  op: OpDefinition,
  args: unknown[],
  sink: CallSink,
  settings: TraceSettings,
  parent: TraceContext | undefined,
  otelCtx?: OtelContext,
  startedAtMs?: number,
): ActiveCall | undefined {
  try {
    const ids = otelCtx ? bridgedIds(otelCtx, parent?.call, Date.now()) : undefined;
    const call = new Call({ projectId: sink.projectId, opName: op.name, context: parent, ids, startedAtMs });
    const inputs = captureInputs(op, args, settings);
    const attributes = captureAttributes(op, parent?.attributes, settings);
    sink.start(call.startEvent(inputs, attributes, captureDisplayName(op, args), sink.userId));
    const active = new ActiveCall(call, op, sink, settings, { ...parent, call });
    addOpenCall(active);
    return active;
  } catch (err) {
    diag.warn(`could not start a call of op "${op.name}": ${safeMessage(err)}`);
    return undefined;
  }
}

/**
 * A started call until it ends: once, by the first of {@link ActiveCall.succeed}, {@link ActiveCall.fail},
 * {@link ActiveCall.cancel} or {@link ActiveCall.complete}. A returned thenable or stream reports to it
 * (it is their {@link Settler} and {@link StreamObserver}); it collects a stream's chunks until then.
 */
export class ActiveCall implements Settler, StreamObserver, OpenCall {
  prevOpen: OpenCall | undefined = undefined;
  nextOpen: OpenCall | undefined = undefined;
  private count = 0;
  private chunks: unknown[] | undefined;
  private accumulated: unknown;
  private reducerFailed = false;
  private handedOn: unknown = UNRESOLVED;
  /** The value of the first settlement, which {@link ActiveCall.handedOn} stands for. */
  private firstValue: unknown;

  constructor(
    readonly call: Call,
    private readonly op: OpDefinition,
    private readonly sink: CallSink,
    private readonly settings: TraceSettings,
    /** The context the function's body runs in (the call's); each `next()` of a stream runs in it. */
    readonly ctx: TraceContext,
  ) {}

  /** The function returned `value` (not a thenable or stream), or its thenable fulfilled with it. */
  succeed(value: unknown): void {
    this.end('success', value, undefined);
  }

  /** The function threw `err`, or its thenable or stream failed with it. */
  fail(err: unknown): void {
    this.end('error', undefined, err);
  }

  /** The consumer stopped reading the stream early: ends with what was read so far, counted as cancelled. */
  cancel(): void {
    this.end('cancelled', this.streamOutput(), undefined, this.omitted());
  }

  /** The stream is exhausted: succeeds with the chunks read (or the `streamReducer` result). */
  complete(): void {
    this.end('success', this.streamOutput(), undefined, this.omitted());
  }

  /** The process is exiting while the call runs (or its stream is unread): ends it with a `WeftInterrupted` exception. */
  interrupt(reason: string): void {
    const { call } = this;
    if (call.ended) return;
    removeOpenCall(this);
    try {
      const end = call.interrupt({ type: INTERRUPTED, message: `process exited while the call was running (${reason})` });
      if (end) this.sink.end(end);
    } catch (e) {
      diag.warn(`could not end an interrupted call of op "${this.op.name}": ${safeMessage(e)}`);
    }
  }

  /** A chunk the consumer received: folded by `streamReducer`, else kept up to `maxStreamChunks`. */
  chunk(value: unknown): void {
    const index = this.count++;
    const reducer = this.op.options.streamReducer;
    if (reducer) {
      if (this.reducerFailed) return;
      try {
        this.accumulated = reducer(this.accumulated, value as never, index);
      } catch (err) {
        this.reducerFailed = true;
        diag.warn(`streamReducer of op "${this.op.name}" threw: ${safeMessage(err)}`);
      }
      return;
    }
    const max = this.op.options.maxStreamChunks ?? this.settings.maxStreamChunks;
    const chunks = (this.chunks ??= []);
    if (chunks.length < max) chunks.push(value);
  }

  /**
   * A returned thenable fulfilled with `value`. The first settlement ends the call (or starts tracing
   * the stream it fulfilled with). Later ones (the caller awaiting the same thenable again, or another
   * of its methods such as `withResponse()` or a builder branch) get their own value back unchanged,
   * except the very same stream, which gets the same traced wrapper.
   */
  resolved(value: unknown): unknown {
    if (this.handedOn !== UNRESOLVED) return value === this.firstValue ? this.handedOn : value;
    this.firstValue = value;
    const kind = streamKind(value);
    if (kind) this.handedOn = wrapStream(kind, value, this);
    else {
      this.handedOn = value;
      this.succeed(value);
    }
    return this.handedOn;
  }

  /**
   * Ends the call once with `value` (success, cancelled) or `err` (error) and queues its end event; never
   * throws. `omittedChunks` (streams over `maxStreamChunks`) adds a `"[truncated N chunks]"` marker to a
   * recorded array output, after `postprocessOutput` and `summarize` saw the kept chunks alone.
   */
  private end(outcome: CallOutcome, value: unknown, err: unknown, omittedChunks = 0): void {
    const { call, op, settings } = this;
    if (call.ended) return;
    removeOpenCall(this);
    try {
      let output: unknown;
      let exception: CallException | undefined;
      let extra: Record<string, unknown> | undefined;
      if (outcome === 'error') {
        exception = describeError(err, settings, op.name);
      } else {
        output = captureOutput(op, value, settings);
        if (omittedChunks > 0 && Array.isArray(output)) output = [...output, truncatedMark(omittedChunks, 'chunks')];
        extra = captureSummary(op, value, settings);
      }
      const end = call.end(outcome, output, exception, extra);
      if (end) this.sink.end(end);
    } catch (e) {
      diag.warn(`could not end a call of op "${op.name}": ${safeMessage(e)}`);
    }
  }

  /** The kept chunks, or the reducer's result: what `postprocessOutput` and `summarize` see. */
  private streamOutput(): unknown {
    if (this.op.options.streamReducer) return this.reducerFailed ? REDUCER_FAILED : this.accumulated;
    return this.chunks ?? [];
  }

  /** Chunks read but not kept (over `maxStreamChunks`); 0 with a reducer. */
  private omitted(): number {
    return this.op.options.streamReducer ? 0 : this.count - (this.chunks?.length ?? 0);
  }
}
