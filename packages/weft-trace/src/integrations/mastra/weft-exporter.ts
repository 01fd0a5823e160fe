/**
 * WeftExporter: Mastra's observability exporter (and optional bridge) that records agent runs, model generations, tool calls and workflow steps as weft calls in one tree.
 * @module
 */
import { flush } from '../../init.js';
import type { ActiveCall } from '../../instrument/active-call.js';
import { activeContext, runInContext, type TraceContext } from '../../instrument/context.js';
import { diag } from '../../internal/diag.js';
import { safeMessage } from '../../internal/safe-message.js';
import { startUnder } from '../start-recorded.js';
import { countedByProvider, markFrameworkModelCall } from '../model-request-once.js';
import { HIDDEN_SPAN_TYPES, spanError, spanOp, type GenerationState, type MastraExportedSpan } from './mastra-span.js';

export type { MastraExportedSpan } from './mastra-span.js';

/**
 * A Mastra tracing event (`TracingEvent` of `@mastra/core/observability`): `span_started`, `span_updated` or
 * `span_ended`, with the span as exported.
 */
export interface MastraTracingEvent {
  readonly type: string;
  readonly exportedSpan: MastraExportedSpan;
}

/** One Mastra span while it runs. */
interface SpanEntry {
  /** Its call; `undefined` for a hidden span or one not recorded. */
  readonly active: ActiveCall | undefined;
  /** The context its children and the code Mastra runs for it start in. */
  readonly ctx: TraceContext | undefined;
  /** The model generation it is, or belongs to (a hidden step's). */
  readonly generation: GenerationState | undefined;
}

/**
 * Records Mastra's traces as weft calls: pass it to a Mastra observability config. Agent runs
 * (`mastra.agent.<id>`), model generations (`mastra.model_generation`), tool calls (`mastra.tool.<id>`), workflow
 * runs (`mastra.workflow.<id>`) and steps (`mastra.workflow_step.<id>`) and every other span type Mastra exports
 * (`mastra.<span type>`) become calls; a generation's steps, provider requests and stream chunks (`model_step`,
 * `model_inference`, `model_chunk`) do not: their children (tool calls) belong to the generation.
 *
 * **The tree.** Each span's parent is its Mastra parent span's call. A Mastra root span (an `agent.generate()`,
 * `agent.stream()` or `run.start()` called by your code) nests under the weft call current when it started (an
 * `op()`, or a call of a wrapped client), since Mastra emits a span's start synchronously in the caller's
 * context; a root started outside any op is a trace root. As an exporter alone it cannot make Mastra's spans
 * the current weft call for code Mastra runs (your tool's `execute`, a workflow step, the model request): an
 * `op()` or a wrapped client called there nests under the weft call current when the Mastra root started.
 * Pass the same instance as the config's `bridge` too, and Mastra runs that code inside its span's call (through
 * the bridge's `executeInContext`), so it nests under the tool, step or model generation; each event is then
 * still recorded once.
 *
 * **Model generations** carry what the provider wrappers record: inputs `{messages}` as sent, the output (text,
 * tool calls), `gen_ai.provider.name`, `gen_ai.operation.name` (`chat`), `gen_ai.request.model`, and in the summary
 * `usage[model]` (Mastra's `UsageStats`, summed over the generation's steps; `requests` = steps, streamed
 * generations too), `gen_ai.response.model`, `gen_ai.response.id`, `gen_ai.response.finish_reasons` and
 * `time_to_first_token_ms`. Agent runs and tool calls carry `gen_ai.operation.name` `invoke_agent` /
 * `execute_tool` and `gen_ai.agent.name` / `gen_ai.tool.name`. Each call also has `mastra.span_type`.
 *
 * **Counted once.** When a provider wrapper (`wrapOpenAI`, `wrapAnthropic`, `wrapAISDK`) records a model request
 * under a generation's call (a custom Mastra model over a wrapped client, with the bridge set), the wrapper's call
 * is the model call and holds the usage; the generation records none of its own (its summary still adds up its
 * children's). Do not also send Mastra's spans to weft through OpenTelemetry (`@mastra/otel-exporter` or
 * `@mastra/otel-bridge` with `WeftSpanProcessor`): each span would be recorded twice.
 *
 * Sampling is weft's (`init({ sampleRate })`) on top of Mastra's own; before `init()` nothing is recorded. Tracing
 * never throws into Mastra: a failure is logged (`setDiagLevel`) and the span is left out. Mastra is not
 * imported: the class matches Mastra's `ObservabilityExporter` and `ObservabilityBridge` interfaces by shape
 * (tested with `@mastra/core` 1.71 and `@mastra/observability` 1.17).
 * @example
 * import { Mastra } from '@mastra/core';
 * import { Observability } from '@mastra/observability';
 * import { init, WeftExporter } from 'weft-trace';
 * await init({ project: 'acme/agents' });
 * const weft = new WeftExporter();
 * const mastra = new Mastra({
 *   agents: { weatherAgent },
 *   observability: new Observability({ configs: { weft: { serviceName: 'agents', exporters: [weft], bridge: weft } } }),
 * });
 * @see https://mastra.ai/reference/observability/tracing/interfaces (ObservabilityExporter, ObservabilityBridge)
 */
