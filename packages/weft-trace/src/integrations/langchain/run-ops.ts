/**
 * What a LangChain run records as a weft call: its op name, attributes, inputs, output and (model runs) usage, in the shape the OpenAI wrapper records.
 * @module
 */
import type { Run } from '@langchain/core/tracers/base';
import type { Call } from '../../instrument/call.js';
import { InputKeys } from '../../instrument/input-keys.js';
import type { OpDefinition } from '../../instrument/op-definition.js';
import { langChainUsage, unreportedUsage, usageByModel } from '../../instrument/usage-model.js';
import { countedByProvider } from '../model-request-once.js';
import { chatMessage, isMessage, plain } from './lc-values.js';

type Obj = Record<string, unknown>;

/** What a run's hooks share while it runs. */
export interface RunState {
  /** Its call, once started. */
  call?: Call | undefined;
  /** When its call started (ms since epoch). */
  startedAtMs: number;
  /** ms from the start to the first streamed token (`handleLLMNewToken`). */
  timeToFirstTokenMs?: number | undefined;
}

const KEYS = new InputKeys(['inputs']);

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** A chat model run: started by `handleChatModelStart` (its inputs are message lists). */
export function isChatRun(run: Run): boolean {
  return run.run_type === 'llm' && Array.isArray(run.inputs['messages']);
}

/** A LangGraph node: a run named as its `metadata.langgraph_node`. */
function nodeOf(run: Run): string | undefined {
  const node = obj(run.extra?.['metadata'])['langgraph_node'];
  return run.run_type === 'chain' && node === run.name ? run.name : undefined;
}

/** `langgraph.node.<name>`, `langchain.chat_model.<name>`, else `langchain.<run_type>.<name>`. */
export function runOpName(run: Run): string {
  if (nodeOf(run) !== undefined) return `langgraph.node.${run.name}`;
  return `langchain.${isChatRun(run) ? 'chat_model' : run.run_type}.${run.name}`;
}

/**
 * The requested model (`ls_model_name`, else the invocation params' `model`), provider (`ls_provider`) and params: the
 * invocation params, with the call options' `tools` and `tool_choice` (bound tools) when they have none.
 */
function requestOf(run: Run): { model?: string | undefined; provider?: string | undefined; params: Obj } {
  const md = obj(run.extra?.['metadata']);
  const options = obj(run.extra?.['options']);
  const params: Obj = { ...obj(run.extra?.['invocation_params']) };
  for (const k of ['tools', 'tool_choice']) if (params[k] === undefined && options[k] !== undefined) params[k] = options[k];
  return { model: str(md['ls_model_name']) ?? str(params['model']) ?? str(params['model_name']) ?? str(params['modelName']), provider: str(md['ls_provider']), params };
}

/** Start attributes: the run type and id; model runs `gen_ai.*` (OTel GenAI), tools `gen_ai.tool.*`, nodes `langgraph.*`. */
function attributesOf(run: Run): Obj {
  const a: Obj = { 'langchain.run_type': run.run_type, 'langchain.run_id': run.id };
  const md = obj(run.extra?.['metadata']);
  if (run.run_type === 'llm') {
    const { model, provider } = requestOf(run);
    a['gen_ai.provider.name'] = provider ?? 'langchain';
    a['gen_ai.operation.name'] = isChatRun(run) ? 'chat' : 'text_completion';
    if (model) a['gen_ai.request.model'] = model;
  } else if (run.run_type === 'tool') {
    a['gen_ai.operation.name'] = 'execute_tool';
    a['gen_ai.tool.name'] = run.name;
    const id = str(run.extra?.['tool_call_id']);
    if (id) a['gen_ai.tool.call.id'] = id;
  } else if (nodeOf(run) !== undefined) {
    a['langgraph.node'] = run.name;
    if (typeof md['langgraph_step'] === 'number') a['langgraph.step'] = md['langgraph_step'];
  }
  return a;
}

/** Inputs: a chat run's as an OpenAI chat request (`model`, `messages`, the invocation params); others made plain. */
function inputsOf(run: Run): Obj {
  const i = run.inputs;
  if (run.run_type !== 'llm') return obj(plain(i));
  const { model, params } = requestOf(run);
  const out: Obj = { ...obj(plain(params)) };
  if (model) out['model'] = model;
  if (isChatRun(run)) {
    const [messages] = i['messages'] as unknown[][];
    out['messages'] = (messages ?? []).map((m) => (isMessage(m) ? chatMessage(m) : plain(m)));
  } else out['prompts'] = i['prompts'];
  return out;
}

/** The texts of a message's `content`: the string, or its parts' `text`. */
function contentTexts(content: unknown): string[] {
  if (typeof content === 'string') return content === '' ? [] : [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => {
    const text = str(obj(part)['text']);
    return text === undefined ? [] : [text];
  });
}

/**
 * The texts a model run's request carries, whatever provider sends it: its messages' texts (a chat run), its prompts
 * (an LLM run). A provider wrapper's request is paired with the run by them (`RunBridge.modelRunFor`).
 */
