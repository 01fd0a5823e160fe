/**
 * `WeftSpanProcessor` and `WeftSpanExporter`: finished OTel SDK spans become weft calls, sent through weft's own exporter.
 * @module
 */
import type { Context } from '@opentelemetry/api';
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import { getSink, type CallSink } from '../instrument/sink.js';
import { fromReadableSpan, type ReadableSpanLike } from './readable-span.js';
import { WantedAncestors, wantedTrackers } from '../internal/wanted-ancestors.js';
import { defaultSpanFilter, isGenAiSpan, type SpanFilter } from './span-filter.js';
import type { SpanRecord } from './span-record.js';
import { spanStart, spanToCall } from './span-to-call.js';

/** Options of {@link WeftSpanProcessor} and {@link WeftSpanExporter}. */
export interface WeftSpanOptions {
  /** Which spans become calls. @defaultValue {@link defaultSpanFilter} (Next.js framework spans only with GenAI or weft descendants) */
  spanFilter?: SpanFilter;
  /** Project of the calls (`entity/project`). @defaultValue the project given to `init()` */
  projectId?: string;
}

/** Shared by the processor and the exporter: the filter, the descendant marks, and the hand-off to weft's sink. */
class SpanSender {
  readonly wanted = new WantedAncestors();
  private readonly filter: SpanFilter;
  private warned = false;

  constructor(readonly options: WeftSpanOptions) {
    this.filter = options.spanFilter ?? defaultSpanFilter;
    wantedTrackers().add(this.wanted);
  }

  /** The sink, or `undefined` (warned once) before `init()` or with tracing disabled. */
  sink(): CallSink | undefined {
    const sink = getSink();
    if (sink) return sink;
    if (!this.warned) diag.warn('OTel spans are not recorded: call init() first (or tracing is disabled)');
    this.warned = true;
    return undefined;
  }

  decide(span: SpanRecord): boolean | 'if-descendants' {
    try {
      return this.filter(span);
    } catch (err) {
      diag.warn(`spanFilter threw; span "${span.name}" kept: ${safeMessage(err)}`);
      return true;
    }
  }

  /** Sends a finished span as a start and an end item; marks its parent when it is or holds something wanted. */
  finished(span: SpanRecord, sink: CallSink): void {
    const wantedBelow = this.wanted.take(span.spanId);
    const genAi = isGenAiSpan(span);
    if (wantedBelow || genAi) this.wanted.mark(span.parentSpanId);
    const decision = this.decide(span);
    if (decision === false || (decision === 'if-descendants' && !wantedBelow && !genAi)) return;
    const { start, end } = spanToCall(span, this.options.projectId ?? sink.projectId);
    sink.start(start);
    sink.end(end);
  }

  close(): void {
    wantedTrackers().delete(this.wanted);
  }
}

/**
 * An OTel `SpanProcessor` (`@opentelemetry/sdk-trace-base`) that records spans as weft calls: at a span's start
 * its call starts (so a span never ended still shows, unfinished), and at its end the call is written whole
 * (start fields again with the final attributes, then the end). Ids map as described in `otel-ids`
 * (`weftCallId`, `weftTraceId`): a span and its parent land on one call each, in one trace. Calls go through
 * the exporter `init()` installed (its batching, retries, memory caps, spool and counters); before `init()`
 * spans are dropped with one warning. Never throws into the SDK.
 *
 * @example
 * ```ts
 * init({ project: 'me/app' });
 * const provider = new BasicTracerProvider({ spanProcessors: [new WeftSpanProcessor()] });
 * ```
 */
export class WeftSpanProcessor {
  private readonly sender: SpanSender;

  constructor(options: WeftSpanOptions = {}) {
    this.sender = new SpanSender(options);
  }

  /** Queues the call's start, unless the filter holds the span back until its end. */
  onStart(span: ReadableSpanLike, _parentContext?: Context): void {
    try {
      const sink = this.sender.sink();
      if (!sink) return;
      const record = fromReadableSpan(span);
      if (this.sender.decide(record) === true) sink.start(spanStart(record, this.sender.options.projectId ?? sink.projectId));
    } catch (err) {
      diag.warn(`could not record the start of span "${span.name}": ${safeMessage(err)}`);
    }
  }

  /** Queues the whole call (start fields with the final attributes, then the end). */
  onEnd(span: ReadableSpanLike): void {
    try {
      const sink = this.sender.sink();
      if (sink) this.sender.finished(fromReadableSpan(span), sink);
    } catch (err) {
      diag.warn(`could not record span "${span.name}": ${safeMessage(err)}`);
    }
  }

  /** Sends everything weft has queued (weft's `flush()`). */
  async forceFlush(): Promise<void> {
    await getSink()?.flush();
  }

  /** Flushes; weft's exporter itself stays up (it is shut down by weft's `shutdown()` or at exit). */
  async shutdown(): Promise<void> {
    this.sender.close();
    await getSink()?.flush();
  }
}

/** `ExportResult` of `@opentelemetry/core`: code 0 success, 1 failed. */
export interface ExportResultLike {
  code: 0 | 1;
  error?: Error;
}

/**
 * An OTel `SpanExporter` for those who compose their own processor (e.g. `BatchSpanProcessor`): each exported
 * span becomes a whole call, handed to weft's exporter (the result is success once queued: weft's own
 * exporter retries and counts). Descendant marks for the span filter carry across export batches.
 */
export class WeftSpanExporter {
  private readonly sender: SpanSender;

  constructor(options: WeftSpanOptions = {}) {
    this.sender = new SpanSender(options);
  }

  export(spans: readonly ReadableSpanLike[], resultCallback: (result: ExportResultLike) => void): void {
    try {
      const sink = this.sender.sink();
      if (sink) for (const span of spans) this.sender.finished(fromReadableSpan(span), sink);
      resultCallback({ code: 0 });
    } catch (err) {
      resultCallback({ code: 1, error: err instanceof Error ? err : new Error(safeMessage(err)) });
    }
  }

  async forceFlush(): Promise<void> {
    await getSink()?.flush();
  }

  async shutdown(): Promise<void> {
    this.sender.close();
    await getSink()?.flush();
  }
}
