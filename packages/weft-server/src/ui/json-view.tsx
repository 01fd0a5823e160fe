/**
 * Readable, collapsible JSON: objects and arrays fold, long strings fold behind "show all (N chars)", media
 * references drawn from their files (media/media-view.tsx); nothing is cut without saying so.
 * @module
 */
import { useState } from 'preact/hooks';
import { isMediaRef } from '../media-ref';
import { MediaRefView } from './media/media-view';

const FOLD_CHARS = 300;
const OPEN_DEPTH = 2;

function LongString({ value }: { value: string }) {
  const [open, setOpen] = useState(false);
  if (value.length <= FOLD_CHARS) return <span class="j-str">{JSON.stringify(value)}</span>;
  return (
    <span class="j-str">
      {open ? JSON.stringify(value) : `${JSON.stringify(value.slice(0, FOLD_CHARS)).slice(0, -1)}…"`}{' '}
      <button class="link" onClick={() => setOpen(!open)}>{open ? 'fold' : `show all (${value.length} chars)`}</button>
    </span>
  );
}

function Node({ value, depth }: { value: unknown; depth: number }) {
  if (value === null) return <span class="j-null">null</span>;
  if (typeof value === 'string') return <LongString value={value} />;
  if (typeof value === 'number' || typeof value === 'boolean') return <span class="j-lit">{String(value)}</span>;
  if (typeof value !== 'object') return <span>{String(value)}</span>;
  if (isMediaRef(value)) return <span class="j-media" title={value.where}><MediaRefView mediaRef={value} /></span>;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
  const [open, brace, close] = Array.isArray(value) ? ['[', `${entries.length} items`, ']'] : ['{', `${entries.length} keys`, '}'];
  if (entries.length === 0) return <span>{open + close}</span>;
  return (
    <details open={depth < OPEN_DEPTH} class="j-node">
      <summary>{open} <span class="muted">{brace}</span></summary>
      <div class="j-children">
        {entries.map(([k, v]) => (
          <div key={k} class="j-entry">
            <span class="j-key">{k}</span>: <Node value={v} depth={depth + 1} />
          </div>
        ))}
      </div>
      {close}
    </details>
  );
}

/** JSON value shown as a tree; the first two levels open. */
export function JsonView({ value }: { value: unknown }) {
  return (
    <div class="json">
      <Node value={value} depth={0} />
    </div>
  );
}
