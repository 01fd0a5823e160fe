/**
 * CallHandle: a running call whose end comes later (a returned thenable or stream), collecting stream chunks until then.
 * @module
 */
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import type { Call } from './call.js';
import { endCall } from './call-end.js';
import type { OpDefinition } from './op-definition.js';
import type { TraceContext } from './context.js';
import type { CallSink } from './sink.js';
import { streamKind, wrapStream, type StreamObserver } from './streams.js';
import type { Settler } from './thenable.js';
import type { TraceSettings } from './trace-settings.js';

/** Output recorded when `streamReducer` threw. */
export const REDUCER_FAILED = '[streamReducer threw]';

const UNRESOLVED = Symbol('unresolved');

/** Ends its call when the thenable settles or the stream is finished, abandoned or fails. */
export class CallHandle implements Settler, StreamObserver {
  private count = 0;
  private chunks: unknown[] | undefined;
  private accumulated: unknown;
  private reducerFailed = false;
  private handedOn: unknown = UNRESOLVED;
  /** The value of the first settlement, which {@link CallHandle.handedOn} stands for. */
  private firstValue: unknown;

  constructor(
    private readonly sink: CallSink,
    private readonly meta: OpDefinition,
    private readonly call: Call,
    private readonly settings: TraceSettings,
    /** The context the function's body runs in; each `next()` of a stream runs in it. */
    readonly ctx: TraceContext | undefined,
  ) {}

  /**
   * The first settlement ends the call (or starts tracing the stream it fulfilled with). Later ones (the
   * caller awaiting the same thenable again, or another of its methods such as `withResponse()` or a
   * builder branch) get their own value back unchanged, except the very same stream, which gets the
   * same traced wrapper.
   */
  resolved(value: unknown): unknown {
    if (this.handedOn !== UNRESOLVED) return value === this.firstValue ? this.handedOn : value;
    this.firstValue = value;
    const kind = streamKind(value);
    if (kind) this.handedOn = wrapStream(kind, value, this);
    else {
      this.handedOn = value;
      endCall(this.sink, this.meta, this.call, this.settings, 'success', value, undefined);
    }
    return this.handedOn;
  }

  failed(err: unknown): void {
    endCall(this.sink, this.meta, this.call, this.settings, 'error', undefined, err);
  }

  chunk(value: unknown): void {
    const index = this.count++;
    const reducer = this.meta.options.streamReducer;
    if (reducer) {
      if (this.reducerFailed) return;
      try {
        this.accumulated = reducer(this.accumulated, value as never, index);
      } catch (err) {
        this.reducerFailed = true;
        diag.warn(`streamReducer of op "${this.meta.name}" threw: ${safeMessage(err)}`);
      }
      return;
    }
    const max = this.meta.options.maxStreamChunks ?? this.settings.maxStreamChunks;
    const chunks = (this.chunks ??= []);
    if (chunks.length < max) chunks.push(value);
  }

  complete(): void {
    endCall(this.sink, this.meta, this.call, this.settings, 'success', this.streamOutput(), undefined, this.omitted());
  }

  cancel(): void {
    endCall(this.sink, this.meta, this.call, this.settings, 'cancelled', this.streamOutput(), undefined, this.omitted());
  }

  /** The kept chunks, or the reducer's result: what `postprocessOutput` and `summarize` see. */
  private streamOutput(): unknown {
    if (this.meta.options.streamReducer) return this.reducerFailed ? REDUCER_FAILED : this.accumulated;
    return this.chunks ?? [];
  }

  /** Chunks read but not kept (over `maxStreamChunks`); 0 with a reducer. */
  private omitted(): number {
    return this.meta.options.streamReducer ? 0 : this.count - (this.chunks?.length ?? 0);
  }
}
