/**
 * WeftTracingProcessor: the OpenAI Agents SDK's traces and spans (agents, tools, model responses, handoffs, guardrails) as weft calls, in one tree under the running op.
 * @module
 */
import { getSink } from '../instrument/sink.js';
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import { closeNode, finishEnded, installResolver, openSpan, openTrace } from './openai-agents-tree.js';
import type { AgentsSpan, AgentsTrace } from './openai-agents-spans.js';

export type { AgentsSpan, AgentsTrace } from './openai-agents-spans.js';

/** Runs one processor hook; a failure of weft's is logged, never thrown into the Agents SDK (which would log it as the run's). */
function guarded(what: string, run: () => void): Promise<void> {
  try {
    run();
  } catch (err) {
    diag.warn(`WeftTracingProcessor.${what} failed (the run goes on, this part is not recorded): ${safeMessage(err)}`);
  }
  return Promise.resolve();
}

/**
 * A `TracingProcessor` of the OpenAI Agents SDK (`@openai/agents`, tested with 0.20) that records its traces as weft
 * calls. Register it next to OpenAI's own exporter with `addTraceProcessor(new WeftTracingProcessor())`, or instead of
 * it with `setTraceProcessors([new WeftTracingProcessor()])`; `init()` weft as for any op. The SDK is not imported:
 * the processor is duck-typed to its interface (`onTraceStart`, `onTraceEnd`, `onSpanStart`, `onSpanEnd`, `shutdown`,
 * `forceFlush`), and weft works without the SDK installed.
 *
 * **What becomes a call.** The trace is op `openai.agents.trace` (display name: the workflow name; inputs `name`,
 * `group_id`, `metadata`); each span is op `openai.agents.<span type>`: `task` (one `run()`), `agent` (display name and
 * input: the agent's name; output: its tools, handoffs and output type), `turn` (one loop of an agent), `function` (a tool: its
 * name, parsed arguments as inputs, its result as output), `handoff` (`from → to`), `guardrail` (its name; output
 * `{triggered}`), `response` and `generation` (one model request), `custom` (`createCustomSpan` / `withCustomSpan`:
 * its name and data), `mcp_tools`, and any other type with its data as inputs. Every call carries the SDK's ids as
 * attributes `openai.agents.trace_id` and `openai.agents.span_id`. A span that ended with an error fails its call
 * (exception type `AgentsSpanError`, the SDK's message and its `data.error`). Usage the SDK adds up on `task` and
 * `turn` spans is not recorded: weft adds the model requests' usage up the tree itself.
 *
 * **Model requests.** A `response` span (`OpenAIResponsesModel`) records the request's input items and the Responses
 * API `response` as output; a `generation` span (`OpenAIChatCompletionsModel`, other providers) its model, settings,
 * messages and the completion. Both carry what `wrapOpenAI` records: attributes `gen_ai.provider.name`,
 * `gen_ai.operation.name`, `gen_ai.request.model` (OpenTelemetry GenAI semantic conventions), and summary
 * `usage[model]`, `gen_ai.response.finish_reasons`, `gen_ai.response.model`, `gen_ai.response.id`, so the viewer's chat
 * view and cost read them as they read the wrapper's calls. The SDK puts the request and response on these spans only
 * when `traceIncludeSensitiveData` is true (its default); without them the span has no usage to record: wrap the
 * client (below) to have it.
 *
 * **One model request, one model call (no double counting).** Pass a client wrapped with `wrapOpenAI` to the SDK (e.g.
 * `new OpenAIResponsesModel(wrapOpenAI(new OpenAI()), 'gpt-4.1')` or `setDefaultOpenAIClient(wrapOpenAI(client))`) and
 * the wrapper's call (`openai.responses.create`, ...) is the model call: it nests under the `response` or
 * `generation` span's call, which then records only `{response_id}` as output, no usage and no `gen_ai.*` attributes,
 * so the request's tokens and cost are counted once. The rule is the one every framework integration of weft follows:
 * the provider wrapper's call is the model call, the framework's span around it is structure.
 *
 * **Nesting.** The trace's root call is a child of the weft call running where the Agents run started (an `op()`, a
 * wrapped request, ...), or a root when none runs; each span's call is a child of its parent span's call, else of the
 * trace's. Calls weft starts while the SDK runs a span (an `op()` inside a tool, a wrapped client's request inside a
 * model span, `getCurrentCall()`) are children of that span's call: weft reads the SDK's current span (the context
 * `@openai/agents-core` keeps under `Symbol.for('openai.agents.core.asyncLocalStorage')`, also after
 * `setTracingContextStorage()`); where it cannot, they nest under the running op instead. Spans that start inside an
 * `op()` that runs inside a span nest under that op. A trace weft does not record (sampled out, or started before
 * `init()`) records none of its spans.
 *
 * **Streams and late spans.** A call ends when its trace or span has ended and every span below it has: a span that
 * ends after its trace (streamed runs, openai/openai-agents-js#570) or after its parent span is still recorded in
 * place, its usage counted in its parents, which end with it. A model span's call starts when the span ends (its
 * request and response are known only then; its `started_at` is the span's own), or earlier when a call starts inside it.
 *
 * **When the SDK traces nothing.** Under `NODE_ENV=test` (vitest and Jest set it) the SDK disables tracing when it
 * is first loaded, as `setTracingDisabled(true)`, `OPENAI_AGENTS_DISABLE_TRACING=1` or a run's
 * `tracingDisabled: true` do: it makes no-op traces and spans and calls no processor, so this processor records
 * nothing; calls weft records on its own (a wrapped client, `op()`s in tools) still are, nested under the running
 * op. Call `setTracingDisabled(false)` after importing the SDK to trace in tests.
 *
 * `forceFlush()` sends what weft has queued (as `flush()`); `shutdown()` ends the calls still waiting for spans below
 * them, then flushes; neither ends weft's tracing. Register one processor: a second one records nothing more (each
 * trace and span is recorded once). Tracing never throws into the run: failures are logged (`setDiagLevel`).
 * @example
 * import { addTraceProcessor, Agent, run } from '@openai/agents';
 * init({ project: 'me/agents' });
 * addTraceProcessor(new WeftTracingProcessor());
 * await op(async function ask(q: string) { return (await run(agent, q)).finalOutput; })('Weather in Paris?');
 * @see https://openai.github.io/openai-agents-js/guides/tracing/ (the SDK's tracing and its processors)
 */
