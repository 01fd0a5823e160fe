/**
 * The review screen of one queue: one item at a time (the call as chat for a model call, its trace one click away; a
 * pair side by side), the fields beside it, the instructions, progress and the call's feedback so far (previous
 * answers). Works from the keyboard alone (review-keys.ts): next / previous through the items this reviewer
 * finished, thumbs, digits for scores, a key per category label, submit, skip. An answer shows on the call's
 * feedback at once. "Add to dataset" (datasets/add-to-dataset.tsx) keeps the item's call as a dataset row, its expected
 * output corrected first if the reviewer edits it.
 * @module
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { QueueItem } from 'weft-trace/viewer';
import { type CallRecord, streamQuery } from '../api';
import { viewerName } from '../feedback/feedback-api';
import { AddToDataset } from '../datasets/add-to-dataset';
import { DONE, LOADING, type LoadState, LoadStatus, reportFailure } from '../load-status';
import { AnswerFields, type Values } from './answer-fields';
import { ItemView } from './item-view';
import { answerItem, finishedBy, nextItem, type QueueView, readQueue, skipItem } from './queues-api';
import { useReviewKeys } from './use-review-keys';
import './queues.css';

interface Props {
  project: string;
  queue: string;
  onError: (e: unknown) => void;
}

/** This reviewer's answers given through the queue on a call, as values by field ref. */
function myAnswers(call: CallRecord | undefined, queueId: string, me: string): Values {
  const out: Values = {};
  for (const f of call?.summary.feedback ?? []) {
    if (f.queue_id === queueId && f.creator === me && f.annotation_ref) out[f.annotation_ref] = (f.payload as { value?: unknown }).value;
  }
  return out;
}

