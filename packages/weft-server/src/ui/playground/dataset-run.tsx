/**
 * A variant run over a dataset with chosen scorers, recorded as an evaluation run (the Evaluations page lists and
 * compares it): the dataset and scorers picked, then each row's output and scores.
 * @module
 */
import { useEffect, useState } from 'preact/hooks';
import { fmt } from '../format';
import { href } from '../route';
import { datasets, evaluateVariant, type Variant } from './playground-api';
import { foldLine, IDLE, type RunState } from './variant-run';

const SCORERS = ['exact_match', 'string_similarity', 'json_valid'];

export function DatasetRun({ project, label, variant, onEvaluated }: { project: string; label: string; variant: Variant; onEvaluated: (runId: string) => void }) {
  const [list, setList] = useState<{ name: string; ref: string }[] | null>(null);
  const [ref, setRef] = useState('');
  const [scorers, setScorers] = useState<string[]>(['exact_match']);
  const [run, setRun] = useState<RunState>(IDLE);
  useEffect(() => {
    datasets(project).then((d) => { setList(d); setRef(d[0]?.ref ?? ''); }, () => setList([]));
  }, [project]);
  if (list === null || list.length === 0) return <p class="muted pg-nodata">{list === null ? '' : 'No datasets in this project to run over.'}</p>;
  const start = async (): Promise<void> => {
    let state: RunState = { ...IDLE, phase: 'running' };
    setRun(state);
    const ds = list.find((d) => d.ref === ref)?.name ?? 'dataset';
    try {
      await evaluateVariant(project, variant, ref, scorers, `playground-${label}-${variant.model}-${ds}`.replace(/[^\w.-]/g, '-'), (line) => setRun((state = foldLine(state, line))));
      if (state.runId) onEvaluated(state.runId);
      else if (state.phase === 'running') setRun({ ...state, phase: 'error', error: 'the run ended without an answer' });
    } catch (e) {
      setRun({ ...state, phase: 'error', error: e instanceof Error ? e.message : String(e) });
    }
  };
  const toggle = (s: string): void => setScorers((x) => (x.includes(s) ? x.filter((y) => y !== s) : [...x, s]));
  return (
    <div class="pg-dataset">
      <div class="pg-row">
        <select aria-label={`${label} dataset`} value={ref} onChange={(e) => setRef((e.target as HTMLSelectElement).value)}>{list.map((d) => <option value={d.ref}>{d.name}</option>)}</select>
        {SCORERS.map((s) => <label><input type="checkbox" aria-label={`${label} scorer ${s}`} checked={scorers.includes(s)} onChange={() => toggle(s)} /> {s}</label>)}
      </div>
      <button disabled={run.phase === 'running' || scorers.length === 0} onClick={() => void start()}>{run.phase === 'running' ? 'Running over the dataset…' : 'Run over dataset'}</button>
      {run.phase === 'error' ? <p class="load-error" role="alert">{run.error}</p> : null}
      {run.rows ? (
        <table class="ptable pg-rows" data-run={run.runId ?? ''}>
          <thead><tr><th>row</th><th>output</th><th>scores</th></tr></thead>
          <tbody>{run.rows.map((r) => (
            <tr><td>{r.index}</td><td>{r.error ? <span class="s-error">{r.error}</span> : String(typeof r.output === 'string' ? r.output : JSON.stringify(r.output))}</td>
              <td>{Object.entries(r.scores).map(([k, v]) => `${k}=${typeof v === 'number' ? fmt(v) : String(v)}`).join(' ')}</td></tr>
          ))}</tbody>
        </table>
      ) : null}
      {run.runId ? <a class="pg-evaluation" href={href({ view: 'evaluations', project, runIds: [run.runId] })}>evaluation run</a> : null}
    </div>
  );
}
