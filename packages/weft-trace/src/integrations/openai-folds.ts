/**
 * OpenAI stream folding: Chat Completions chunks into one `chat.completion`, Responses API events into one response.
 * @module
 */

type Obj = Record<string, unknown>;

interface ToolCallDelta {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

/** A choice's `logprobs`: per token of the content and of a refusal. */
interface ChoiceLogprobs {
  content?: unknown[] | null;
  refusal?: unknown[] | null;
}

interface ChoiceDelta {
  index?: number;
  logprobs?: ChoiceLogprobs | null;
  delta?: { role?: string; content?: string | null; refusal?: string | null; tool_calls?: ToolCallDelta[] };
  finish_reason?: string | null;
}

interface AssembledChoice {
  index: number;
  message: { role: string; content: string | null; refusal: string | null; tool_calls?: ToolCallDelta[] };
  finish_reason: string | null;
  logprobs?: ChoiceLogprobs;
}

/** Appends each chunk's token logprobs (content, refusal) to the choice's, as a completion answered whole holds them. */
function mergeLogprobs(out: AssembledChoice, lp: ChoiceLogprobs): void {
  const into = (out.logprobs ??= { content: null, refusal: null });
  if (Array.isArray(lp.content)) into.content = [...(into.content ?? []), ...lp.content];
  if (Array.isArray(lp.refusal)) into.refusal = [...(into.refusal ?? []), ...lp.refusal];
}

/** Appends `b` to a nullable string. */
function concat(a: string | null | undefined, b: string): string {
  return (a ?? '') + b;
}

function mergeToolCalls(into: ToolCallDelta[], deltas: ToolCallDelta[]): void {
  for (const d of deltas) {
    const i = d.index ?? into.length;
    const t = (into[i] ??= { id: d.id, type: d.type ?? 'function', function: { name: '', arguments: '' } });
    if (d.id) t.id = d.id;
    const f = t.function!;
    if (d.function?.name) f.name = concat(f.name, d.function.name);
    if (d.function?.arguments) f.arguments = concat(f.arguments, d.function.arguments);
  }
}

/**
 * Folds one `chat.completion.chunk` into a `chat.completion`-shaped object: content, refusal and tool
 * calls (arguments concatenated by tool-call index) per choice, the finish reason, token `logprobs` when the
 * chunks carry them (`logprobs: true`), and the final chunk's `usage`.
 * @see https://platform.openai.com/docs/api-reference/chat/streaming
 */
export function foldChatChunk(acc: unknown, chunk: unknown): unknown {
  const c = chunk as Obj;
  const a = (acc ?? { id: c['id'], object: 'chat.completion', created: c['created'], model: c['model'], choices: [] as AssembledChoice[] }) as Obj & { choices: AssembledChoice[] };
  if (c['usage']) a['usage'] = c['usage'];
  if (c['system_fingerprint']) a['system_fingerprint'] = c['system_fingerprint'];
  const choices = c['choices'];
  if (!Array.isArray(choices)) return a;
  for (const ch of choices as ChoiceDelta[]) {
    const idx = ch.index ?? 0;
    const out = (a.choices[idx] ??= { index: idx, message: { role: 'assistant', content: null, refusal: null }, finish_reason: null });
    const d = ch.delta;
    if (d?.role) out.message.role = d.role;
    if (typeof d?.content === 'string' && (d.content !== '' || out.message.content !== null)) out.message.content = concat(out.message.content, d.content);
    if (typeof d?.refusal === 'string' && (d.refusal !== '' || out.message.refusal !== null)) out.message.refusal = concat(out.message.refusal, d.refusal);
    if (Array.isArray(d?.tool_calls)) mergeToolCalls((out.message.tool_calls ??= []), d.tool_calls);
    if (ch.finish_reason) out.finish_reason = ch.finish_reason;
    if (ch.logprobs) mergeLogprobs(out, ch.logprobs);
  }
  return a;
}

/** The finish reason of each choice of a chat completion. */
export function chatFinishReasons(out: unknown): string[] | undefined {
  const choices = (out as Obj | undefined)?.['choices'];
  if (!Array.isArray(choices)) return undefined;
  return (choices as { finish_reason?: unknown }[]).map((c) => c?.finish_reason).filter((r): r is string => typeof r === 'string');
}

/**
 * Folds one Responses API stream event: the `response` of `response.created` / `.completed` /
 * `.incomplete` / `.failed` (the last one holds output and usage), and `response.output_text.delta` text
 * concatenated into `output_text` (what a cancelled stream had received).
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export function foldResponseEvent(acc: unknown, event: unknown): unknown {
  const e = event as Obj;
  const a = (acc ?? {}) as Obj;
  const r = e['response'];
  if (r !== null && typeof r === 'object') return { ...(r as Obj), output_text: a['output_text'] ?? (r as Obj)['output_text'] };
  if (e['type'] === 'response.output_text.delta' && typeof e['delta'] === 'string') a['output_text'] = concat(a['output_text'] as string | undefined, e['delta']);
  return a;
}

/** The end state of a response: `incomplete_details.reason` when incomplete, else its `status`. */
export function responseFinishReasons(out: unknown): string[] | undefined {
  const o = out as Obj | undefined;
  const reason = (o?.['incomplete_details'] as Obj | null | undefined)?.['reason'] ?? o?.['status'];
  return typeof reason === 'string' ? [reason] : undefined;
}

/** An embeddings response without the vectors: their count and dimensions are recorded instead. */
export function embeddingsOutput(out: unknown): unknown {
  const o = out as Obj | undefined;
  const data = o?.['data'];
  if (!Array.isArray(data)) return out;
  return {
    ...o,
    data: (data as Obj[]).map((d) => ({ index: d['index'], dimensions: Array.isArray(d['embedding']) ? d['embedding'].length : typeof d['embedding'] })),
  };
}
