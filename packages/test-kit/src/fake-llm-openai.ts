/**
 * Test helper: OpenAI answers (chat completion, chunks, Responses API object and events, embeddings) shaped as the API reference shows.
 * @module
 */
import { pngOf, wavOf } from './media-files.js';

/** What one fake request asks for. */
export interface Scenario {
  model: string;
  /** Content chunks of a stream. */
  chunks: number;
  kind: 'text' | 'tool' | 'refusal';
  cut: boolean;
  /** `stream_options.include_usage` was sent. */
  includeUsage: boolean;
  /** `logprobs: true` was sent: text answers carry one logprob per word. */
  logprobs?: boolean;
  /** `modalities` asked for `audio`: the answer's message carries {@link FAKE_SPEECH} as `audio.data` (base64). */
  audio?: boolean;
}

/** The speech the fake answers with (chat audio output, `/audio/speech`): a WAV of a 0.25 s tone. */
export const FAKE_SPEECH = wavOf(0.25);

/** The image the fake generates (`/images/generations`, as `b64_json`): a PNG of about 4 KB. */
export const FAKE_IMAGE = pngOf(4000, 3);

/** The logprob entry of one streamed piece of text (`w0`, ` w1`, ...): logprob -0.1 × (index + 1). */
export function tokenLogprob(text: string, index: number): Record<string, unknown> {
  return { token: text, logprob: -0.1 * (index + 1), bytes: [...Buffer.from(text)], top_logprobs: [] };
}

/** The pieces a text answer of `n` chunks streams. */
function pieces(n: number): string[] {
  return Array.from({ length: n }, (_, i) => (i === 0 ? 'w0' : ` w${i}`));
}

function choiceLogprobs(s: Scenario, texts: string[], from = 0): Record<string, unknown> | null {
  return s.logprobs && s.kind === 'text' ? { content: texts.map((t, i) => tokenLogprob(t, from + i)), refusal: null } : null;
}

/** The usage every OpenAI answer reports: 1200 prompt tokens of which 200 cached, 80 completion tokens of which 30 reasoning. */
export const OPENAI_USAGE = {
  prompt_tokens: 1200,
  completion_tokens: 80,
  total_tokens: 1280,
  prompt_tokens_details: { cached_tokens: 200, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 30, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};

const CREATED = 1_763_900_000;

/** The text a stream of `n` chunks spells: `w0 w1 ...`. */
export function streamedText(n: number): string {
  return Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
}

const TOOL_ARGS = '{"city":"Paris"}';

function message(s: Scenario): Record<string, unknown> {
  if (s.kind === 'refusal') return { role: 'assistant', content: null, refusal: "I'm sorry, I can't help with that.", annotations: [] };
  if (s.kind === 'tool') {
    return {
      role: 'assistant',
      content: null,
      refusal: null,
      annotations: [],
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: TOOL_ARGS } }],
    };
  }
  const text = { role: 'assistant', content: streamedText(s.chunks), refusal: null, annotations: [] };
  if (!s.audio) return text;
  return { ...text, content: null, audio: { id: 'audio_1', data: FAKE_SPEECH.toString('base64'), expires_at: CREATED + 3600, transcript: streamedText(s.chunks) } };
}

/** A `chat.completion` object. */
export function chatCompletion(s: Scenario): Record<string, unknown> {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: CREATED,
    model: `${s.model}-2024-07-18`,
    choices: [{ index: 0, message: message(s), logprobs: choiceLogprobs(s, pieces(s.chunks)), finish_reason: s.kind === 'tool' ? 'tool_calls' : 'stop' }],
    usage: OPENAI_USAGE,
    service_tier: 'default',
    system_fingerprint: 'fp_1',
  };
}

