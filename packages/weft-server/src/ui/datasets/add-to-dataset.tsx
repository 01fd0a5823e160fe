/**
 * "Add to dataset": a button opening a small form that adds one or more calls to a dataset (a new version of it),
 * each call's expected output shown as JSON for the reviewer to correct first. Used by the call detail and the
 * traces list's selection; any page holding calls (a review queue's item) can drop it in.
 * @module
 */
import { useEffect, useState } from 'preact/hooks';
import { type DatasetAddCallsRes, expectedFromText } from 'weft-trace/viewer';
import { href } from '../route';
import { addCallsToDataset, type CallToAdd, listDatasets } from './datasets-api';

/** A call offered to the form: its id, its output (the expected output unless corrected) and a label to show. */
export interface CallForDataset {
  id: string;
  output: unknown;
  label?: string;
}

const asText = (v: unknown): string => JSON.stringify(v ?? null, null, 2);

/**
 * The button and, once opened, the form: dataset name (existing ones offered), one expected output per call (a
 * correction when edited), then "Add". `onAdded` gets the server's answer (the new version).
 */
export function AddToDataset({ project, calls, onAdded }: { project: string; calls: readonly CallForDataset[]; onAdded?: (res: DatasetAddCallsRes, name: string) => void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [known, setKnown] = useState<string[]>([]);
  const [texts, setTexts] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ res: DatasetAddCallsRes; name: string } | null>(null);
  const ids = calls.map((c) => c.id).join(',');
  useEffect(() => {
    setTexts(calls.map((c) => asText(c.output)));
    setDone(null);
  }, [ids]);
  useEffect(() => {
    if (!open) return;
    const ctl = new AbortController();
    listDatasets(project, ctl.signal).then((ds) => setKnown(ds.map((d) => d.name)), () => setKnown([]));
    return () => ctl.abort();
  }, [open, project]);

  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const items: CallToAdd[] = calls.map((c, i) => (texts[i] !== undefined && texts[i] !== asText(c.output) ? { id: c.id, expected: expectedFromText(texts[i]) } : { id: c.id }));
      const res = await addCallsToDataset(project, name.trim(), items);
      setDone({ res, name: name.trim() });
      setOpen(false);
      onAdded?.(res, name.trim());
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const added = done ? (
    <span class="ds-added" role="status">
      added to <a href={href({ view: 'datasets', project, name: done.name })}>{done.name}</a> as v{done.res.version_index} ({done.res.rows} rows{done.res.created ? '' : ', unchanged'})
    </span>
  ) : null;
  if (!open) return <span class="add-ds"><button type="button" onClick={() => setOpen(true)} disabled={calls.length === 0}>Add to dataset{calls.length > 1 ? ` (${calls.length})` : ''}</button>{added}</span>;
  return (
    <form class="add-ds-form" onSubmit={(e) => void submit(e)} aria-label="add to dataset">
      <label>dataset <input list="ds-names" required pattern="[A-Za-z0-9_.\-]{1,128}" aria-label="dataset name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} placeholder="name (new or existing)" /></label>
      <datalist id="ds-names">{known.map((k) => <option value={k} />)}</datalist>
      {calls.map((c, i) => (
        <label class="ds-expected" key={c.id}>
          expected output{c.label ? ` of ${c.label}` : ''} (edit to correct)
          <textarea aria-label={`expected output ${i + 1}`} rows={Math.min(8, (texts[i] ?? '').split('\n').length)} value={texts[i] ?? ''} onInput={(e) => setTexts(texts.map((t, j) => (j === i ? (e.target as HTMLTextAreaElement).value : t)))} />
        </label>
      ))}
      {error !== null ? <p class="load-error" role="alert">{error}</p> : null}
      <div><button type="submit" disabled={busy || name.trim() === ''}>Add {calls.length === 1 ? 'call' : `${calls.length} calls`}</button> <button type="button" class="link" onClick={() => setOpen(false)}>cancel</button></div>
    </form>
  );
}
