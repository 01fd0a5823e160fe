/**
 * aiSDKTelemetry(): a telemetry integration for the Vercel AI SDK 7 (`registerTelemetry`) that records its operations as weft calls, as wrapAISDK does, without wrapping.
 * @module
 */
import type { ActiveCall } from '../instrument/active-call.js';
import { activeContext, runInContext } from '../instrument/context.js';
import { InputKeys } from '../instrument/input-keys.js';
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import { claimWrapped, defineAiCall, defineAiStep, startedAiCall, STEP_OPS, type AiCallState } from './ai-sdk-record.js';
import { startRecorded } from './start-recorded.js';
import { exchangeReporter } from './rollout-hook.js';

type Obj = Record<string, unknown>;

/** The operations recorded: those wrapAISDK records (other operation ids, such as reranking or speech, are left alone). */
const OPERATIONS = new Set(['ai.generateText', 'ai.streamText', 'ai.generateObject', 'ai.streamObject', 'ai.embed', 'ai.embedMany']);

/** Start-event fields that are the SDK's bookkeeping or the caller's own context, not the request: not recorded as inputs. */
const NOT_INPUTS = new Set([
  'callId', 'operationId', 'provider', 'modelId', 'runtimeContext', 'toolsContext', 'aiVersion', 'timestamp', 'durableContext',
  'recordInputs', 'recordOutputs', 'functionId', 'includeRuntimeContext', 'includeToolsContext',
]);

const TOOL_KEYS = new InputKeys(['input']);

/**
 * One operation being recorded: its call, the state its summary reads, its step's model request in flight (its call
 * and the state its summary reads), and its tool executions by tool call id.
 */
interface Operation {
  readonly name: string;
  readonly active: ActiveCall;
  readonly state: AiCallState;
  readonly streamed: boolean;
  modelStartMs?: number;
  step?: { active: ActiveCall; state: AiCallState } | undefined;
  readonly tools: Map<string, ActiveCall>;
}

/**
 * The operations in flight, by the SDK's `callId`: one table for every integration made, so an integration registered
 * twice (or globally and per call) records each operation once.
 */
const operations = new Map<string, Operation>();

/**
 * The options an operation was called with, as the start event tells them: the model as its id (as wrapAISDK
 * records a model object; the provider is in the attributes), the prompt as `instructions` and `messages`.
 */
function optionsOf(e: Obj): Obj {
  const o: Obj = { model: e['modelId'] };
  for (const [k, v] of Object.entries(e)) if (v !== undefined && !NOT_INPUTS.has(k)) o[k] = v;
  return o;
}

function start(e: Obj): void {
  const name = e['operationId'];
  const callId = e['callId'];
  if (typeof name !== 'string' || !OPERATIONS.has(name) || typeof callId !== 'string' || operations.has(callId)) return;
  if (claimWrapped(activeContext()?.call, name)) return;
  const state: AiCallState = {};
  const options = optionsOf(e);
  const active = startedAiCall(startRecorded(defineAiCall(name, { provider: e['provider'], modelId: e['modelId'] }, state), [options]), state);
  if (active === undefined) return;
  if (active.ctx.rollout !== undefined) {
    const system = typeof options['instructions'] === 'string' ? options['instructions'] : undefined;
    state.report = exchangeReporter(active.ctx.rollout, name, { ...options, system });
  }
  operations.set(callId, { name, active, state, streamed: name === 'ai.streamText', tools: new Map() });
}

/** Ends the operation of `e.callId` with `end`, once; a step's model request still in flight ends with `endStep`. */
function finish(e: Obj, end: (active: ActiveCall) => void, endStep = end): void {
  const op = operations.get(e['callId'] as string);
  if (op === undefined) return;
  operations.delete(e['callId'] as string);
  if (op.step !== undefined) endStep(op.step.active);
  end(op.active);
}

/**
 * A step's model request starts: its call (`ai.generateText.doGenerate`, `ai.streamText.doStream`) under its
 * operation's call, recording the request as the event tells it (the model as its id, instructions, messages, tools,
 * settings); streamed operations: the start of the time to first token.
 */
