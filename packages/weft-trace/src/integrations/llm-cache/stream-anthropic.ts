/**
 * The event stream an Anthropic message recorded whole replays as: the Messages API's streaming events, one delta per content block.
 * @module
 */
import { sseEvent } from './stream-openai.js';

type Obj = Record<string, unknown>;

/** A content block as `content_block_start` opens it, and the delta that fills it (none for a block sent whole). */
function blockEvents(block: Obj): { start: Obj; delta?: Obj } {
  switch (block['type']) {
    case 'text':
      return { start: { ...block, text: '' }, delta: { type: 'text_delta', text: block['text'] ?? '' } };
    case 'thinking':
      return { start: { ...block, thinking: '', signature: '' }, delta: { type: 'thinking_delta', thinking: block['thinking'] ?? '' } };
    case 'tool_use':
    case 'server_tool_use':
      return { start: { ...block, input: {} }, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block['input'] ?? {}) } };
    default:
      return { start: block };
  }
}

/**
 * The streaming events of `message` (as `wrapAnthropic` records a stream folded): `message_start` (the message
 * without content, with its usage), per content block its start, one delta (text, thinking and its signature,
 * tool input as JSON) and stop, `message_delta` (stop reason, output tokens) and `message_stop`. Folded again
 * (`foldMessageEvent`, the SDK's `MessageStream`) they give the same message.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export function messageEvents(message: Obj): string[] {
  const events: string[] = [];
  const emit = (type: string, data: Obj): void => void events.push(sseEvent({ type, ...data }, type));
  const usage = (message['usage'] ?? {}) as Obj;
  emit('message_start', { message: { ...message, content: [], stop_reason: null, stop_sequence: null } });
  const content = Array.isArray(message['content']) ? (message['content'] as Obj[]) : [];
  for (const [index, block] of content.entries()) {
    const { start, delta } = blockEvents(block);
    emit('content_block_start', { index, content_block: start });
    if (delta) emit('content_block_delta', { index, delta });
    if (block['type'] === 'thinking' && typeof block['signature'] === 'string') emit('content_block_delta', { index, delta: { type: 'signature_delta', signature: block['signature'] } });
    emit('content_block_stop', { index });
  }
  emit('message_delta', { delta: { stop_reason: message['stop_reason'] ?? null, stop_sequence: message['stop_sequence'] ?? null }, usage: { output_tokens: usage['output_tokens'] ?? 0 } });
  emit('message_stop', {});
  return events;
}
