/**
 * A variant's messages, edited: each a role and its text, added and removed.
 * @module
 */
import type { Variant } from './playground-api';

type Message = Variant['messages'][number];
const ROLES: Message['role'][] = ['system', 'developer', 'user', 'assistant'];

export function MessagesEditor({ messages, onChange, label }: { messages: Message[]; onChange: (m: Message[]) => void; label: string }) {
  const set = (i: number, m: Partial<Message>): void => onChange(messages.map((x, j) => (j === i ? { ...x, ...m } : x)));
  return (
    <div class="pg-messages">
      {messages.map((m, i) => (
        <div class="pg-msg" data-role={m.role}>
          <div class="pg-msg-head">
            <select aria-label={`${label} message ${i + 1} role`} value={m.role} onChange={(e) => set(i, { role: (e.target as HTMLSelectElement).value as Message['role'] })}>
              {ROLES.map((r) => <option value={r}>{r}</option>)}
            </select>
            <button class="link" aria-label={`${label} remove message ${i + 1}`} onClick={() => onChange(messages.filter((_, j) => j !== i))}>remove</button>
          </div>
          <textarea aria-label={`${label} message ${i + 1}`} rows={Math.min(8, Math.max(2, m.content.split('\n').length))} value={m.content} onInput={(e) => set(i, { content: (e.target as HTMLTextAreaElement).value })} />
        </div>
      ))}
      <button class="link" onClick={() => onChange([...messages, { role: messages.length && messages[messages.length - 1]!.role === 'user' ? 'assistant' : 'user', content: '' }])}>+ message</button>
    </div>
  );
}