function modelCallStarted(e: Obj): void {
  const op = operations.get(e['callId'] as string);
  if (op === undefined) return;
  if (op.streamed) op.modelStartMs ??= Date.now();
  const stepName = STEP_OPS[op.name];
  if (stepName === undefined || op.step !== undefined) return;
  const state: AiCallState = {};
  const def = defineAiStep(stepName, { provider: e['provider'], modelId: e['modelId'] }, state);
  const active = startedAiCall(runInContext(op.active.ctx, startRecorded, def, [optionsOf(e)]), state);
  if (active !== undefined) op.step = { active, state };
}

/**
 * Time to first token of a streamed operation: from the call's start to the first model call's start, plus that
 * model call's `performance.timeToFirstOutputMs`.
 */
function modelCallEnded(e: Obj): void {
  const op = operations.get(e['callId'] as string);
  const ms = (e['performance'] as Obj | undefined)?.['timeToFirstOutputMs'];
  const step = op?.step;
  if (step !== undefined) {
    op!.step = undefined;
    if (typeof ms === 'number') step.state.ttft = Math.round(ms);
    step.active.succeed({ content: e['content'], finishReason: e['finishReason'], usage: e['usage'], response: { id: e['responseId'], modelId: e['modelId'] } });
  }
  if (op?.modelStartMs === undefined || op.state.ttft !== undefined || typeof ms !== 'number') return;
  op.state.ttft = Math.round(op.modelStartMs - op.active.call.startedAtMs + ms);
}

function toolEnded(e: Obj): void {
  const op = operations.get(e['callId'] as string);
  const id = (e['toolCall'] as Obj | undefined)?.['toolCallId'];
  const tool = typeof id === 'string' ? op?.tools.get(id) : undefined;
  if (tool === undefined) return;
  op!.tools.delete(id as string);
  const out = (e['toolOutput'] ?? {}) as Obj;
  if (out['type'] === 'tool-error') tool.fail(out['error']);
  else tool.succeed(out['output']);
}

/** Starts the call `ai.tool.<name>` of a tool execution under its operation's call, or `undefined`. */
function startTool(options: Obj): ActiveCall | undefined {
  const op = operations.get(options['callId'] as string);
  const toolCall = options['toolCall'] as Obj | undefined;
  const id = options['toolCallId'];
  if (op === undefined || toolCall === undefined || typeof id !== 'string' || op.tools.has(id)) return undefined;
  const def = { name: `ai.tool.${String(toolCall['toolName'])}`, inputKeys: TOOL_KEYS, options: {} };
  const tool = runInContext(op.active.ctx, startRecorded, def, [toolCall['input']]);
  if (tool !== undefined) op.tools.set(id, tool);
  return tool;
}

/** A handler that logs its own failure instead of passing it to the SDK. */
function guarded(what: string, handle: (e: Obj) => void): (event: unknown) => void {
  return (event) => {
    if (event === null || typeof event !== 'object') return;
    try {
      handle(event as Obj);
    } catch (err) {
      diag.warn(`aiSDKTelemetry: could not record ${what}: ${safeMessage(err)}`);
    }
  };
}

/**
 * Runs `execute` in the context of `find()`'s call (so what it calls nests under that call), or as it is when there
 * is none; `execute` runs exactly once whatever weft does.
 */
function within<T>(find: () => ActiveCall | undefined, execute: () => PromiseLike<T>): PromiseLike<T> {
  let active: ActiveCall | undefined;
  try {
    active = find();
  } catch (err) {
    diag.warn(`aiSDKTelemetry: could not record a tool or model call: ${safeMessage(err)}`);
  }
  return active === undefined ? execute() : runInContext(active.ctx, execute);
}

/**
 * The telemetry integration weft gives the `ai` package (version 7): the members of its `Telemetry` interface that
 * weft implements. Pass it to `registerTelemetry` (or to an operation's `telemetry.integrations`).
 */