export class WeftTracingProcessor {
  constructor() {
    installResolver();
  }

  /** Nothing to start: calls are queued by weft's own exporter. */
  start(): void {}

  /** Starts the trace's root call under the running weft call. */
  onTraceStart(trace: AgentsTrace): Promise<void> {
    return guarded('onTraceStart', () => openTrace(trace));
  }

  /** Ends the trace's root call, or after the last span below it ends. */
  onTraceEnd(trace: AgentsTrace): Promise<void> {
    return guarded('onTraceEnd', () => closeNode(trace.traceId));
  }

  /** Notes the span; its call starts now (agent, task, turn, custom spans) or when its data is complete. */
  onSpanStart(span: AgentsSpan): Promise<void> {
    return guarded('onSpanStart', () => openSpan(span));
  }

  /** Ends the span's call (started now if it had not), or after the last span below it ends. */
  onSpanEnd(span: AgentsSpan): Promise<void> {
    return guarded('onSpanEnd', () => closeNode(span.spanId));
  }

  /** Ends the calls whose span ended but that wait for spans below them, then sends what weft has queued. Never rejects. */
  async shutdown(_timeout?: number): Promise<void> {
    await guarded('shutdown', finishEnded);
    await this.forceFlush();
  }

  /** Sends what weft has queued (as `flush()`). Never rejects. */
  async forceFlush(): Promise<void> {
    try {
      await getSink()?.flush();
    } catch (err) {
      diag.warn(`WeftTracingProcessor.forceFlush failed: ${safeMessage(err)}`);
    }
  }
}
