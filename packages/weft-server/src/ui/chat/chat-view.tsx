/**
 * The conversation drawn: one bubble per message in order (system, user, assistant, tool), the reply marked,
 * and an optional header of facts. Props take normalized messages only, so any source can use it (model calls
 * here, RL trajectories' `messages_and_choices` through `messageList` of chat-messages.ts).
 * @module
 */
import { duration, usd } from '../format';
import type { ChatMessage } from './chat-message';
import type { ChatFacts } from './chat-facts';
import { ChatPartView } from './chat-part-view';

/** Props of {@link ChatView}. */
export interface ChatViewProps {
  /** The messages, in order (request, then reply with `reply: true`). */
  messages: readonly ChatMessage[];
  /** The header's facts; none: no header. */
  facts?: ChatFacts;
  /** Shown when the reply is still coming. */
  pending?: boolean;
}

export function ChatHeader({ facts }: { facts: ChatFacts }) {
  const items: [string, string][] = [];
  if (facts.model) items.push(['model', facts.model]);
  if (facts.inputTokens !== undefined) items.push(['input', `${facts.inputTokens} tok`]);
  if (facts.outputTokens !== undefined) items.push(['output', `${facts.outputTokens} tok`]);
  if (facts.cachedTokens !== undefined) items.push(['cached', `${facts.cachedTokens} tok`]);
  if (facts.reasoningTokens !== undefined) items.push(['reasoning', `${facts.reasoningTokens} tok`]);
  if (facts.costUsd !== undefined) items.push(['cost', usd(facts.costUsd)]);
  if (facts.ttftMs !== undefined) items.push(['first token', duration(facts.ttftMs)]);
  if (items.length === 0) return null;
  return (
    <div class="chat-facts">
      {items.map(([k, v]) => <span key={k} data-fact={k}><span class="muted">{k}</span> {v}</span>)}
    </div>
  );
}

export function ChatView({ messages, facts, pending }: ChatViewProps) {
  return (
    <div class="chat">
      {facts ? <ChatHeader facts={facts} /> : null}
      {messages.map((m, i) => (
        <div key={i} class={`chat-msg role-${m.role}${m.reply ? ' reply' : ''}`} data-role={m.role}>
          <div class="chat-role">{m.role}{m.name ? <span class="muted"> {m.name}</span> : null}{m.finishReason ? <span class="muted"> · {m.finishReason}</span> : null}</div>
          {m.parts.length === 0 ? <div class="muted">(empty)</div> : m.parts.map((p, j) => <ChatPartView key={j} part={p} />)}
        </div>
      ))}
      {pending ? <div class="chat-msg role-assistant reply muted">waiting for the reply…</div> : null}
    </div>
  );
}
