/**
 * Test helper: Anthropic Messages answers (a message, its SSE events) shaped as the API reference shows.
 * @module
 */
import { streamedText, type Scenario } from './fake-llm-openai.js';

/** Anthropic usage: 1000 input tokens after the cache breakpoint, plus 300 written to and 200 read from the cache; 80 output. */
export const ANTHROPIC_USAGE = {
  input_tokens: 1000,
  cache_creation_input_tokens: 300,
  cache_read_input_tokens: 200,
  output_tokens: 80,
  service_tier: 'standard',
};

function content(s: Scenario): Record<string, unknown>[] {
  if (s.kind === 'tool') return [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }];
  if (s.kind === 'refusal') return [{ type: 'text', text: "I can't help with that." }];
  return [{ type: 'text', text: streamedText(s.chunks) }];
}

function stopReason(s: Scenario): string {
  return s.kind === 'tool' ? 'tool_use' : s.kind === 'refusal' ? 'refusal' : 'end_turn';
}

/** A `message` object. */
export function anthropicMessage(s: Scenario): Record<string, unknown> {
  return { id: 'msg_1', type: 'message', role: 'assistant', model: s.model, content: content(s), stop_reason: stopReason(s), stop_sequence: null, usage: ANTHROPIC_USAGE };
}

/** The SSE events of a streamed message: message_start (input usage), content blocks, message_delta (output usage), message_stop. */
export function anthropicStreamEvents(s: Scenario): { event: string; data: unknown }[] {
  const ev = (type: string, rest: Record<string, unknown>): { event: string; data: unknown } => ({ event: type, data: { type, ...rest } });
  const start = { ...anthropicMessage(s), content: [], stop_reason: null, usage: { ...ANTHROPIC_USAGE, output_tokens: 1 } };
  const out = [ev('message_start', { message: start })];
  if (s.kind === 'tool') {
    out.push(ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} } }));
    for (const part of ['{"city":', ' "Paris"}']) out.push(ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: part } }));
  } else {
    out.push(ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
    const pieces = s.kind === 'refusal' ? ["I can't ", 'help with that.'] : Array.from({ length: s.chunks }, (_, i) => (i === 0 ? 'w0' : ` w${i}`));
    for (const text of pieces) out.push(ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }));
  }
  out.push(ev('content_block_stop', { index: 0 }));
  out.push(ev('message_delta', { delta: { stop_reason: stopReason(s), stop_sequence: null }, usage: { output_tokens: 80 } }));
  out.push(ev('message_stop', {}));
  return out;
}

/**
 * The SSE events of any streamed `message` (its content blocks given whole): message_start with `usage` but one output
 * token, each block (text in two deltas, tool-use input as JSON in two deltas), message_delta with the stop reason and
 * the final output tokens, message_stop, as the Messages API streams them.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export function messageEvents(message: { id: string; model: string; content: Record<string, unknown>[]; stop_reason: string; usage: Record<string, number> }): { event: string; data: unknown }[] {
  const ev = (type: string, rest: Record<string, unknown>): { event: string; data: unknown } => ({ event: type, data: { type, ...rest } });
  const start = { id: message.id, type: 'message', role: 'assistant', model: message.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...message.usage, output_tokens: 1 } };
  const out = [ev('message_start', { message: start })];
  message.content.forEach((block, index) => {
    const split = (s: string): string[] => [s.slice(0, Math.ceil(s.length / 2)), s.slice(Math.ceil(s.length / 2))];
    if (block['type'] === 'tool_use') {
      out.push(ev('content_block_start', { index, content_block: { ...block, input: {} } }));
      for (const part of split(JSON.stringify(block['input']))) out.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } }));
    } else {
      out.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      for (const text of split(String(block['text']))) out.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text } }));
    }
    out.push(ev('content_block_stop', { index }));
  });
  out.push(ev('message_delta', { delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: message.usage['output_tokens'] ?? 0 } }));
  out.push(ev('message_stop', {}));
  return out;
}
