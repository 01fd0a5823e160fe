/**
 * The playground's calls to the server: which providers it configures, a variant run (its JSONL lines handed on as
 * they arrive), a variant run over a dataset, a variant saved as a prompt version, the datasets to pick from, and
 * the variant a call or a prompt version opens as.
 * @module
 */
import { jsonlLineBatches, objectRef, type PromptValue, variablesOf } from 'weft-trace/viewer';
import { request, streamQuery } from '../api';
import { chatOfCall } from '../chat/chat-of-call';
// the server's shapes, as types only (nothing of the server is bundled)
import type { Variant, WorkerLine } from '../../server/playground/playground-job';
import type { ProviderStatus } from '../../server/playground/providers';

export type { ProviderStatus, Variant };
/** A line of a run's answer. */
export type RunLine = WorkerLine;

export async function providers(): Promise<ProviderStatus[]> {
  return ((await (await request('/weft/playground/providers')).json()) as { providers: ProviderStatus[] }).providers;
}

async function* chunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}

/** POSTs `body` to a playground route and hands each line of the JSONL answer to `onLine` as it arrives. */
async function streamLines(path: string, body: unknown, onLine: (line: RunLine) => void, signal?: AbortSignal): Promise<void> {
  const res = await request(path, body, signal);
  if (!res.body) return;
  for await (const lines of jsonlLineBatches(chunks(res.body))) for (const l of lines) if (l.trim() !== '') onLine(JSON.parse(l) as RunLine);
}

/** Runs `variant` once, streamed. */
export function runVariant(project: string, variant: Variant, onLine: (line: RunLine) => void, signal?: AbortSignal): Promise<void> {
  return streamLines('/weft/playground/run', { project_id: project, variant }, onLine, signal);
}

/** Runs `variant` over a dataset with `scorers`, recorded as evaluation run `name`. */
export function evaluateVariant(project: string, variant: Variant, datasetRef: string, scorers: string[], name: string, onLine: (line: RunLine) => void): Promise<void> {
  return streamLines('/weft/playground/evaluate', { project_id: project, variant, dataset_ref: datasetRef, scorers, name }, onLine);
}

/** Saves `variant` as a new version of prompt `name`; its digest and version index. */
export async function saveVariant(project: string, name: string, variant: Variant): Promise<{ digest: string; ref: string }> {
  return (await (await request('/weft/playground/save', { project_id: project, name, variant })).json()) as { digest: string; ref: string };
}

/** The project's datasets (their latest versions): name and ref. */
export async function datasets(project: string): Promise<{ name: string; ref: string }[]> {
  const res = await request('/objs/query', { project_id: project, filter: { base_object_classes: ['Dataset'], latest_only: true }, metadata_only: true });
  return ((await res.json()) as { objs: { object_id: string; digest: string }[] }).objs.map((o) => ({ name: o.object_id, ref: objectRef(project, o.object_id, o.digest) }));
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant']);
const PROVIDER_OF: Record<string, Variant['provider']> = { 'openai-chat': 'openai', 'openai-responses': 'openai', anthropic: 'anthropic', gemini: 'google' };
const PARAM_KEYS = ['temperature', 'max_tokens', 'top_p', 'max_completion_tokens', 'stop', 'seed'];

/** The variant a model call opens as: its messages (text parts; the reply left out), model and common parameters. */
export async function variantOfCall(project: string, callId: string): Promise<Variant> {
  const [call] = await streamQuery({ project_id: project, filter: { call_ids: [callId] } });
  if (!call) throw new Error(`no call ${callId} in ${project}`);
  const chat = chatOfCall(call);
  if (!chat) throw new Error(`call ${callId} is not a model call the playground can open`);
  const inputs = (call.inputs ?? {}) as Record<string, unknown>;
  const messages = chat.messages.filter((m) => !m.reply && ROLES.has(m.role)).map((m) => ({
    role: m.role as Variant['messages'][number]['role'],
    content: m.parts.map((p) => (p.kind === 'text' ? p.text : '')).join(''),
  }));
  const params = Object.fromEntries(PARAM_KEYS.filter((k) => inputs[k] !== undefined).map((k) => [k, inputs[k]]));
  return { provider: PROVIDER_OF[chat.format] ?? 'openai', model: typeof inputs['model'] === 'string' ? inputs['model'] : '', messages, params, source_call_id: callId, values: {} };
}

/** The variant prompt version `<name>:<digest>` opens as (a text prompt: one user message). */
export async function variantOfPrompt(project: string, spec: string): Promise<{ variant: Variant; name: string }> {
  const colon = spec.lastIndexOf(':');
  const name = colon > 0 ? spec.slice(0, colon) : spec;
  const digest = colon > 0 ? spec.slice(colon + 1) : 'latest';
  const { obj } = (await (await request('/obj/read', { project_id: project, object_id: name, digest })).json()) as { obj: { digest: string; val: PromptValue } };
  const v = obj.val;
  const messages = v.messages ? v.messages.map((m) => ({ role: (ROLES.has(m.role) ? m.role : 'user') as Variant['messages'][number]['role'], content: m.content })) : [{ role: 'user' as const, content: v.template ?? '' }];
  const model = v.model ?? '';
  return { name, variant: { provider: /^claude/.test(model) ? 'anthropic' : /^gemini/.test(model) ? 'google' : 'openai', model, messages, params: { ...v.params }, prompt_ref: objectRef(project, name, obj.digest), values: {} } };
}

/** The `{{variables}}` of the variant's messages, in order of first use. */
export function variantVariables(variant: Variant): string[] {
  return [...new Set(variant.messages.flatMap((m) => variablesOf(m.content)))];
}
