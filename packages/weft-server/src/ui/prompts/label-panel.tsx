/**
 * A prompt's labels on its page: where each points, a form that moves one (or adds one) to a version without a new
 * version, stored as `setPromptLabel` stores it, and the log of every move (who, when, from, to).
 * @module
 */
import { useState } from 'preact/hooks';
import type { PromptLabels } from 'weft-trace/viewer';
import { setViewerName, viewerName } from '../feedback/feedback-api';
import { time } from '../time';
import { movePromptLabel, type PromptVersion } from './prompts-api';

export interface LabelPanelProps {
  project: string;
  name: string;
  versions: readonly PromptVersion[];
  labels: PromptLabels;
  /** The version the form offers first (the one picked on the page). */
  selected: string;
  onMoved: (labels: PromptLabels) => void;
}

export function LabelPanel({ project, name, versions, labels, selected, onMoved }: LabelPanelProps) {
  const [label, setLabel] = useState('production');
  const [to, setTo] = useState<string | null>(null);
  const [by, setBy] = useState(viewerName());
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const v = (digest: string | null): string => {
    const found = digest === null ? undefined : versions.find((x) => x.digest === digest);
    return found ? `v${found.index}` : digest === null ? '(new)' : digest.slice(0, 10);
  };
  const target = to ?? selected;
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      if (by.trim()) setViewerName(by);
      onMoved(await movePromptLabel(project, name, label.trim(), target, viewerName()));
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="plabels">
      <h3>Labels</h3>
      <ul class="plabel-list">{Object.entries(labels.labels).sort().map(([l, d]) => <li data-label={l}><span class="plabel">{l}</span> → {v(d)}</li>)}</ul>
      <form class="plabel-move" onSubmit={(e) => void submit(e)}>
        <label>label <input aria-label="label" list="plabel-names" value={label} onInput={(e) => setLabel((e.target as HTMLInputElement).value)} /></label>
        <datalist id="plabel-names">{Object.keys(labels.labels).map((l) => <option value={l} />)}</datalist>
        <label>to <select aria-label="to version" value={target} onChange={(e) => setTo((e.target as HTMLSelectElement).value)}>
          {versions.map((x) => <option value={x.digest}>v{x.index}</option>)}
        </select></label>
        <label>as <input aria-label="moved by" value={by} onInput={(e) => setBy((e.target as HTMLInputElement).value)} /></label>
        <button type="submit" disabled={busy}>Move label</button>
        {problem !== null ? <span class="load-error" role="alert">{problem}</span> : null}
      </form>
      <table class="ptable moves">
        <thead><tr><th>when</th><th>label</th><th>from</th><th>to</th><th>by</th></tr></thead>
        <tbody>{[...labels.moves].reverse().map((m) => (
          <tr data-move={m.label}><td>{time(m.at)}</td><td>{m.label}</td><td>{v(m.from)}</td><td>{v(m.to)}</td><td>{m.by}</td></tr>
        ))}</tbody>
      </table>
    </section>
  );
}
