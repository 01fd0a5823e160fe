/**
 * A Mastra span as an exporter receives it, and the weft op it becomes: op name, display name, inputs, attributes, output and summary.
 * @module
 */
import { InputKeys } from '../../instrument/input-keys.js';
import type { OpDefinition } from '../../instrument/op-definition.js';
import { mastraUsage, unreportedUsage, usageByModel } from '../../instrument/usage-model.js';

type Obj = Record<string, unknown>;

/**
 * The fields of Mastra's `ExportedSpan` (`@mastra/core/observability`) that weft reads; a structural copy, so
 * weft imports nothing from Mastra. Span types are the values of Mastra's `SpanType` (`agent_run`,
 * `model_generation`, `tool_call`, `workflow_run`, `workflow_step`, ...).
 * @see https://mastra.ai/reference/observability/tracing/interfaces
 */
export interface MastraExportedSpan {
  readonly id: string;
  readonly traceId: string;
  readonly name: string;
  readonly type: string;
  readonly entityType?: string | undefined;
  readonly entityId?: string | undefined;
  readonly entityName?: string | undefined;
  readonly attributes?: object | undefined;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly errorInfo?: { readonly message: string; readonly name?: string | undefined; readonly stack?: string | undefined } | undefined;
  readonly isEvent?: boolean | undefined;
  readonly isRootSpan?: boolean | undefined;
  readonly parentSpanId?: string | undefined;
  readonly startTime?: Date | string | undefined;
}

/**
 * Span types that become no call: a generation's steps, its provider requests and its stream chunks. Their children
 * (tool calls) belong to the nearest recorded ancestor (the model generation), and a generation's `requests` counts
 * its steps.
 */
export const HIDDEN_SPAN_TYPES: ReadonlySet<string> = new Set(['model_step', 'model_inference', 'model_chunk']);

/** Span types named after their entity in the op name (`mastra.agent.weather-agent`). */
const ENTITY_OPS: Readonly<Record<string, string>> = {
  agent_run: 'agent',
  tool_call: 'tool',
  mcp_tool_call: 'mcp_tool',
  client_tool_call: 'tool',
  workflow_run: 'workflow',
  workflow_step: 'workflow_step',
};

const KEYS = new InputKeys(['input']);

/** An object input is the inputs (a tool's arguments, a generation's `{messages}`); anything else is `{input}`. */
function inputsOf(inputs: Obj): Obj {
  const i = inputs['input'];
  return i !== null && typeof i === 'object' && !Array.isArray(i) ? (i as Obj) : inputs;
}

/** The recorded output: the span's, with empty lists left out (a generation's `files`, `sources`, `warnings`). */
function outputOf(span: unknown): unknown {
  const out = (span as MastraExportedSpan).output;
  if (out === null || typeof out !== 'object' || Array.isArray(out)) return out;
  const kept: Obj = {};
  for (const [k, v] of Object.entries(out)) if (!(Array.isArray(v) && v.length === 0)) kept[k] = v;
  return kept;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** `gen_ai.*` attributes of a span's call (OpenTelemetry GenAI semantic conventions), as the provider wrappers record them. */
function genAiAttributes(span: MastraExportedSpan): Obj {
  const a = (span.attributes ?? {}) as Obj;
  const entity = str(span.entityName) ?? str(span.entityId);
  switch (span.type) {
    case 'model_generation': {
      const out: Obj = { 'gen_ai.operation.name': 'chat' };
      const provider = str(a['provider']);
      if (provider) out['gen_ai.provider.name'] = provider.split('.')[0];
      if (str(a['model'])) out['gen_ai.request.model'] = a['model'];
      return out;
    }
    case 'agent_run':
      return entity ? { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': entity } : { 'gen_ai.operation.name': 'invoke_agent' };
    case 'tool_call':
    case 'mcp_tool_call':
      return entity ? { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': entity } : { 'gen_ai.operation.name': 'execute_tool' };
  }
  return {};
}

/** What a model generation's summary needs to know besides its span: its steps, and whether a provider wrapper counted its usage. */
export interface GenerationState {
  /** Model steps (provider requests) seen under it. */
  steps: number;
  /** A provider wrapper recorded its requests (`model-request-once.ts`): the generation records no usage. */
  counted(): boolean;
}

/**
 * Summary of an ended model generation: usage by the responding model (`requests` = its steps) unless a provider
 * wrapper counted it, the response model and id, finish reason, and time to first token.
 */
function generationSummary(span: MastraExportedSpan, state: GenerationState): Obj {
  const a = (span.attributes ?? {}) as Obj;
  const model = str(a['responseModel']) ?? str(a['model']);
  const extra: Obj = {};
  if (!state.counted()) {
    const usage = mastraUsage(a['usage']) ?? unreportedUsage();
    usage.requests = Math.max(state.steps, 1);
    extra['usage'] = usageByModel(model, usage);
  }
  if (str(a['responseModel'])) extra['gen_ai.response.model'] = a['responseModel'];
  if (str(a['responseId'])) extra['gen_ai.response.id'] = a['responseId'];
  if (str(a['finishReason'])) extra['gen_ai.response.finish_reasons'] = [a['finishReason']];
  const first = Date.parse(String(a['completionStartTime'] ?? ''));
  const start = span.startTime === undefined ? NaN : new Date(span.startTime).getTime();
  if (Number.isFinite(first) && Number.isFinite(start)) extra['time_to_first_token_ms'] = Math.max(0, first - start);
  return extra;
}

/**
 * The op of one span's call: `mastra.<entity kind>.<entity id>` for agents, tools, workflows and their steps,
 * `mastra.<span type>` otherwise (`mastra.model_generation`); the span's name as display name. The call is
 * started with `[span.input]` and ended with the ended span itself, which `postprocessOutput` and `summarize` read.
 */
export function spanOp(span: MastraExportedSpan, generation: GenerationState | undefined): OpDefinition {
  const kind = ENTITY_OPS[span.type];
  const entity = str(span.entityId) ?? str(span.entityName);
  const name = kind && entity ? `mastra.${kind}.${entity}` : `mastra.${span.type}`;
  return {
    name,
    inputKeys: KEYS,
    options: {
      callDisplayName: span.name,
      attributes: { ...genAiAttributes(span), 'mastra.span_type': span.type },
      postprocessInputs: inputsOf,
      postprocessOutput: outputOf,
      ...(generation ? { summarize: (ended: unknown) => generationSummary(ended as MastraExportedSpan, generation) } : {}),
    },
  };
}

/**
 * The error a failed span records: its `errorInfo` (message, name, stack), or, for a model generation that ended with
 * finish reason `error` and no `errorInfo` (Mastra ends it so when the model's request fails; the agent run above it
 * holds the error), an `Error` saying so. `undefined` for a span that succeeded.
 */
export function spanError(span: MastraExportedSpan): Error | undefined {
  const info = span.errorInfo;
  if (info) {
    const err = new Error(info.message);
    if (info.name) err.name = info.name;
    if (info.stack) err.stack = info.stack;
    return err;
  }
  const reason = ((span.attributes ?? {}) as Obj)['finishReason'];
  return span.type === 'model_generation' && reason === 'error' ? new Error('the model generation ended with finish reason "error"') : undefined;
}
