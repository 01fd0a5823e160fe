/**
 * The Datasets page: the project's datasets (latest version, when changed); one dataset's versions, the rows of the
 * one shown (each linking to its source call) and the difference between two versions (`?v=<version>&base=<version>`).
 * @module
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { href } from '../route';
import { time } from '../time';
import { DONE, LOADING, type LoadState, LoadStatus, reportFailure } from '../load-status';
import { diffRows } from './dataset-diff';
import { DatasetRows } from './dataset-rows';
import { type DatasetVersion, listDatasets, listVersions, readRows } from './datasets-api';
import { DiffView } from './diff-view';
import './datasets.css';

type OnError = (e: unknown) => void;

/** The rows of `version` (none while `version` is undefined), read again when it changes. */
function useRows(project: string, version: DatasetVersion | undefined, onError: OnError): { rows: unknown[] | null; status: LoadState } {
  const [rows, setRows] = useState<unknown[] | null>(null);
  const [status, setStatus] = useState<LoadState>(LOADING);
  useEffect(() => {
    setRows(null);
    if (!version?.table) return;
    const ctl = new AbortController();
    readRows(project, version.table, ctl.signal).then((r) => { setRows(r); setStatus(DONE); }, (e: unknown) => reportFailure(e, setStatus, onError));
    return () => ctl.abort();
  }, [project, version?.table, onError]);
  return { rows, status };
}

function DatasetList({ project, onError }: { project: string; onError: OnError }) {
  const [datasets, setDatasets] = useState<DatasetVersion[] | null>(null);
  const [status, setStatus] = useState<LoadState>(LOADING);
  useEffect(() => {
    const ctl = new AbortController();
    listDatasets(project, ctl.signal).then((d) => { setDatasets(d); setStatus(DONE); }, (e: unknown) => reportFailure(e, setStatus, onError));
    return () => ctl.abort();
  }, [project, onError]);
  if (datasets === null) return <LoadStatus state={status} what="datasets" />;
  if (datasets.length === 0) return <p class="empty">No datasets in {project}. Add calls to one from a call's detail or a selection in the traces list, or publish one with <code>Dataset.publish</code> or <code>weft datasets import</code>.</p>;
  return (
    <table class="ds-list">
      <thead><tr><th>dataset</th><th class="num">versions</th><th>updated</th><th>description</th></tr></thead>
      <tbody>
        {datasets.map((d) => (
          <tr key={d.name} data-dataset={d.name}>
            <td><a href={href({ view: 'datasets', project, name: d.name })}>{d.name}</a></td>
            <td class="num">{d.version + 1}</td>
            <td>{time(d.createdAt)}</td>
            <td>{d.description ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function DatasetDetail({ project, name, q, onError }: { project: string; name: string; q: Record<string, string>; onError: OnError }) {
  const [versions, setVersions] = useState<DatasetVersion[] | null>(null);
  const [status, setStatus] = useState<LoadState>(LOADING);
  useEffect(() => {
    const ctl = new AbortController();
    listVersions(project, name, ctl.signal).then((v) => { setVersions(v); setStatus(DONE); }, (e: unknown) => reportFailure(e, setStatus, onError));
    return () => ctl.abort();
  }, [project, name, onError]);
  const pick = (key: string): DatasetVersion | undefined => (q[key] === undefined ? undefined : versions?.find((v) => String(v.version) === q[key]));
  const shown = pick('v') ?? versions?.[versions.length - 1];
  const base = pick('base');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const { rows, status: rowsStatus } = useRows(project, shown, onError);
  const { rows: baseRows } = useRows(project, base, onError);
  const diff = useMemo(() => (rows && baseRows ? diffRows(baseRows, rows) : null), [rows, baseRows]);
  const go = (v: string, b?: string): void => { location.hash = href({ view: 'datasets', project, name, q: { v, ...(b !== undefined ? { base: b } : {}) } }); };
  if (versions === null) return <LoadStatus state={status} what={`versions of ${name}`} />;
  if (versions.length === 0) return <p class="empty">No dataset {name} in {project}.</p>;
  const options = versions.map((v) => <option value={String(v.version)}>v{v.version}</option>);
  return (
    <div class="ds-detail">
      <h2>{name}</h2>
      <table class="ds-versions">
        <thead><tr><th>version</th><th>created</th><th>digest</th><th>description</th></tr></thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.digest} data-version={v.version} class={v === shown ? 'picked' : ''}>
              <td><a href={href({ view: 'datasets', project, name, q: { v: String(v.version) } })}>v{v.version}</a>{v === versions[versions.length - 1] ? <span class="muted"> latest</span> : null}</td>
              <td>{time(v.createdAt)}</td>
              <td><code>{v.digest.slice(0, 12)}</code></td>
              <td>{v.description ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form class="ds-compare" onSubmit={(e) => { e.preventDefault(); go(to || String(shown?.version ?? 0), from || '0'); }}>
        compare <select aria-label="base version" value={from || (base ? String(base.version) : '')} onChange={(e) => setFrom((e.target as HTMLSelectElement).value)}><option value="">—</option>{options}</select>
        {' '}with <select aria-label="compared version" value={to || String(shown?.version ?? '')} onChange={(e) => setTo((e.target as HTMLSelectElement).value)}>{options}</select>
        {' '}<button type="submit">Compare</button>
      </form>
      {diff && base && shown ? <DiffView project={project} from={base.version} to={shown.version} diff={diff} /> : null}
      <h3>rows of v{shown?.version}</h3>
      {rows === null ? <LoadStatus state={rowsStatus} what="rows" /> : <DatasetRows project={project} rows={rows} />}
    </div>
  );
}

/** The page: the list, or one dataset when the route names it. */
export function DatasetsPage({ project, name, q, onError }: { project: string; name?: string | undefined; q?: Record<string, string> | undefined; onError: OnError }) {
  return (
    <div class="page datasets">
      <div class="listhead"><span><a href={href({ view: 'datasets', project })}>datasets</a>{name ? ` / ${name}` : ''}</span></div>
      {name ? <DatasetDetail key={name} project={project} name={name} q={q ?? {}} onError={onError} /> : <DatasetList project={project} onError={onError} />}
    </div>
  );
}
