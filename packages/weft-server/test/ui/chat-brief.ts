// Test helper for the chat view's normalizers: a conversation as one short line per message.
import type { ChatMessage } from '../../src/ui/chat/chat-message.js';

/**
 * Role and a short text per part: `user: text "hi"`, `assistant: tool_call get_weather {"city":"Paris"}`,
 * `tool: tool_result get_weather call_1 {"temp":21}` (the tool's name, when known, before the id of the call answered).
 */
export const brief = (messages: readonly ChatMessage[]): string[] =>
  messages.map((m) => `${m.reply ? '>' : ''}${m.role}: ${m.parts.map((p) => {
    switch (p.kind) {
      case 'text': case 'reasoning': case 'refusal': return `${p.kind} ${JSON.stringify(p.text)}`;
      case 'tool_call': return `tool_call ${p.name} ${JSON.stringify(p.arguments)}`;
      case 'tool_result': return `tool_result ${p.name ? `${p.name} ` : ''}${p.id ?? ''} ${JSON.stringify(p.content)}`;
      case 'media': return `media ${p.media} ${p.mime ?? ''} ${p.bytes ?? p.url ?? ''}`;
      default: return `json ${JSON.stringify(p.value)}`;
    }
  }).join(' | ')}`);
