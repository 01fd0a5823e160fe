// The OpenTelemetry side of the comparison: a BasicTracerProvider with a BatchSpanProcessor and an exporter that discards.
import { context, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';

/** An OpenTelemetry setup whose exporter drops every span after counting it. */
export interface OtelSetup {
  tracer: Tracer;
  /** Spans handed to the exporter so far (a check that none were dropped on the way). */
  exported(): number;
  /** Exports every finished span (`provider.forceFlush()`). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Registers the AsyncLocalStorage context manager globally and builds a provider. The queue is large
 * enough (`maxQueueSize`) for one benchmark sample between flushes, so no span is dropped. `realExporter`
 * replaces the discarding one (then `exported()` counts nothing: ask the far end).
 */
export function setupOtel(maxQueueSize = 65_536, realExporter?: SpanExporter): OtelSetup {
  let exported = 0;
  const exporter: SpanExporter = realExporter ?? {
    export(spans, done) {
      exported += spans.length;
      done({ code: 0 }); // ExportResultCode.SUCCESS
    },
    shutdown: () => Promise.resolve(),
  };
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const processor = new BatchSpanProcessor(exporter, { maxQueueSize, maxExportBatchSize: 512 });
  const provider = new BasicTracerProvider({ spanProcessors: [processor] });
  return {
    tracer: provider.getTracer('weft-bench'),
    exported: () => exported,
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

function inputsOf(names: readonly string[], args: readonly unknown[]): string {
  const inputs: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i++) inputs[names[i] ?? `arg${i}`] = args[i];
  return JSON.stringify(inputs);
}

function fail(span: Span, err: unknown): void {
  span.recordException(err as Error);
  span.setStatus({ code: 2 }); // SpanStatusCode.ERROR
}

/** Wraps a sync function: one active span, inputs and output as JSON string attributes. */
export function otelSync<A extends unknown[], R>(tracer: Tracer, name: string, names: readonly string[], fn: (...args: A) => R): (...args: A) => R {
  return (...args) =>
    tracer.startActiveSpan(name, (span) => {
      span.setAttribute('inputs', inputsOf(names, args));
      try {
        const out = fn(...args);
        span.setAttribute('output', JSON.stringify(out));
        return out;
      } catch (err) {
        fail(span, err);
        throw err;
      } finally {
        span.end();
      }
    });
}

/** Wraps an async function the same way; the span ends when the promise settles. */
export function otelAsync<A extends unknown[], R>(tracer: Tracer, name: string, names: readonly string[], fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return (...args) =>
    tracer.startActiveSpan(name, async (span) => {
      span.setAttribute('inputs', inputsOf(names, args));
      try {
        const out = await fn(...args);
        span.setAttribute('output', JSON.stringify(out));
        return out;
      } catch (err) {
        fail(span, err);
        throw err;
      } finally {
        span.end();
      }
    });
}

async function* traceStream<T>(span: Span, ctx: Context, source: AsyncIterator<T>): AsyncGenerator<T> {
  const chunks: T[] = [];
  try {
    for (;;) {
      const step = await context.with(ctx, () => source.next());
      if (step.done) break;
      chunks.push(step.value);
      yield step.value;
    }
    span.setAttribute('output', JSON.stringify(chunks));
  } catch (err) {
    fail(span, err);
    throw err;
  } finally {
    span.end();
  }
}

/**
 * Wraps an async generator function: the span stays open until the stream is exhausted (or broken
 * out of), each step runs in the span's context, and the chunks become the output attribute.
 */
export function otelStream<A extends unknown[], T>(tracer: Tracer, name: string, names: readonly string[], fn: (...args: A) => AsyncIterable<T>): (...args: A) => AsyncGenerator<T> {
  return (...args) =>
    tracer.startActiveSpan(name, (span) => {
      span.setAttribute('inputs', inputsOf(names, args));
      const ctx = trace.setSpan(context.active(), span);
      return traceStream(span, ctx, fn(...args)[Symbol.asyncIterator]());
    });
}
