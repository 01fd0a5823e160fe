/**
 * What wrapGoogleGenAI records of a Gemini response: stream chunks folded into one response, the response without its HTTP headers, embeddings without their vectors, finish reasons, model and id.
 * @module
 */
import type { ResponseFacts } from './llm-call.js';

type Obj = Record<string, unknown>;
type Part = Obj & { text?: unknown; thought?: unknown };
type Candidate = Obj & { content: Obj & { parts: Part[] } };
type Folded = Obj & { candidates: Candidate[] };

/** Appends `part`: a text part joins the text part before it when both are thoughts or neither is; any other part is added as it is. */
function addPart(parts: Part[], part: Part): void {
  const last = parts[parts.length - 1];
  if (last && typeof last.text === 'string' && typeof part.text === 'string' && Boolean(last.thought) === Boolean(part.thought)) {
    Object.assign(last, part, { text: last.text + part.text });
  } else {
    parts.push({ ...part });
  }
}

/** Folds one chunk's candidate into the response's candidate of the same `index`: fields overwritten, parts joined. */
function foldCandidate(acc: Folded, c: Obj, position: number): void {
  const index = typeof c['index'] === 'number' ? c['index'] : position;
  const content = (c['content'] ?? {}) as Obj;
  const into = (acc.candidates[index] ??= { content: { role: content['role'] ?? 'model', parts: [] } });
  for (const k in c) if (k !== 'content') into[k] = c[k];
  for (const k in content) if (k !== 'parts') into.content[k] = content[k];
  if (Array.isArray(content['parts'])) for (const p of content['parts'] as Part[]) if (p !== null && typeof p === 'object') addPart(into.content.parts, p);
}

/**
 * Folds one chunk of `generateContentStream` (a `GenerateContentResponse`) into one response: each candidate's
 * parts joined (consecutive text, and consecutive thought text, become one part), its `finishReason` and other
 * fields the latest sent; the top-level fields (`usageMetadata`, the request's running total, `modelVersion`,
 * `responseId`, `promptFeedback`) the latest sent. The chunks themselves are not changed.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
export function foldGeminiChunk(acc: unknown, chunk: unknown): unknown {
  const a = (acc ?? { candidates: [] }) as Folded;
  if (chunk === null || typeof chunk !== 'object') return a;
  const c = chunk as Obj;
  for (const k in c) {
    if (k === 'sdkHttpResponse' || typeof c[k] === 'function') continue;
    if (k !== 'candidates') a[k] = c[k];
    else if (Array.isArray(c[k])) (c[k] as unknown[]).forEach((cand, i) => cand !== null && typeof cand === 'object' && foldCandidate(a, cand as Obj, i));
  }
  return a;
}

/** The response without `sdkHttpResponse` (the HTTP headers the SDK attaches): the body the API answered. */
export function geminiOutput(out: unknown): unknown {
  if (out === null || typeof out !== 'object' || !('sdkHttpResponse' in out)) return out;
  const { sdkHttpResponse: _headers, ...body } = out as Obj;
  return body;
}

/** An `embedContent` response without the vectors: each embedding's dimensions (and statistics) are recorded instead. */
export function geminiEmbeddingsOutput(out: unknown): unknown {
  const body = geminiOutput(out) as Obj | undefined;
  const list = body?.['embeddings'];
  if (!Array.isArray(list)) return body;
  return {
    ...body,
    embeddings: (list as Obj[]).map((e) => {
      const { values, ...rest } = e ?? {};
      return { ...rest, dimensions: Array.isArray(values) ? values.length : typeof values };
    }),
  };
}

/** Each candidate's `finishReason`, else the prompt's `blockReason` when the prompt was blocked. */
export function geminiFinishReasons(out: unknown): string[] | undefined {
  const o = out as Obj | undefined;
  const reasons: string[] = [];
  const candidates = o?.['candidates'];
  if (Array.isArray(candidates)) for (const c of candidates as (Obj | undefined)[]) if (typeof c?.['finishReason'] === 'string') reasons.push(c['finishReason']);
  const blocked = (o?.['promptFeedback'] as Obj | undefined)?.['blockReason'];
  if (reasons.length === 0 && typeof blocked === 'string') reasons.push(blocked);
  return reasons.length > 0 ? reasons : undefined;
}

/**
 * A model name as priced and shown: `models/gemini-2.5-flash` and
 * `projects/p/locations/l/publishers/google/models/gemini-2.5-flash` are `gemini-2.5-flash`.
 */
export function bareModel(model: unknown): unknown {
  return typeof model === 'string' ? model.replace(/^(?:.*\/)?models\//, '') : model;
}

/** `modelVersion` and `responseId` of the response; usage is keyed by the request's model, bare, when it names none. */
export function geminiFacts(out: unknown, body: Obj): ResponseFacts {
  const o = (out ?? {}) as Obj;
  const model = o['modelVersion'];
  const id = o['responseId'];
  return { model: typeof model === 'string' && model !== '' ? model : undefined, id: typeof id === 'string' ? id : undefined, requestModel: bareModel(body['model']) };
}