export function ReviewScreen({ project, queue, onError }: Props) {
  const me = viewerName();
  const [view, setView] = useState<QueueView | null>(null);
  const [history, setHistory] = useState<QueueItem[]>([]);
  const [current, setCurrent] = useState<QueueItem | null>(null);
  const [pos, setPos] = useState(0);
  const [calls, setCalls] = useState<CallRecord[] | null>(null);
  const [values, setValueState] = useState<Values>({});
  // the values as of the last key, read by submit: keys pressed faster than the screen renders see them all
  const valuesRef = useRef<Values>({});
  const setValues = (next: Values | ((old: Values) => Values)): void => {
    valuesRef.current = typeof next === 'function' ? next(valuesRef.current) : next;
    setValueState(valuesRef.current);
  };
  const [active, setActive] = useState(0);
  const [status, setStatus] = useState<LoadState>(LOADING);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [loaded, setLoaded] = useState(0);
  // counts the reads of the item's calls: the feedback panel starts again from each read (it keeps its own list)
  const [reads, setReads] = useState(0);
  const root = useRef<HTMLDivElement>(null);

  const item = pos < history.length ? history[pos]! : current;
  const refresh = useCallback(async (takeNext: boolean) => {
    const [v, done] = await Promise.all([readQueue(project, queue), finishedBy(project, queue, me)]);
    setView(v);
    setHistory(done);
    if (takeNext) {
      setCurrent(await nextItem(project, v.queue.id, me));
      setPos(done.length);
    }
  }, [project, queue, me]);

  useEffect(() => {
    refresh(true).then(() => setStatus(DONE), (e: unknown) => reportFailure(e, setStatus, onError));
  }, [refresh, onError]);

  useEffect(() => {
    if (!item || !view) return void setCalls(null);
    let stop = false;
    const ids = [item.call_id, ...(item.other_call_id ? [item.other_call_id] : [])];
    streamQuery({ project_id: project, filter: { call_ids: ids }, include_feedback: true, include_costs: true }).then((found) => {
      if (stop) return;
      const ordered = ids.map((id) => found.find((c) => c.id === id)).filter((c): c is CallRecord => c !== undefined);
      setCalls(ordered);
      setReads((n) => n + 1);
      setValues(myAnswers(ordered[0], view.queue.id, me));
      setActive(0);
    }, onError);
    return () => { stop = true; };
  }, [item?.id, item?.status, view?.queue.id, loaded, project, me, onError]);

  const finish = async (how: 'answer' | 'skip'): Promise<void> => {
    if (!item || !view || busy) return;
    const given = valuesRef.current;
    const answers = view.fields.filter((f) => given[f.ref] !== undefined).map((f) => ({ field_ref: f.ref, value: given[f.ref] }));
    if (how === 'answer' && answers.length === 0) return void setNote('Answer at least one field (or skip with s).');
    setBusy(true);
    setNote('');
    try {
      if (how === 'answer') await answerItem(project, view.queue.id, item.id, me, answers);
      else await skipItem(project, view.queue.id, item.id, me);
      const wasCurrent = pos >= history.length;
      await refresh(wasCurrent);
      setLoaded((n) => n + 1);
      setNote(how === 'answer' ? 'Saved.' : 'Skipped.');
    } catch (e) {
      onError(e);
    } finally {
      setBusy(false);
    }
  };

  const last = history.length;
  useReviewKeys({
    fields: view?.fields ?? [], values: () => valuesRef.current, active, root,
    setValue: (ref, v) => setValues((old) => ({ ...old, [ref]: v })),
    setActive: (i) => setActive(Math.max(0, Math.min(i, (view?.fields.length ?? 1) - 1))),
    next: () => setPos((p) => Math.min(p + 1, current ? last : Math.max(last - 1, 0))),
    previous: () => setPos((p) => Math.max(p - 1, 0)),
    submit: () => void finish('answer'),
    skip: () => void finish('skip'),
  });

  if (!view) return <div class="page"><LoadStatus state={status} what="the queue" /></div>;
  const p = view.progress;
  const mine = p.reviewers[me] ?? { done: 0, skipped: 0 };
  return (
    <div class="page review" ref={root} data-queue={view.queue.name}>
      <div class="rv-head">
        <h2><a href={`#/p/${encodeURIComponent(project)}/queues`}>Queues</a> / {view.queue.name}</h2>
        <span class="rv-progress" data-progress={`${p.done + p.skipped}/${p.total}`}>
          {p.done + p.skipped}/{p.total} reviewed · {p.pending} pending · you: {mine.done} done, {mine.skipped} skipped
        </span>
        <span class="muted">reviewing as <b>{me}</b></span>
      </div>
      <div class="rv-body">
        <div class="rv-item">
          {item ? (
            <>
              <div class="rv-nav muted">
                {pos < last ? `your item ${pos + 1} of ${last} (${item.status})` : 'next item'} · <kbd>k</kbd> previous · <kbd>j</kbd> next
              </div>
              {calls ? <ItemView project={project} item={item} calls={calls} feedbackKey={reads} onError={onError} /> : <p class="muted">Loading the call…</p>}
            </>
          ) : <p class="rv-empty">Nothing left to review in this queue. {last > 0 ? <>Press <kbd>k</kbd> to see your answers.</> : null}</p>}
        </div>
        <aside class="rv-side">
          {view.queue.instructions ? <div class="rv-instructions">{view.queue.instructions}</div> : null}
          <AnswerFields fields={view.fields} values={values} active={active} setActive={setActive} setValue={(ref, v) => setValues((old) => ({ ...old, [ref]: v }))} />
          <div class="rv-actions">
            <button type="button" disabled={!item || busy} onClick={() => void finish('answer')}>Submit <kbd>⏎</kbd></button>
            <button type="button" disabled={!item || busy} onClick={() => void finish('skip')}>Skip <kbd>s</kbd></button>
          </div>
          {item && calls ? <AddToDataset project={project} calls={calls.map((c) => ({ id: c.id, output: c.output, label: c.display_name ?? c.op_name }))} /> : null}
          {note ? <p class="rv-note" role="status">{note}</p> : null}
          <p class="muted rv-help">Keys: <kbd>↑</kbd><kbd>↓</kbd> field · <kbd>u</kbd>/<kbd>d</kbd> thumbs · digits score · letters category · <kbd>t</kbd> text · <kbd>⏎</kbd> submit · <kbd>s</kbd> skip · <kbd>k</kbd>/<kbd>j</kbd> previous/next</p>
        </aside>
      </div>
    </div>
  );
}
