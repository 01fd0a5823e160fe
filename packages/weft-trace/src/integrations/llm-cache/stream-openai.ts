/**
 * The event stream an OpenAI answer recorded whole (a chat completion, a Responses API response) replays as: the events the API sends, one per part of the answer.
 * @module
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One SSE event as a cassette stores it (`events` of a recorded response): its lines without the blank line. */
export function sseEvent(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}`;
}

/**
 * The `chat.completion.chunk` events of `completion` (a `chat.completion`, as `wrapOpenAI` records a stream folded),
 * then `usage` in a chunk of its own (empty `choices`), then `[DONE]`: per choice, a chunk with the role, the content
 * or refusal and the logprobs, one chunk per tool call (arguments whole), and a chunk with the finish reason. Folded
 * again (`foldChatChunk`, the SDKs' stream helpers) they give the same completion.
 * @see https://platform.openai.com/docs/api-reference/chat/streaming
 */
export function chatCompletionEvents(completion: Obj, usage: unknown): string[] {
  const head: Obj = { id: completion['id'], object: 'chat.completion.chunk', created: completion['created'], model: completion['model'] };
  if (completion['system_fingerprint'] !== undefined) head['system_fingerprint'] = completion['system_fingerprint'];
  const chunk = (choices: unknown[]): string => sseEvent({ ...head, choices });
  const events: string[] = [];
  const choices = Array.isArray(completion['choices']) ? (completion['choices'] as Obj[]) : [];
  for (const [i, choice] of choices.entries()) {
    const index = typeof choice['index'] === 'number' ? choice['index'] : i;
    const m = (isObj(choice['message']) ? choice['message'] : {}) as Obj;
    const delta: Obj = { role: m['role'] ?? 'assistant', content: m['content'] ?? null };
    if (typeof m['refusal'] === 'string') delta['refusal'] = m['refusal'];
    events.push(chunk([{ index, delta, logprobs: choice['logprobs'] ?? null, finish_reason: null }]));
    const calls = Array.isArray(m['tool_calls']) ? (m['tool_calls'] as Obj[]) : [];
    for (const [j, call] of calls.entries()) {
      events.push(chunk([{ index, delta: { tool_calls: [{ index: j, id: call['id'], type: call['type'] ?? 'function', function: call['function'] }] }, logprobs: null, finish_reason: null }]));
    }
    events.push(chunk([{ index, delta: {}, logprobs: null, finish_reason: choice['finish_reason'] ?? 'stop' }]));
  }
  if (usage !== undefined) events.push(sseEvent({ ...head, choices: [], usage }));
  events.push('data: [DONE]');
  return events;
}

/**
 * The Responses API events of `response` (as `wrapOpenAI` records a stream folded: the `response.completed`
 * response): `response.created`, per output item its `added` / `done` events and, for a message's text parts, the
 * part's events with its text in one `response.output_text.delta`, then `response.completed`; numbered in order.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export function responseEvents(response: Obj): string[] {
  const { output_text: _text, ...r } = response;
  const events: string[] = [];
  const emit = (type: string, data: Obj): void => void events.push(sseEvent({ type, sequence_number: events.length, ...data }, type));
  emit('response.created', { response: { ...r, status: 'in_progress', output: [], usage: null } });
  const output = Array.isArray(r['output']) ? (r['output'] as Obj[]) : [];
  for (const [output_index, item] of output.entries()) {
    const parts = item['type'] === 'message' && Array.isArray(item['content']) ? (item['content'] as Obj[]) : undefined;
    emit('response.output_item.added', { output_index, item: parts ? { ...item, content: [], status: 'in_progress' } : item });
    for (const [content_index, part] of (parts ?? []).entries()) {
      const at = { item_id: item['id'], output_index, content_index };
      const text = part['type'] === 'output_text' && typeof part['text'] === 'string' ? part['text'] : undefined;
      emit('response.content_part.added', { ...at, part: text === undefined ? part : { ...part, text: '' } });
      if (text !== undefined) {
        emit('response.output_text.delta', { ...at, delta: text, logprobs: [] });
        emit('response.output_text.done', { ...at, text, logprobs: [] });
      }
      emit('response.content_part.done', { ...at, part });
    }
    emit('response.output_item.done', { output_index, item });
  }
  emit('response.completed', { response: r });
  return events;
}
