/**
 * The Evaluations page: the project's runs (name, dataset, time, per-score means, cost); 2 to 4 selected are compared below.
 * @module
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { EvalRun } from 'weft-trace/viewer';
import { fmt, usd } from '../format';
import { href } from '../route';
import { time } from '../time';
import { CompareView } from './compare-view';
import { loadRuns } from './eval-data';
import './evaluations.css';
import { DONE, LOADING, type LoadState, LoadStatus, reportFailure } from '../load-status';

const MAX = 4;

/** The page; `runIds` (from the URL) are the runs compared. */
export function EvaluationsPage({ project, runIds, onError }: { project: string; runIds: string[]; onError: (e: unknown) => void }) {
  const [runs, setRuns] = useState<EvalRun[] | null>(null);
  const [status, setStatus] = useState<LoadState>(LOADING);
  const [picked, setPicked] = useState<string[]>(runIds);
  const linked = runIds.join(',');
  // read again at each link, not once per project: a compare link opened in the same tab (a hash change, the page
  // stays mounted) names runs recorded since the list was read
  useEffect(() => {
    const ctl = new AbortController();
    loadRuns(project, runIds, ctl.signal).then((r) => { setRuns(r); setStatus(DONE); }, (e: unknown) => reportFailure(e, setStatus, onError));
    return () => ctl.abort();
  }, [project, linked, onError]);
  useEffect(() => setPicked(runIds), [linked]);

  const toggle = (id: string): void => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : p.length >= MAX ? p : [...p, id]));
  const scoreNames = [...new Set((runs ?? []).flatMap((r) => Object.keys(r.scores)))].sort();
  // one array per list read and link (the comparison reads its rows again when it changes, not at each render)
  const compared = useMemo(() => runIds.map((id) => runs?.find((r) => r.id === id)).filter((r): r is EvalRun => r !== undefined), [runs, linked]);
  return (
    <div class="page evals">
      <div class="listhead">
        {runs === null ? <LoadStatus state={status} what="evaluation runs" /> : <span>{runs.length} evaluation runs, newest first; pick 2 to {MAX} to compare</span>}
        <a class={`button${picked.length >= 2 ? '' : ' disabled'}`} href={picked.length >= 2 ? href({ view: 'evaluations', project, runIds: picked }) : undefined} aria-disabled={picked.length < 2}>
          Compare {picked.length} runs
        </a>
      </div>
      {runs !== null && runs.length === 0 ? <p class="empty">No evaluation runs in {project}. Run <code>evaluate()</code> from weft-trace (or a Weave SDK Evaluation) against this server.</p> : null}
      {runs !== null && runs.length > 0 ? (
        <div class="evaltable">
          <table>
            <thead><tr><th /><th>name</th><th>dataset</th><th>started</th>{scoreNames.map((s) => <th class="num">{s}</th>)}<th class="num">latency</th><th class="num">cost</th></tr></thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.id} class={picked.includes(r.id) ? 'picked' : ''} data-run={r.id}>
                  <td><input type="checkbox" aria-label={`compare ${r.name}`} checked={picked.includes(r.id)} disabled={!picked.includes(r.id) && picked.length >= MAX} onChange={() => toggle(r.id)} /></td>
                  <td><a href={href({ view: 'trace', project, traceId: r.id })}>{r.name}</a>{r.sdk === 'weave' ? <span class="muted"> (weave)</span> : null}</td>
                  <td>{r.dataset ?? '—'}</td>
                  <td>{time(r.startedAt)}</td>
                  {scoreNames.map((s) => <td class="num">{fmt(r.scores[s])}</td>)}
                  <td class="num">{r.latencyS === null ? '—' : `${fmt(r.latencyS)} s`}</td>
                  <td class="num">{r.costUsd === null ? '—' : usd(r.costUsd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {compared.length >= 2 ? <CompareView key={runIds.join(',')} project={project} runs={compared} onError={onError} /> : null}
    </div>
  );
}