/** The `chat.completion.chunk`s of a stream: role, content (or tool-call / refusal pieces), finish, and the usage chunk when asked. */
export function chatChunks(s: Scenario): Record<string, unknown>[] {
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: CREATED, model: `${s.model}-2024-07-18`, service_tier: 'default', system_fingerprint: 'fp_1' };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, logprobs: unknown = null): Record<string, unknown> => {
    const c: Record<string, unknown> = { ...base, choices: [{ index: 0, delta, logprobs, finish_reason: finish }] };
    if (s.includeUsage) c['usage'] = null;
    return c;
  };
  const out = [chunk({ role: 'assistant', content: '', refusal: null })];
  if (s.kind === 'tool') {
    out.push(chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }));
    out.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }));
    out.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }));
  } else if (s.kind === 'refusal') {
    out.push(chunk({ refusal: "I'm sorry, " }), chunk({ refusal: "I can't help with that." }));
  } else {
    pieces(s.chunks).forEach((p, i) => out.push(chunk({ content: p }, null, choiceLogprobs(s, [p], i))));
  }
  out.push(chunk({}, s.kind === 'tool' ? 'tool_calls' : 'stop'));
  if (s.includeUsage) out.push({ ...base, choices: [], usage: OPENAI_USAGE });
  return out;
}

/** Responses API usage: 1200 input tokens of which 200 cached, 80 output of which 30 reasoning. */
export const RESPONSES_USAGE = {
  input_tokens: 1200,
  input_tokens_details: { cached_tokens: 200 },
  output_tokens: 80,
  output_tokens_details: { reasoning_tokens: 30 },
  total_tokens: 1280,
};

/** A Responses API `response` object, `completed` unless `inProgress`. */
export function responseObject(s: Scenario, inProgress = false): Record<string, unknown> {
  const text = streamedText(s.chunks);
  return {
    id: 'resp_1',
    object: 'response',
    created_at: CREATED,
    status: inProgress ? 'in_progress' : 'completed',
    model: `${s.model}-2024-07-18`,
    output: inProgress
      ? []
      : [{ type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] }],
    incomplete_details: null,
    error: null,
    usage: inProgress ? null : RESPONSES_USAGE,
  };
}

/** The events of a streamed response: created, the message item and its text part opened, text deltas, both closed, completed (with usage). */
export function responseEvents(s: Scenario): { event: string; data: unknown }[] {
  let n = 0;
  const ev = (type: string, rest: Record<string, unknown>): { event: string; data: unknown } => ({ event: type, data: { type, sequence_number: n++, ...rest } });
  const text = streamedText(s.chunks);
  const at = { item_id: 'msg_1', output_index: 0, content_index: 0 };
  const item = (status: string, content: unknown[]): Record<string, unknown> => ({ type: 'message', id: 'msg_1', status, role: 'assistant', content });
  const part = (t: string): Record<string, unknown> => ({ type: 'output_text', text: t, annotations: [] });
  const out = [
    ev('response.created', { response: responseObject(s, true) }),
    ev('response.in_progress', { response: responseObject(s, true) }),
    ev('response.output_item.added', { output_index: 0, item: item('in_progress', []) }),
    ev('response.content_part.added', { ...at, part: part('') }),
  ];
  for (let i = 0; i < s.chunks; i++) out.push(ev('response.output_text.delta', { ...at, delta: i === 0 ? 'w0' : ` w${i}`, logprobs: [] }));
  out.push(
    ev('response.output_text.done', { ...at, text, logprobs: [] }),
    ev('response.content_part.done', { ...at, part: part(text) }),
    ev('response.output_item.done', { output_index: 0, item: item('completed', [part(text)]) }),
    ev('response.completed', { response: responseObject(s) }),
  );
  return out;
}

/** An embeddings answer: one 8-dimension vector per input (base64 float32 when `encoding_format` asks). */
export function embeddings(body: Record<string, unknown>): Record<string, unknown> {
  const inputs = Array.isArray(body['input']) ? body['input'] : [body['input']];
  return {
    object: 'list',
    data: inputs.map((_, index) => {
      const vector = Array.from({ length: 8 }, (_v, j) => (index + j) / 8);
      // The SDK asks for base64 unless the caller chose a format, and decodes the float32 values itself.
      const embedding = body['encoding_format'] === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
      return { object: 'embedding', index, embedding };
    }),
    model: String(body['model']),
    usage: { prompt_tokens: 12 * inputs.length, total_tokens: 12 * inputs.length },
  };
}