export class WeftExporter {
  /** The exporter's name in Mastra's logs. */
  readonly name = 'weft';
  private readonly spans = new Map<string, SpanEntry>();
  /** Events already handled: the same event object reaches an instance set as both exporter and bridge. */
  private readonly seen = new WeakSet<object>();

  /**
   * Handles one tracing event, synchronously (a root span's parent is the weft call current now). Never throws.
   * @param event - Mastra's `TracingEvent`.
   */
  onTracingEvent(event: MastraTracingEvent): void {
    try {
      if (event === null || typeof event !== 'object' || this.seen.has(event)) return;
      this.seen.add(event);
      const span = event.exportedSpan;
      if (event.type === 'span_started') this.started(span);
      else if (event.type === 'span_ended') this.ended(span);
    } catch (err) {
      diag.warn(`WeftExporter could not record a Mastra span: ${safeMessage(err)}`);
    }
  }

  /** Mastra's older entry point for the same events (used when `onTracingEvent` is absent). Never rejects. */
  exportTracingEvent(event: MastraTracingEvent): Promise<void> {
    this.onTracingEvent(event);
    return Promise.resolve();
  }

  /**
   * Bridge: runs `fn` (code Mastra runs for span `spanId`: a tool, a step, a model request) with the span's call as
   * the current weft call, so `op()` and wrapped clients called in it nest under it.
   */
  executeInContext<T>(spanId: string, fn: () => Promise<T>): Promise<T> {
    return this.executeInContextSync(spanId, fn);
  }

  /** Bridge: as {@link WeftExporter.executeInContext}, for synchronous code. */
  executeInContextSync<T>(spanId: string, fn: () => T): T {
    const ctx = this.spans.get(spanId)?.ctx;
    return ctx === undefined ? fn() : runInContext(ctx, fn);
  }

  /** Bridge: span ids stay Mastra's own (`undefined`). */
  createSpan(): undefined {
    return undefined;
  }

  /** Bridge: forgets a span Mastra ended without exporting it (its call, if any, ends as cancelled). */
  releaseSpan(spanId: string): void {
    this.spans.get(spanId)?.active?.cancel();
    this.spans.delete(spanId);
  }

  /** Sends what weft has queued (weft's `flush()`); Mastra calls it on its own `flush()`. Never rejects. */
  async flush(): Promise<void> {
    await flush();
  }

  /** Flushes; weft keeps recording (end it with weft's `shutdown()`). Never rejects. */
  async shutdown(): Promise<void> {
    await flush();
  }

  private started(span: MastraExportedSpan): void {
    const parent = span.parentSpanId === undefined ? undefined : this.spans.get(span.parentSpanId);
    const ctx = parent ? parent.ctx : activeContext();
    if (HIDDEN_SPAN_TYPES.has(span.type)) {
      if (span.type === 'model_step' && parent?.generation) parent.generation.steps++;
      this.spans.set(span.id, { active: undefined, ctx, generation: parent?.generation });
      return;
    }
    let generation: GenerationState | undefined;
    if (span.type === 'model_generation') {
      const state = { steps: 0, counted: () => active !== undefined && countedByProvider(active.call) };
      generation = state;
    }
    const active = startUnder(spanOp(span, generation), [span.input], ctx);
    if (active && generation) markFrameworkModelCall(active.call);
    this.spans.set(span.id, { active, ctx: active ? active.ctx : { ...ctx, unsampled: true }, generation });
  }

  private ended(span: MastraExportedSpan): void {
    let entry = this.spans.get(span.id);
    if (entry === undefined) {
      // an event span (or one started before this exporter was registered): started and ended at once
      this.started(span);
      entry = this.spans.get(span.id);
    }
    this.spans.delete(span.id);
    const active = entry?.active;
    if (active === undefined) return;
    const error = spanError(span);
    if (error) active.fail(error);
    else active.succeed(span);
  }
}