export function requestTexts(run: Run): string[] {
  if (isChatRun(run)) {
    const [messages] = run.inputs['messages'] as unknown[][];
    return (messages ?? []).flatMap((m) => contentTexts(obj(m)['content']));
  }
  const prompts = run.inputs['prompts'];
  return Array.isArray(prompts) ? prompts.filter((p): p is string => str(p) !== undefined) : [];
}

interface Generation {
  text?: string;
  message?: Obj & { _getType(): string };
  generationInfo?: Obj;
}

/**
 * The model that answered, as the provider named it, however the run was consumed: the message's
 * `response_metadata.model_name` (LangChain's key; `invoke`, `stream`), else the generation's
 * `generationInfo.model_name` (a stream LangChain aggregates for a streaming callback, as LangGraph's
 * `streamMode: 'messages'` and `streamEvents` have, keeps it only there), else the provider's own `model` field
 * (`@langchain/anthropic`: `response_metadata.model`, a stream's `additional_kwargs.model`).
 */
function servedModel(g: Generation | undefined): string | undefined {
  const rm = obj(g?.message?.['response_metadata']);
  return str(rm['model_name']) ?? str(g?.generationInfo?.['model_name']) ?? str(rm['model']) ?? str(obj(g?.message?.['additional_kwargs'])['model']);
}

function generationsOf(run: Run): Generation[] {
  const g = obj(run.outputs)['generations'];
  return Array.isArray(g) && Array.isArray(g[0]) ? (g[0] as Generation[]) : [];
}

const finishReasonOf = (g: Generation): string | undefined => str(g.generationInfo?.['finish_reason']) ?? str(obj(g.message?.['response_metadata'])['finish_reason']);

/** A chat run's output as an OpenAI chat completion (`model`, `choices[].message`, `finish_reason`); an LLM run's texts. */
function modelOutput(run: Run): unknown {
  const gens = generationsOf(run);
  if (!isChatRun(run)) return { generations: gens.map((g) => g.text) };
  const first = obj(gens[0]?.message?.['response_metadata']);
  const out: Obj = { object: 'chat.completion', model: servedModel(gens[0]) ?? requestOf(run).model ?? run.name };
  if (str(first['id'])) out['id'] = first['id'];
  out['choices'] = gens.map((g, index) => ({
    index,
    message: g.message && isMessage(g.message) ? chatMessage(g.message) : { role: 'assistant', content: g.text ?? '' },
    finish_reason: finishReasonOf(g) ?? null,
  }));
  return out;
}

/** The output of any run: model runs' as {@link modelOutput}; `{output}` unwrapped; retrievers' documents. */
export function outputOf(run: Run): unknown {
  if (run.run_type === 'llm') return modelOutput(run);
  const o = obj(run.outputs);
  const keys = Object.keys(o);
  if (keys.length === 1 && (keys[0] === 'output' || keys[0] === 'documents')) return plain(o[keys[0]]);
  return plain(o);
}

/** The usage LangChain reports: the message's `usage_metadata` (a stream's, added up), else `llmOutput.tokenUsage`. */
function reportedUsage(run: Run, gen: Generation | undefined): ReturnType<typeof langChainUsage> {
  const fromMessage = langChainUsage(gen?.message?.['usage_metadata']);
  if (fromMessage) return fromMessage;
  const t = obj(obj(obj(run.outputs)['llmOutput'])['tokenUsage']);
  return Object.keys(t).length ? langChainUsage({ input_tokens: t['promptTokens'], output_tokens: t['completionTokens'], total_tokens: t['totalTokens'] }) : undefined;
}

/**
 * A model run's summary: `usage[model]` (the served model, {@link servedModel}, else the requested one) unless a
 * provider wrapper recorded the request under it (`model-request-once.ts`), `time_to_first_token_ms` (streams),
 * `gen_ai.response.finish_reasons`, `.model`, `.id`.
 */
function modelSummary(run: Run, state: RunState): Obj {
  const gens = generationsOf(run);
  const rm = obj(gens[0]?.message?.['response_metadata']);
  const served = servedModel(gens[0]);
  const model = served ?? requestOf(run).model ?? run.name;
  const extra: Obj = {};
  if (state.call === undefined || !countedByProvider(state.call)) extra['usage'] = usageByModel(model, reportedUsage(run, gens[0]) ?? unreportedUsage());
  if (state.timeToFirstTokenMs !== undefined) extra['time_to_first_token_ms'] = state.timeToFirstTokenMs;
  const reasons = gens.map(finishReasonOf).filter((r): r is string => r !== undefined);
  if (reasons.length) extra['gen_ai.response.finish_reasons'] = reasons;
  if (served !== undefined) extra['gen_ai.response.model'] = served;
  if (str(rm['id'])) extra['gen_ai.response.id'] = rm['id'];
  return extra;
}

/** The op definition of `run`: recorded inputs from `[run]`, and output and summary from the ended run. */
export function runOp(run: Run, state: RunState): OpDefinition {
  return {
    name: runOpName(run),
    inputKeys: KEYS,
    options: {
      attributes: attributesOf(run),
      postprocessInputs: () => inputsOf(run),
      postprocessOutput: (ended) => outputOf(ended as Run),
      ...(run.run_type === 'llm' ? { summarize: (ended: unknown) => modelSummary(ended as Run, state) } : {}),
    },
  };
}
