/**
 * One message part drawn: text as text, a tool call with its name and JSON arguments (folded when long), a
 * tool result, reasoning folded, media from its stored file (media/media-view.tsx) or as a labelled placeholder with
 * its size, anything else as JSON.
 * @module
 */
import { bytesText } from '../format';
import { JsonView } from '../json-view';
import { MediaRefView } from '../media/media-view';
import type { ChatPart } from './chat-message';

/** Arguments or results longer than this (as JSON text) start folded. */
const FOLD_JSON_CHARS = 400;

function Folded({ label, value }: { label: string; value: unknown }) {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  const body = typeof value === 'string' ? <pre class="chat-pre">{value}</pre> : <JsonView value={value} />;
  if (text.length <= FOLD_JSON_CHARS) return <div class="chat-json">{body}</div>;
  return (
    <details class="chat-json">
      <summary class="muted">{label} ({text.length} chars)</summary>
      {body}
    </details>
  );
}

export function ChatPartView({ part }: { part: ChatPart }) {
  switch (part.kind) {
    case 'text':
      return <div class="chat-text">{part.text}</div>;
    case 'refusal':
      return <div class="chat-refusal">refused: {part.text}</div>;
    case 'reasoning':
      return (
        <details class="chat-reasoning">
          <summary class="muted">reasoning</summary>
          <div class="chat-text">{part.text}</div>
        </details>
      );
    case 'tool_call':
      return (
        <div class="chat-tool-call">
          <div><span class="chat-tag">tool call</span> <code class="chat-tool-name">{part.name}</code>{part.id ? <span class="muted"> {part.id}</span> : null}</div>
          <Folded label="arguments" value={part.arguments} />
        </div>
      );
    case 'tool_result':
      return (
        <div class="chat-tool-result">
          <div><span class="chat-tag">tool result</span>{part.name ? <> <code class="chat-tool-name">{part.name}</code></> : null}{part.id ? <span class="muted"> {part.id}</span> : null}</div>
          <Folded label="result" value={part.content} />
        </div>
      );
    case 'media':
      if (part.ref) return <div class="chat-media-file" data-where={part.ref.where}><MediaRefView mediaRef={part.ref} /></div>;
      return (
        <div class="chat-media">
          [{part.media}{part.mime ? ` ${part.mime}` : ''}{part.name ? ` ${part.name}` : ''}
          {part.bytes !== undefined ? `, ${bytesText(part.bytes)}` : ''}]
          {part.url ? <> <a href={part.url} target="_blank" rel="noreferrer noopener">{part.url.length > 80 ? `${part.url.slice(0, 80)}…` : part.url}</a></> : null}
        </div>
      );
    default:
      return <div class="chat-json"><JsonView value={part.value} /></div>;
  }
}
