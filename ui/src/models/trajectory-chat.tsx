/**
 * A trajectory's messages, simply: role, text and tool calls per message (a choice shown as its message, with its
 * finish reason). A stand-in for the viewer's shared chat view.
 * @module
 */

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The text of a content value: a string, or its text parts joined; other values as JSON. */
function textOf(content: unknown): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (isObj(p) && typeof p['text'] === 'string' ? p['text'] : JSON.stringify(p))).join('');
  return JSON.stringify(content);
}

function Entry({ entry }: { entry: unknown }) {
  if (!isObj(entry)) return <div class="msg"><pre>{JSON.stringify(entry)}</pre></div>;
  const isChoice = isObj(entry['message']) && !('role' in entry);
  const m = isChoice ? (entry['message'] as Obj) : entry;
  const role = String(m['role'] ?? 'unknown');
  const calls = Array.isArray(m['tool_calls']) ? (m['tool_calls'] as Obj[]) : [];
  return (
    <div class={`msg role-${role}`}>
      <div class="msg-head">
        <b>{role}</b>
        {typeof m['tool_call_id'] === 'string' ? <span class="muted"> · result of {m['tool_call_id']}</span> : null}
        {isChoice ? <span class="muted"> · choice{entry['finish_reason'] ? ` (${String(entry['finish_reason'])})` : ''}{entry['logprobs'] ? ' · logprobs' : ''}</span> : null}
      </div>
      {textOf(m['content']) !== '' ? <div class="msg-text">{textOf(m['content'])}</div> : null}
      {calls.map((c) => {
        const f = isObj(c['function']) ? c['function'] : {};
        return <div class="msg-tool"><code>{String(f['name'] ?? '?')}({String(f['arguments'] ?? '')})</code> <span class="muted">{String(c['id'] ?? '')}</span></div>;
      })}
    </div>
  );
}

/** The entries of `messages_and_choices`, in order. */
export function TrajectoryChat({ entries }: { entries: unknown[] }) {
  return <div class="chat">{entries.map((e) => <Entry entry={e} />)}</div>;
}
