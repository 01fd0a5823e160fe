/**
 * The call detail's conversation: the chat view of a model call, with its JSON (inputs and output) one click away.
 * @module
 */
import { useState } from 'preact/hooks';
import type { CallRecord } from '../api';
import { JsonView } from '../json-view';
import type { Chat } from './chat-message';
import { chatFacts } from './chat-facts';
import { ChatView } from './chat-view';

export function ChatSection({ call, chat }: { call: CallRecord; chat: Chat }) {
  const [json, setJson] = useState(false);
  return (
    <section class="section chat-section" data-format={chat.format}>
      <div class="chat-tabs" role="tablist">
        <button role="tab" aria-selected={!json} class={json ? '' : 'on'} onClick={() => setJson(false)}>Chat</button>
        <button role="tab" aria-selected={json} class={json ? 'on' : ''} onClick={() => setJson(true)}>JSON</button>
        <span class="muted">{chat.format}</span>
      </div>
      {json ? (
        <JsonView value={{ inputs: call.inputs, output: call.output }} />
      ) : (
        <ChatView messages={chat.messages} facts={chatFacts(call)} pending={call.ended_at === null} />
      )}
    </section>
  );
}
