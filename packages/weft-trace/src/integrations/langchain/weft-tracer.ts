/**
 * WeftTracer: a LangChain.js `BaseTracer` that records chains, chat models, LLMs, tools, retrievers and LangGraph nodes as weft calls.
 * @module
 */
import { BaseTracer, type Run } from '@langchain/core/tracers/base';
import { runInContext } from '../../instrument/context.js';
import { addContextResolver } from '../../instrument/framework-context.js';
import { diag } from '../../internal/diag.js';
import { safeMessage } from '../../internal/safe-message.js';
import { RunBridge } from '../run-bridge.js';
import { langChainResolver } from './lc-context.js';
import { requestTexts, runOp, type RunState } from './run-ops.js';

/** The tag LangChain and LangGraph put on their own plumbing runs (channel writes, ...): not recorded, children go to the parent. */
const HIDDEN = 'langsmith:hidden';

/** Runs of every `WeftTracer` (ids are UUIDs), so a run started by one is the parent of a run another sees. */
const bridge = new RunBridge();
const states = new Map<string, RunState>();
let hookSeen = false;
const resolver = langChainResolver(bridge, () => hookSeen);

/** An `Error` standing for a run's error, recorded from LangChain's string (`message`, a blank line, the stack). */
function errorOf(text: string): Error {
  const cut = text.indexOf('\n\n');
  const err = new Error(cut < 0 ? text : text.slice(0, cut));
  if (cut >= 0) err.stack = text.slice(cut + 2);
  const name = /^(\w+):/.exec(err.stack ?? '')?.[1];
  if (name) err.name = name;
  return err;
}

/**
 * A LangChain.js callback handler (a `BaseTracer` of `@langchain/core/tracers/base`, tested with `@langchain/core` 1.4,
 * `@langchain/langgraph` 1.7, `@langchain/openai` 1.6 and `@langchain/anthropic` 1.5) that records each run as a weft
 * call, so LangChain decides the arguments of each callback and weft reads the finished `Run`:
 * - op names: `langchain.chain.<name>` (runnables, sequences, lambdas, graphs), `langchain.chat_model.<name>`,
 *   `langchain.llm.<name>`, `langchain.tool.<name>`, `langchain.retriever.<name>`, `langchain.prompt.<name>`,
 *   `langchain.parser.<name>`, and `langgraph.node.<name>` for a LangGraph node (`metadata.langgraph_node`); runs
 *   tagged `langsmith:hidden` (LangGraph's channel writes) are left out, their children nested under their parent;
 * - nesting: a run's parent is its `parent_run_id`'s call; a root run nests under the running weft call (`op()`);
 *   an `op()` or a wrapped provider client (`wrapOpenAI`, ...) called inside a run's body (a lambda, a tool, a
 *   node, a chat model's request) nests under that run (see `wrapRunExecution`);
 * - chat model runs record their request as an OpenAI chat request (`model`, `messages`, the invocation params),
 *   their output as an OpenAI chat completion (`choices[].message` with `tool_calls`, `finish_reason`), attributes
 *   `gen_ai.provider.name` (`ls_provider`), `gen_ai.operation.name`, `gen_ai.request.model` (OpenTelemetry GenAI
 *   semantic conventions) and summary `usage[model]` from `usage_metadata` (a stream's chunks added up by
 *   LangChain), `time_to_first_token_ms`, `gen_ai.response.finish_reasons` / `.model` / `.id`, so the viewer's chat
 *   view and the server's cost work as for `wrapOpenAI`; the usage is keyed by the model that answered however the
 *   run was consumed (`invoke`, `stream`, `streamEvents`, LangGraph's stream modes). When a wrapped provider client
 *   records the request under the run (also with several model runs at once under one caller), the run records no
 *   usage of its own: the request is counted once (`model-request-once.ts`);
 * - callbacks are awaited (`awaitHandlers`): each call's start and end are queued before LangChain goes on, so
 *   nothing is lost when a serverless function returns (weft's `flush()` still sends them).
 * Before `init()` (or with tracing disabled) it records nothing. It never throws into LangChain.
 * @example
 * ```ts
 * await chain.invoke(input, { callbacks: [new WeftTracer()] });
 * ```
 * @see https://v03.api.js.langchain.com/classes/_langchain_core.tracers_base.BaseTracer.html
 */
export class WeftTracer extends BaseTracer {
  /** The handler's name (LangChain keeps one handler per name in a run's callbacks). */
  name = 'weft_tracer';

  constructor() {
    super({ _awaitHandler: true });
    this.awaitHandlers = true;
    addContextResolver(resolver);
  }

  /** Nothing to persist: each run was sent as it started and ended. */
  protected persistRun(_run: Run): Promise<void> {
    return Promise.resolve();
  }

  /** A run started: its call starts (or, hidden, its children go to its parent). */
  override onRunCreate(run: Run): void {
    try {
      if (run.tags?.includes(HIDDEN)) return bridge.hide(run.id, run.parent_run_id);
      const state: RunState = { startedAtMs: Date.now() };
      const active = bridge.start(run.id, run.parent_run_id, runOp(run, state), [run.inputs], run.run_type === 'llm' ? requestTexts(run) : undefined);
      state.call = active?.call;
      if (active) states.set(run.id, state);
    } catch (err) {
      diag.warn(`could not record the start of LangChain run "${run.name}": ${safeMessage(err)}`);
    }
  }

  /** A run ended: its call ends with the run's outputs, or its error. */
  override onRunUpdate(run: Run): void {
    try {
      states.delete(run.id);
      const active = bridge.end(run.id)?.active;
      if (active === undefined) return;
      if (run.error !== undefined) active.fail(errorOf(run.error));
      else active.succeed(run);
    } catch (err) {
      diag.warn(`could not record the end of LangChain run "${run.name}": ${safeMessage(err)}`);
    }
  }

  /** The first streamed token of a model run: its time to first token. */
  override onLLMNewToken(run: Run): void {
    const state = states.get(run.id);
    if (state !== undefined) state.timeToFirstTokenMs ??= Date.now() - state.startedAtMs;
  }

  /**
   * Runs `fn` (the body of run `runId`: a chat model's request, a stream's chunk, a tool's function) in the run's
   * weft context, so `op()` and wrapped provider clients called in it nest under the run. `@langchain/core` calls it
   * where it has the hook (`wrapRunExecution` of the callback handler contract); where it does not (1.4), the
   * same nesting comes from LangChain's async context (lambdas, tools, nodes) and, for a wrapped client inside a
   * chat model, from the model run open under the caller that sent the request (`lc-context.ts`).
   */
  wrapRunExecution<T>(runId: string, fn: () => T): T {
    hookSeen = true;
    const ctx = bridge.get(runId)?.ctx;
    return ctx === undefined ? fn() : runInContext(ctx, fn);
  }
}
