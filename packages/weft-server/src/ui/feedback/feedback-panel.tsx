/**
 * A call's feedback on its detail: the records so far, thumbs up / down (a second click takes one's thumb back),
 * a note, a named numeric score; each stored at once and shown at once. One's own records (this browser's
 * creator name) carry a button that takes them back. A note or score entered while an earlier one is being stored
 * is stored after it (queued), not dropped: a form whose only submit button is disabled ignores Enter.
 * @module
 */
import { useRef, useState } from 'preact/hooks';
import { time } from '../time';
import { createFeedback, purgeFeedback, uuid7, viewerName } from './feedback-api';
import { type FeedbackRecord, feedbackItem, payloadText, type Reaction, thumbOf } from './feedback-items';

export interface FeedbackPanelProps {
  project: string;
  callId: string;
  /** The call's feedback as read (`summary.feedback`). */
  initial: readonly FeedbackRecord[];
  onError: (e: unknown) => void;
}

export function FeedbackPanel({ project, callId, initial, onError }: FeedbackPanelProps) {
  const [items, setItems] = useState<FeedbackRecord[]>([...initial]);
  const [note, setNote] = useState('');
  const [scoreName, setScoreName] = useState('quality');
  const [scoreValue, setScoreValue] = useState('');
  const [busy, setBusy] = useState(false);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const me = viewerName();
  const mine = items.filter((f) => f.creator === me);
  const myThumb = mine.find((f) => thumbOf(f) !== undefined);

  /** Runs `work` after whatever is still being stored, one at a time. */
  const run = (work: () => Promise<void>): Promise<void> => {
    const next = queue.current.then(async () => {
      setBusy(true);
      try {
        await work();
      } catch (e) {
        onError(e);
      } finally {
        setBusy(false);
      }
    });
    queue.current = next;
    return next;
  };
  const add = async (r: Reaction): Promise<void> => {
    const item = feedbackItem(project, callId, r, me, uuid7());
    const created_at = await createFeedback(item);
    const record = { ...(item as unknown as FeedbackRecord), created_at };
    setItems((old) => [...old, record]);
  };
  /** Stores `r` (queued); if that fails, puts `typed` back in its field (`setField`) unless something new was typed there. */
  const submit = (r: Reaction, setField: (next: (now: string) => string) => void, typed: string): void => {
    setField(() => ''); // cleared now, so what is typed while it is stored stays
    void run(() => add(r).catch((err: unknown) => {
      setField((now) => now || typed);
      throw err;
    }));
  };
  const remove = async (ids: string[]): Promise<void> => {
    await purgeFeedback(project, ids);
    setItems((old) => old.filter((f) => !ids.includes(f.id)));
  };
  const thumb = (up: boolean) => run(async () => {
    if (myThumb) await remove([myThumb.id]);
    if (!myThumb || thumbOf(myThumb) !== up) await add({ kind: 'thumbs', up });
  });

  return (
    <div class="feedback-panel">
      <div class="fb-actions">
        <button class={`fb-thumb ${myThumb && thumbOf(myThumb) ? 'on' : ''}`} aria-label="thumbs up" aria-pressed={Boolean(myThumb && thumbOf(myThumb))} disabled={busy} onClick={() => void thumb(true)}>▲</button>
        <button class={`fb-thumb ${myThumb && thumbOf(myThumb) === false ? 'on' : ''}`} aria-label="thumbs down" aria-pressed={myThumb !== undefined && thumbOf(myThumb) === false} disabled={busy} onClick={() => void thumb(false)}>▼</button>
        <form class="fb-form" onSubmit={(e) => {
          e.preventDefault();
          const text = note.trim();
          if (!text) return;
          submit({ kind: 'note', note: text }, setNote, text);
        }}>
          <input aria-label="note" placeholder="note" value={note} onInput={(e) => setNote((e.target as HTMLInputElement).value)} />
          <button type="submit" disabled={!note.trim()}>Add note</button>
        </form>
        <form class="fb-form" onSubmit={(e) => {
          e.preventDefault();
          const typed = scoreValue;
          const value = Number(typed);
          if (!scoreName.trim() || typed.trim() === '' || !Number.isFinite(value)) return;
          submit({ kind: 'score', name: scoreName.trim(), value }, setScoreValue, typed);
        }}>
          <input aria-label="score name" class="fb-name" value={scoreName} onInput={(e) => setScoreName((e.target as HTMLInputElement).value)} />
          <input aria-label="score value" class="fb-value" type="number" step="any" placeholder="0.8" value={scoreValue} onInput={(e) => setScoreValue((e.target as HTMLInputElement).value)} />
          <button type="submit">Add score</button>
        </form>
      </div>
      {items.length === 0 ? <p class="muted">none</p> : (
        <ul class="fb-list">
          {items.map((f) => (
            <li key={f.id} data-feedback={f.id}>
              <span class="chat-tag">{f.feedback_type}</span> <span class="fb-payload">{payloadText(f)}</span>
              <span class="muted"> {f.creator ?? ''}{f.created_at ? ` · ${time(f.created_at)}` : ''}</span>
              {f.creator === me ? <button class="link fb-remove" aria-label="take back" disabled={busy} onClick={() => void run(() => remove([f.id]))}>take back</button> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
