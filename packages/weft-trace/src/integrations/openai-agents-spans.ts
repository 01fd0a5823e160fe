/**
 * What a trace or span of the OpenAI Agents SDK records as a weft call: op name, display name, inputs, attributes, output and summary.
 * @module
 */
import { InputKeys } from '../instrument/input-keys.js';
import type { OpDefinition } from '../instrument/op-definition.js';
import { openAIChatUsage, openAIResponsesUsage, usageByModel } from '../instrument/usage-model.js';
import { chatFinishReasons, responseFinishReasons } from './openai-folds.js';

type Obj = Record<string, unknown>;

/** A trace as this integration reads it (`Trace` of `@openai/agents-core`, duck-typed). */
export interface AgentsTrace {
  readonly traceId: string;
  readonly name: string;
  readonly groupId?: string | null | undefined;
  readonly metadata?: Record<string, unknown> | undefined;
}

/** A span as this integration reads it (`Span` of `@openai/agents-core`, duck-typed). */
export interface AgentsSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentId: string | null;
  readonly spanData: { readonly type: string };
  /** ISO 8601, set by `span.start()`. */
  readonly startedAt: string | null;
  readonly error: { message: string; data?: Record<string, unknown> | undefined } | null;
}

/** The op name of a span of type `type`: `openai.agents.<type>`. */
export const opNameOf = (type: string): string => `openai.agents.${type}`;

/** Span types whose data is complete when they start: recorded as calls at once; the others when they end (or when a call starts inside them). */
const COMPLETE_AT_START = new Set(['task', 'agent', 'turn', 'custom', 'speech_group']);

/** Whether a span of this type becomes a call when it starts (else when it ends, or when a call needs it as parent). */
export const startsAtOnce = (span: AgentsSpan): boolean => COMPLETE_AT_START.has(span.spanData.type);

/** The model request spans (`response`: the Responses API; `generation`: Chat Completions and other providers). */
export const isModelSpan = (span: AgentsSpan): boolean => span.spanData.type === 'response' || span.spanData.type === 'generation';

const KEYS = new InputKeys(['inputs']);

function unwrapInputs(inputs: Obj): Obj {
  const i = inputs['inputs'];
  return i !== null && typeof i === 'object' && !Array.isArray(i) ? (i as Obj) : inputs;
}