export interface AISDKTelemetry {
  /** An operation starts: its call starts, nested under the running call. */
  onStart(event: object): void;
  /** A step's model request starts: its call starts under the operation's (streamed: the start of the time to first token). */
  onLanguageModelCallStart(event: object): void;
  /** A step's model request ends: its call records the reply and usage (streamed operations: `time_to_first_token_ms`). */
  onLanguageModelCallEnd(event: object): void;
  /** A tool execution ends: its call `ai.tool.<name>` records the output, or the error. */
  onToolExecutionEnd(event: object): void;
  /** The operation ends: its call records the result and usage over all steps. */
  onEnd(event: object): void;
  /** A streamed operation is aborted: its call ends as cancelled. */
  onAbort(event: object): void;
  /** The operation fails: its call records the error. */
  onError(event: unknown): void;
  /** Runs a model request in the context of its step's call, else its operation's (a traced provider client called there nests under it). */
  executeLanguageModelCall<T>(options: { callId: string; execute: () => PromiseLike<T> }): PromiseLike<T>;
  /** Runs a tool's `execute` as the call `ai.tool.<name>` (with `{input}`), a child of its operation's call. */
  executeTool<T>(options: { callId: string; toolCallId: string; execute: () => PromiseLike<T> }): PromiseLike<T>;
}

/**
 * Returns a telemetry integration for the `ai` package, version 7 (its `Telemetry` interface): registered once with
 * `registerTelemetry(aiSDKTelemetry())`, every `generateText`, `streamText`, `generateObject`, `streamObject`,
 * `embed` and `embedMany` call becomes a weft call without wrapping the module, recorded as `wrapAISDK`
 * records it: op `ai.<name>` nested under the running call; inputs the options as the SDK's start event tells them
 * (the model as its id, the prompt as `instructions` and `messages`, tools, settings; the SDK's
 * `telemetry.recordInputs: false` leaves the prompt out); output the text, object, tool calls and results, finish
 * reason, all steps' `messages` (embeddings as their dimensions); finish reasons, response model and id, and
 * `time_to_first_token_ms` for `streamText`; each step's model request of `generateText` / `streamText` as a child
 * call (`ai.generateText.doGenerate`, `ai.streamText.doStream`: the instructions and messages sent, the reply's
 * content, the request's usage), the usage then in those alone, else (other operations) `summary.usage[model]` over
 * all steps with `requests` = steps; tool executions as child calls `ai.tool.<name>` with `{input}` and the tool's
 * output or error, between the steps; errors recorded, aborted streams cancelled.
 *
 * Counted once: when an operation is also called through `wrapAISDK`, the wrapper records it and this integration
 * records nothing for it (nor for its tools); an operation run inside it (in a tool) is recorded as usual. An
 * integration registered twice records each operation once. Needs `init()` (else nothing is recorded, at no cost
 * beyond a map lookup per event); tracing never throws into the SDK (a failure is logged). The `ai` package is not
 * imported: weft works without it.
 * @example
 * import { registerTelemetry } from 'ai';
 * registerTelemetry(aiSDKTelemetry());
 * @see https://ai-sdk.dev/docs/ai-sdk-core/telemetry
 */
export function aiSDKTelemetry(): AISDKTelemetry {
  const get = (o: { callId: string }): ActiveCall | undefined => operations.get(o.callId)?.active;
  return {
    onStart: guarded('an operation start', start),
    onLanguageModelCallStart: guarded('a model call start', modelCallStarted),
    onLanguageModelCallEnd: guarded('a model call end', modelCallEnded),
    onToolExecutionEnd: guarded('a tool execution end', toolEnded),
    onEnd: guarded('an operation end', (e) => finish(e, (active) => active.succeed(e), (step) => step.cancel())),
    onAbort: guarded('an abort', (e) => finish(e, (active) => active.cancel())),
    onError: guarded('an error', (e) => finish(e, (active) => active.fail(e['error']))),
    executeLanguageModelCall: (o) => within(() => operations.get(o.callId)?.step?.active ?? get(o), o.execute),
    executeTool: (o) => within(() => startTool(o as unknown as Obj), o.execute),
  };
}