/** `o` without its `undefined` fields. */
function defined(o: Obj): Obj {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/** A tool's arguments or result as the SDK traces them (a string): the JSON value when it is JSON, else the string. */
function jsonOrText(v: unknown): unknown {
  if (typeof v !== 'string' || !/^\s*[[{]/.test(v)) return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** What a call records at its start: the op (name, display name, attributes) and its inputs. */
export interface CallStart {
  op: OpDefinition;
  inputs: Obj;
}

function define(type: string, displayName: string | undefined, attributes: Obj, summary?: () => Obj): OpDefinition {
  return {
    name: opNameOf(type),
    inputKeys: KEYS,
    options: { attributes, callDisplayName: displayName, postprocessInputs: unwrapInputs, ...(summary ? { summarize: summary } : {}) },
  };
}

/** The root call of an Agents trace: op `openai.agents.trace`, named after the workflow. */
export function traceStart(trace: AgentsTrace): CallStart {
  const metadata = trace.metadata && Object.keys(trace.metadata).length > 0 ? trace.metadata : undefined;
  return {
    op: define('trace', str(trace.name), { 'openai.agents.trace_id': trace.traceId }),
    inputs: defined({ name: trace.name, group_id: trace.groupId ?? undefined, metadata }),
  };
}

/** The model request of a `response` or `generation` span: the response (or the Chat Completions object) and the model. */
function modelOf(span: AgentsSpan): { response: Obj | undefined; model: string | undefined } {
  const d = span.spanData as Obj;
  if (d['type'] === 'response') {
    const response = d['_response'] as Obj | undefined;
    return { response, model: str(response?.['model']) };
  }
  const out = Array.isArray(d['output']) && d['output'].length === 1 ? (d['output'][0] as Obj | undefined) : undefined;
  return { response: out, model: str(out?.['model']) ?? str(d['model']) };
}

/** What the SDK names a run, and its trace, when neither is given a workflow name. */
const DEFAULT_WORKFLOW = 'Agent workflow';

/**
 * A task span's display name: `run` when it would repeat its trace's name (the SDK names a run after the trace's
 * workflow, so a trace and its run read alike), else the workflow the run names (a run named apart from its trace).
 */
function runName(name: string | undefined, workflow: string | undefined): string {
  return name === undefined || name === workflow || name === DEFAULT_WORKFLOW ? 'run' : name;
}

/** Inputs and display name by span type, from the span's data as it is now (`workflow`: the name of its trace). */
function describe(span: AgentsSpan, workflow: string | undefined): { inputs: Obj; name: string | undefined } {
  const d = span.spanData as Obj;
  switch (d['type']) {
    case 'agent':
      return { name: str(d['name']), inputs: { name: d['name'] } };
    case 'task':
      return { name: runName(str(d['name']), workflow), inputs: { name: d['name'] } };
    case 'turn':
      return { name: `${String(d['agent_name'])} turn ${String(d['turn'])}`, inputs: { turn: d['turn'], agent_name: d['agent_name'] } };
    case 'function':
      return { name: str(d['name']), inputs: defined({ name: d['name'], input: jsonOrText(d['input']), mcp_data: d['mcp_data'] }) };
    case 'handoff':
      return { name: `${String(d['from_agent'] ?? '?')} → ${String(d['to_agent'] ?? '?')}`, inputs: defined({ from_agent: d['from_agent'], to_agent: d['to_agent'] }) };
    case 'guardrail':
      return { name: str(d['name']), inputs: { name: d['name'] } };
    case 'custom':
      return { name: str(d['name']), inputs: defined({ name: d['name'], data: d['data'] }) };
    case 'mcp_tools':
      return { name: str(d['server']), inputs: defined({ server: d['server'] }) };
    case 'response': {
      const r = modelOf(span).response;
      return { name: undefined, inputs: defined({ model: r?.['model'], instructions: r?.['instructions'] ?? undefined, input: d['_input'] }) };
    }
    case 'generation':
      return { name: undefined, inputs: defined({ model: d['model'], model_config: d['model_config'], messages: d['input'] }) };
    default: {
      const rest: Obj = {};
      for (const [k, v] of Object.entries(d)) if (k !== 'type' && !k.startsWith('_')) rest[k] = v;
      return { name: undefined, inputs: rest };
    }
  }
}

/**
 * The call of a span, from its data as it is now. `asModelCall`: a model span recorded as the model call (at its end,
 * no weft call started inside it): it gets the `gen_ai.*` attributes of the provider wrappers. A model span's
 * `summary` is read when its call ends (see {@link spanEnd}). `workflow`: the name of the span's trace.
 */
export function spanStart(span: AgentsSpan, asModelCall: boolean, summary: () => Obj, workflow?: string): CallStart {
  const { inputs, name } = describe(span, workflow);
  const attributes: Obj = { 'openai.agents.trace_id': span.traceId, 'openai.agents.span_id': span.spanId };
  if (asModelCall) {
    const { response, model } = modelOf(span);
    if (span.spanData.type === 'response' || String(response?.['object']).startsWith('chat.completion')) attributes['gen_ai.provider.name'] = 'openai';
    attributes['gen_ai.operation.name'] = 'chat';
    const requested = str((span.spanData as Obj)['model']) ?? model;
    if (requested) attributes['gen_ai.request.model'] = requested;
  }
  return { op: define(span.spanData.type, name, attributes, isModelSpan(span) ? summary : undefined), inputs };
}

/** Summary fields of a model span's response, as the provider wrappers record them: usage by model, finish reasons, response model and id. */
function modelSummary(span: AgentsSpan): Obj | undefined {
  const { response, model } = modelOf(span);
  const d = span.spanData as Obj;
  const chat = Array.isArray(response?.['choices']);
  const usage = d['usage'] !== undefined ? openAIResponsesUsage(d['usage']) : chat ? openAIChatUsage(response?.['usage']) : openAIResponsesUsage(response?.['usage']);
  const out: Obj = {};
  const byModel = usageByModel(model, usage);
  if (byModel) out['usage'] = byModel;
  const reasons = chat ? chatFinishReasons(response) : d['type'] === 'response' ? responseFinishReasons(response) : undefined;
  if (reasons?.length) out['gen_ai.response.finish_reasons'] = reasons;
  if (str(response?.['model'])) out['gen_ai.response.model'] = response?.['model'];
  if (str(response?.['id'])) out['gen_ai.response.id'] = response?.['id'];
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * What a span's call ends with. A model span with a model call below it (a provider wrapper: see the class's rule)
 * records only the response id: the call below holds the request, the response and the usage.
 */
export function spanEnd(span: AgentsSpan, modelCallBelow: boolean): { output: unknown; summary: Obj | undefined } {
  const d = span.spanData as Obj;
  switch (d['type']) {
    case 'agent': // the SDK sets the tools and handoffs after the span starts
      return { output: defined({ tools: d['tools'], handoffs: d['handoffs'], output_type: d['output_type'] }), summary: undefined };
    case 'function':
      return { output: jsonOrText(d['output']), summary: undefined };
    case 'handoff':
      return { output: defined({ to_agent: d['to_agent'] }), summary: undefined };
    case 'guardrail':
      return { output: { triggered: d['triggered'] }, summary: undefined };
    case 'mcp_tools':
      return { output: d['result'], summary: undefined };
    case 'response':
    case 'generation': {
      if (modelCallBelow) return { output: defined({ response_id: d['response_id'] ?? modelOf(span).response?.['id'] }), summary: undefined };
      const { response } = modelOf(span);
      return { output: d['type'] === 'response' ? response : (response ?? d['output']), summary: modelSummary(span) };
    }
    default:
      return { output: undefined, summary: undefined };
  }
}

/** The error a span ended with, as the call's exception: the SDK's message, and its `data.error` when it has one. */
export function spanError(error: NonNullable<AgentsSpan['error']>): Error {
  const detail = error.data?.['error'];
  const e = new Error(typeof detail === 'string' && detail !== '' ? `${error.message}: ${detail}` : error.message);
  e.name = 'AgentsSpanError';
  e.stack = `${e.name}: ${e.message}`;
  return e;
}
